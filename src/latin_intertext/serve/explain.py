"""Why a line was found: the words it shares with the query, on both sides, with lemmas and positions.

Words are compared with :func:`latin.tokenize`, as every retriever does. A pair of words matches

- ``form``: same folded form (``arma`` / ``arma``);
- ``lemma``: same lemma, another form (``armis`` / ``arma``: lemma ``arma``);
- ``candidate``: no shared chosen lemma, but the lexicon lists a lemma both forms may belong to.

Common function words (``et``, ``in``, ``qui`` ...) are marked ``weak`` so views can play them down.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache

from latin_intertext import latin

KINDS = ("form", "lemma", "candidate")
FUNCTION_LEMMAS = frozenset(
    """a ab ad at atque aut autem cum de dum e ego et etiam ex hic iam idem ille in inter ipse is iste
    meus nam ne nec neque non nos nunc o per post pro quam que qui quia quidem quis quod se sed si sic
    sub sui sum suus tamen tu tum tuus ubi uel ut uos""".split()
)


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
        return asdict(self)


def _span(t: latin.Token) -> WordSpan:
    return WordSpan(t.form, t.lemma, t.position, t.start, t.end)


@lru_cache(maxsize=65536)
def _candidates(form: str) -> frozenset[str]:
    try:
        return latin.lemma_candidates(form)
    except (ImportError, AttributeError):  # the lexicon is optional: fall back to the chosen lemma
        return frozenset({latin.tokenize(form)[0].lemma}) if latin.has_latin_words(form) else frozenset()


def match_words(query_tokens: list[latin.Token], line_tokens: list[latin.Token], candidates: bool = True) -> list[MatchedWord]:
    """The words ``line_tokens`` share with ``query_tokens``, strongest kind first, in line order."""
    out: list[MatchedWord] = []
    by_lemma: dict[str, list[latin.Token]] = {}
    for t in query_tokens:
        by_lemma.setdefault(t.lemma, []).append(t)
    used_line: set[int] = set()
    used_query: set[int] = set()
    line_by_lemma: dict[str, list[latin.Token]] = {}
    for t in line_tokens:
        line_by_lemma.setdefault(t.lemma, []).append(t)
    for lemma, line_side in line_by_lemma.items():
        query_side = by_lemma.get(lemma)
        if not query_side:
            continue
        same_form = {t.norm for t in query_side} & {t.norm for t in line_side}
        kind = "form" if same_form and len({t.norm for t in query_side + line_side}) == 1 else "lemma"
        out.append(MatchedWord(lemma, kind, lemma in FUNCTION_LEMMAS, tuple(map(_span, query_side)), tuple(map(_span, line_side))))
        used_line.update(t.position for t in line_side)
        used_query.update(t.position for t in query_side)
    if candidates:
        rest_query = [t for t in query_tokens if t.position not in used_query]
        rest_line = [t for t in line_tokens if t.position not in used_line]
        shared: dict[str, tuple[list, list]] = {}
        q_cands = {t.position: _candidates(t.form.lower()) for t in rest_query}
        for lt in rest_line:
            lc = _candidates(lt.form.lower())
            for qt in rest_query:
                common = lc & q_cands[qt.position]
                if common:
                    lemma = min(common)
                    q, ln = shared.setdefault(lemma, ([], []))
                    if qt not in q:
                        q.append(qt)
                    if lt not in ln:
                        ln.append(lt)
        for lemma, (q, ln) in shared.items():
            out.append(MatchedWord(lemma, "candidate", lemma in FUNCTION_LEMMAS, tuple(map(_span, q)), tuple(map(_span, ln))))
    out.sort(key=lambda m: (m.weak, KINDS.index(m.kind), m.line[0].position))
    return out


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
