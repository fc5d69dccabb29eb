"""Why a line was found: the words it shares with the query, on both sides, with lemmas and positions.

Words are compared with :func:`latin.tokenize`, as every retriever does. The words of one lemma match as

- ``form``: the same folded form stands on both sides (``arma`` / ``arma``), even where context reads it two ways
  (*Veneris* opening a line, read as *uenio*, and inside a sentence, *Venus*);
- ``lemma``: the same chosen lemma, other forms (``armis`` / ``arma``: lemma ``arma``); a lemma standing in one
  form on both sides and in another too is shown twice, each word by its own kind;
- ``candidate``: no shared chosen lemma, but the lexicon lists a lemma both forms may belong to (shown by the
  reading either side chose, where one did).

Common function words (``et``, ``in``, ``qui`` ...) are marked ``weak`` so views can play them down.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from latin_intertext import latin
from latin_intertext.retrieve.base import ScoreDetail

KINDS = ("form", "lemma", "candidate")


@dataclass(frozen=True)
class WordSpan:
    """One word of a text: as written, its lemma, its index among the words and its character offsets."""

    form: str
    lemma: str
    position: int
    start: int
    end: int


@dataclass(frozen=True)
class MatchedWord:
    """A lemma (or form) shared by the query and a line, with every place it stands on each side."""

    lemma: str
    kind: str  # "form" | "lemma" | "candidate"
    weak: bool  # a common function word
    query: tuple[WordSpan, ...]
    line: tuple[WordSpan, ...]

    def to_dict(self) -> dict:
        """With ``lemma_shown``, the lemma as the CLI and the page show it (*vir*; ``lemma`` stays the folded *uir*)."""
        return {**asdict(self), "lemma_shown": latin.display_lemma(self.lemma)}


def _span(t: latin.Token) -> WordSpan:
    return WordSpan(t.form, t.lemma, t.position, t.start, t.end)


class _Matches:
    """Words paired so far, grouped by the lemma shown and the kind of match, so that each word is shown by its own
    kind (*abest* ~ *abest* a form, *abest* ~ *absit* a lemma, not both under the stronger)."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, str], tuple[dict[int, latin.Token], dict[int, latin.Token]]] = {}  # words by position
        self.used_query: set[int] = set()
        self.used_line: set[int] = set()

    def add(self, lemma: str, kind: str, query: list[latin.Token], line: list[latin.Token]) -> None:
        q, ln = self.groups.setdefault((lemma, kind), ({}, {}))
        for side, tokens in ((q, query), (ln, line)):
            for t in tokens:
                side.setdefault(t.position, t)
        self.used_query.update(t.position for t in query)
        self.used_line.update(t.position for t in line)

    def result(self) -> list[MatchedWord]:
        out = [
            MatchedWord(lemma, kind, lemma in latin.FUNCTION_LEMMAS, tuple(_span(q[p]) for p in sorted(q)), tuple(_span(ln[p]) for p in sorted(ln)))
            for (lemma, kind), (q, ln) in self.groups.items()
        ]
        return sorted(out, key=lambda m: (m.weak, KINDS.index(m.kind), m.line[0].position))


def _by(tokens: list[latin.Token], key) -> dict[str, list[latin.Token]]:
    grouped: dict[str, list[latin.Token]] = {}
    for t in tokens:
        grouped.setdefault(key(t), []).append(t)
    return grouped


def match_words(query_tokens: list[latin.Token], line_tokens: list[latin.Token], candidates: bool = True) -> list[MatchedWord]:
    """The words ``line_tokens`` share with ``query_tokens``, strongest kind first, in line order."""
    found = _Matches()
    query_by_lemma = _by(query_tokens, lambda t: t.lemma)
    for lemma, line_side in _by(line_tokens, lambda t: t.lemma).items():
        if query_side := query_by_lemma.get(lemma):
            same_form = {t.norm for t in query_side} & {t.norm for t in line_side}
            if same_form:
                found.add(lemma, "form", [t for t in query_side if t.norm in same_form], [t for t in line_side if t.norm in same_form])
            if other_forms := [t for t in line_side if t.norm not in same_form]:  # the lemma's other forms in the line
                found.add(lemma, "lemma", query_side, other_forms)
            elif rest := [t for t in query_side if t.norm not in same_form]:  # the query's other forms of it
                found.add(lemma, "lemma", rest, line_side)
    # the same form read two ways by context (a capital opening a line or the passage): still the same word, shown by
    # its reading as a name where one side read it so (Veneris: uenus, not uenio)
    rest_query = _by([t for t in query_tokens if t.position not in found.used_query], lambda t: t.norm)
    for norm, line_side in _by([t for t in line_tokens if t.position not in found.used_line], lambda t: t.norm).items():
        if query_side := rest_query.get(norm):
            readings = [t.lemma for t in (*query_side, *line_side)]
            found.add(next((r for r in readings if r == latin.name_reading(query_side[0].form)), readings[0]), "form", query_side, line_side)
    if candidates:  # a query word already matched may still share another reading with a further line word
        for lt in [t for t in line_tokens if t.position not in found.used_line]:
            for qt in query_tokens:
                if common := latin.lemma_candidates(lt.form) & latin.lemma_candidates(qt.form):
                    lemma = next((chosen for chosen in (qt.lemma, lt.lemma) if chosen in common), min(common))
                    found.add(lemma, "candidate", [qt], [lt])
    return found.result()


def segments(text: str, spans: list[tuple[WordSpan, MatchedWord]]) -> list[tuple[str, MatchedWord | None]]:
    """``text`` cut into pieces, each with the match it belongs to (None for plain text), for highlighting."""
    out: list[tuple[str, MatchedWord | None]] = []
    cursor = 0
    for span, match in sorted(spans, key=lambda p: p[0].start):
        if span.start < cursor:
            continue
        if span.start > cursor:
            out.append((text[cursor : span.start], None))
        out.append((text[span.start : span.end], match))
        cursor = span.end
    if cursor < len(text):
        out.append((text[cursor:], None))
    return out


def line_segments(text: str, matches: list[MatchedWord]) -> list[tuple[str, MatchedWord | None]]:
    return segments(text, [(s, m) for m in matches for s in m.line])


def query_segments(text: str, matches: list[MatchedWord]) -> list[tuple[str, MatchedWord | None]]:
    return segments(text, [(s, m) for m in matches for s in m.query])


def score_terms(detail: ScoreDetail | None) -> str:
    """A Tesserae score's terms in one line (:meth:`Retriever.score_detail`), so that a reader sees why one line
    outranks another: each side's summed 1/f, the distances between each side's two rarest words, and the shared
    words the stop list kept out of the score. "" where the retriever gives no terms."""
    if not detail:
        return ""
    query, line = (sum(w.inv_freq for w in side) for side in (detail.query, detail.line))
    words = " ".join(w.form for w in detail.query) + " ~ " + " ".join(w.form for w in detail.line)
    text = (
        f"score = ln(({query:,.0f} + {line:,.0f}) / ({detail.d_query} + {detail.d_line})) = {detail.score:.3f}: "
        f"1/f summed over the scored words ({words}), over the words spanned by the two rarest on each side"
    )
    if detail.stop_listed:
        text += f"; not scored (stop list): {', '.join(detail.stop_listed)}"
    return text
