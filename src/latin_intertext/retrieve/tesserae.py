"""Tesserae v3 scoring (Forstall et al. 2015), re-implemented after ``cgi-bin/read_table.pl``.

In Tesserae's terms the query (Valerius Flaccus, the alluding text) is the *target*
and a corpus line (the alluded-to text) the *source*. With the v3 defaults
(``feature=stem``, ``stop=10``, ``stbasis=corpus``, ``dibasis=freq``, ``freq_basis=text``)
a pair of units is scored thus:

1. Tokens match when they share a lemma (a "stem" feature: *any* candidate lemma of
   the form, so ambiguous forms match every possibility); lemmas on the stop list,
   the 10 most frequent in the corpus, never match.
2. The pair is kept only if each side has at least 2 matched tokens and those
   tokens show at least 2 different forms on each side.
3. ``d`` on each side is the number of words from one of the two lowest-frequency
   matched tokens to the other, inclusive (adjacent words: 2).
4. ``score = ln( (Σ_target 1/f_t(form) + Σ_source 1/f_s(form)) / (d_t + d_s) )`` over
   the matched tokens, where ``f`` is the relative frequency of the form *in its
   own text* (count / tokens of the text).

Unmatched lines score ``-inf`` and are not returned.

Deviations from v3, all forced by the benchmark's shape or our lemmatiser:

- Lemmas: Tesserae's Latin stem dictionary is replaced by
  :func:`latin.lemma_candidates` (simplemma's lemma plus every Whitaker's Words lemma).
- Frequencies are v3's ``.freq_score_stem`` (``Tesserae.pm``'s ``write_freq_score``): a form's count
  is every token of the text that shares one or more candidate lemmas with it, each token once
  (:class:`StemFrequencies`).
- "Own text" of a corpus line is its work as a whole (e.g. the Aeneid: all books, as
  ``select_file_freq`` maps ``.part.N`` to the whole work). The target's own text, the
  whole *Argonautica* for the benchmark, is not given to a retriever, which sees only a passage; its stand-in is
  the searched corpus, the same for every passage, so a passage scores the same searched alone, with others
  or from the search page. A passage's form that the corpus never writes still has a frequency, from the
  corpus's tokens that share a lemma with it.
- Units: the target unit is a query span (one or more lines), not always one line; a
  corpus unit is a line of its ``.tess`` file; the search tool cuts a line of over 40 words (a prose
  section) into phrases after v3's phrase delimiters, as v3 cuts prose (``latin.phrases``, which
  does not cut after an abbreviation or at a question in brackets, and cuts a phrase still over 40 words after its commas, where v3 keeps it
  whole); v3 also offers phrases of ordinary verse, which this project does not.
- Stop list: the 10 most frequent lemmas of the searched corpus (v3: of its whole
  Latin corpus), counting every candidate lemma of each token. On the benchmark it is
  et, qui, quis, sum, in, hic, edo, non, ille, nec (``edo`` rides on the ambiguous ``est``, as v3's stem
  counts do).
- Tokens are :mod:`latin_intertext.latin`'s words with enclitics split off (v3 keeps -que on the form).
- Ties between equally rare matched tokens (for the distance) go to the leftmost word, as in
  ``read_table.pl``, which sorts the tokens by position before it sorts them by frequency.
- Scores are not rounded to 3 decimals (v3's ``sprintf("%.3f")``), which only merges ties, nor cut at v3's default
  ``--cutoff 0``: every pair v3 would score is ranked.
- Words in another script (Greek) count as word positions, where v3's ``[a-zA-Z]`` tokeniser skips them.

:meth:`Tesserae.score_detail` gives the terms of a line's score, which searching shows beside each hit.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import AbstractSet, Sequence

import numpy as np

from latin_intertext import latin
from latin_intertext.benchmark import CorpusLine
from latin_intertext.retrieve.base import Retriever, ScoreDetail, ScoredWord, register
from latin_intertext.retrieve.postings import Postings


def text_tokens(text: str) -> list[tuple[str, frozenset[str]]]:
    """(folded form, candidate lemmas) for each word of ``text``."""
    return [(t.norm, latin.lemma_candidates(t.form)) for t in latin.tokenize(text)]


class StemFrequencies:
    """v3's frequency of a form in a text: the share of the text's tokens that have a candidate lemma in common with
    the form, each token counted once ("the count for a word includes every occurrence of an inflected form with which
    it shares one or more possible lemmata"). Any set of lemmas has one, so a form the text never writes has one too."""

    def __init__(self, texts: Sequence[Sequence[tuple[str, frozenset[str]]]]):
        by_set = Counter(lemmas for tokens in texts for _form, lemmas in tokens)
        self._counts = list(by_set.values())
        self._sets_with: dict[str, list[int]] = defaultdict(list)  # lemma -> the lemma sets that hold it
        for i, lemmas in enumerate(by_set):
            for lemma in lemmas:
                self._sets_with[lemma].append(i)
        self.n_tokens = max(sum(self._counts), 1)
        self._memo: dict[frozenset[str], float] = {}

    def lemma_counts(self) -> Counter[str]:
        """How often each lemma is a candidate of a token (every candidate of each token counts): v3's stop list basis."""
        return Counter({lemma: sum(self._counts[i] for i in sets) for lemma, sets in self._sets_with.items()})

    def of(self, lemmas: frozenset[str]) -> float:
        """The relative frequency of a form with these candidate lemmas (a count of at least 1)."""
        if (known := self._memo.get(lemmas)) is None:
            sets = {i for lemma in lemmas for i in self._sets_with.get(lemma, ())}
            known = self._memo[lemmas] = max(sum(self._counts[i] for i in sets), 1) / self.n_tokens
        return known


def rare_pair_distance(positions: Sequence[int], inv_freqs: Sequence[float]) -> int:
    """Words from one of the two rarest matched tokens to the other, inclusive."""
    order = sorted(range(len(positions)), key=lambda i: (-inv_freqs[i], positions[i]))
    a, b = positions[order[0]], positions[order[1]]
    return abs(a - b) + 1


def pair_score(
    target: Sequence[tuple[int, str, float]], source: Sequence[tuple[int, str, float]], max_distance: int = 999
) -> float | None:
    """v3 score of one pair from its matched tokens ``(position, form, 1/f)`` per side; ``None`` if the pair is dropped
    (fewer than 2 matched tokens or forms on a side, or summed distance over ``max_distance``)."""
    if len(target) < 2 or len(source) < 2:
        return None
    if len({f for _, f, _ in target}) < 2 or len({f for _, f, _ in source}) < 2:
        return None
    distance = rare_pair_distance([p for p, _, _ in target], [w for _, _, w in target]) + rare_pair_distance(
        [p for p, _, _ in source], [w for _, _, w in source]
    )
    if distance > max_distance:
        return None
    total = sum(w for _, _, w in target) + sum(w for _, _, w in source)
    return float(np.log(total / distance))


def _lemma_positions(tokens: Sequence[tuple[str, frozenset[str]]], stop: AbstractSet[str]) -> dict[str, list[int]]:
    """Each lemma of the tokens outside the stop list, with the token positions where it stands, in order."""
    out: dict[str, list[int]] = defaultdict(list)
    for pos, (_form, lemmas) in enumerate(tokens):
        for lemma in lemmas - stop:
            out[lemma].append(pos)
    return out


@register("tesserae", "Tesserae v3 scoring: lemma matches, >=2 per side, ln(sum 1/freq / distance of rarest pair)", cache_index=True)
class Tesserae(Retriever):
    hit_rule = "shares two words, in two different forms on each side (Tesserae v3's rule), with"

    def __init__(self, stopwords: int = 10, max_distance: int = 999):
        super().__init__()
        self.stopwords = stopwords
        self.max_distance = max_distance

    def _index(self, corpus: Sequence[CorpusLine]) -> None:
        lines = [text_tokens(d.text) for d in corpus]
        by_work: dict[tuple[str, str], list[int]] = defaultdict(list)
        for i, d in enumerate(corpus):
            by_work[(d.author, d.work)].append(i)
        inv_freq: list[list[float]] = [[] for _ in lines]
        for members in by_work.values():
            stems = StemFrequencies([lines[i] for i in members])
            for i in members:
                inv_freq[i] = [1.0 / stems.of(lemmas) for _form, lemmas in lines[i]]
        self._target_stems = StemFrequencies(lines)  # the passage's frequencies: the searched corpus, for every passage
        counts = self._target_stems.lemma_counts()
        self.stoplist_ = latin.commonest(counts, self.stopwords)
        stop = set(self.stoplist_)
        self._lines = lines
        self._inv_freq = inv_freq
        # Inverted index: lemma -> (line ids, token positions) of its occurrences.
        positions = [_lemma_positions(tokens, stop) for tokens in lines]
        self._vocab = {lemma: i for i, lemma in enumerate(dict.fromkeys(l for by_lemma in positions for l in by_lemma))}
        self._postings = Postings.of(positions, self._vocab)
        self._stop = stop
        self._passages: dict[str, tuple] = {}  # see _passage

    def no_hits_reason(self, text: str) -> str | None:
        """Why nothing can match: fewer than two of the passage's words are outside the stop list."""
        live = [form for form, lemmas in text_tokens(text) if lemmas - self._stop]
        if len(live) >= 2:
            return None
        return (
            f"Tesserae matches only words outside its stop list, the {len(self.stoplist_)} commonest lemmas of the corpus "
            f"({', '.join(self.stoplist_)}); the passage has {len(live)} such word(s), and a line needs two."
        )

    def _passage(self, text: str) -> tuple[list[tuple[str, frozenset[str]]], dict[str, list[int]], list[float]]:
        """The passage's tokens, their lemmas off the stop list and their 1/f, kept for the last few passages (keyed by
        the passage, so concurrent searches never read each other's): a search scores with them, then asks for the
        detail of each of its hits."""
        if (known := self._passages.get(text)) is None:
            query = text_tokens(text)
            known = (query, _lemma_positions(query, self._stop), [1.0 / self._target_stems.of(lemmas) for _form, lemmas in query])
            if len(self._passages) >= 8:
                self._passages.clear()
            self._passages[text] = known
        return known

    def score_detail(self, text: str, doc: int) -> ScoreDetail | None:
        """The terms of v3's formula for one line: each side's matched words with their 1/f, the distance between each
        side's two rarest, and the words both share that the stop list keeps out of the score."""
        query, q_lemmas, q_inv = self._passage(text)
        l_lemmas = _lemma_positions(self._lines[doc], self._stop)
        shared = q_lemmas.keys() & l_lemmas.keys()
        target = [(p, query[p][0], q_inv[p]) for p in sorted({p for lemma in shared for p in q_lemmas[lemma]})]
        source = [(p, self._lines[doc][p][0], self._inv_freq[doc][p]) for p in sorted({p for lemma in shared for p in l_lemmas[lemma]})]
        score = pair_score(target, source, self.max_distance)
        if score is None:
            return None
        stopped = {lemma for _form, lemmas in query for lemma in lemmas & self._stop} & {lemma for _form, lemmas in self._lines[doc] for lemma in lemmas & self._stop}
        return ScoreDetail(
            formula="ln((sum 1/f query + sum 1/f line) / (d query + d line))",
            score=score,
            query=[ScoredWord(form, p, w) for p, form, w in target],
            line=[ScoredWord(form, p, w) for p, form, w in source],
            d_query=rare_pair_distance([p for p, _, _ in target], [w for _, _, w in target]),
            d_line=rare_pair_distance([p for p, _, _ in source], [w for _, _, w in source]),
            stop_listed=sorted(stopped),
        )

    def score_all(self, text: str) -> np.ndarray:
        scores = np.full(len(self.doc_ids), -np.inf)
        query, q_lemmas, q_inv = self._passage(text)
        keys = {l: p for l, p in q_lemmas.items() if l in self._vocab}  # lemma -> query token positions
        if not keys:
            return scores
        key_list = list(keys)
        every_line = np.arange(len(self.doc_ids))
        line_ids, key_of, positions = self._postings.occurrences([self._vocab[l] for l in key_list], every_line)
        # Cheap filter: the source line needs >= 2 distinct matched tokens (a stride past the longest line's last word).
        stride = int(positions.max()) + 1 if len(positions) else 1
        tokens = np.unique(line_ids.astype(np.int64) * stride + positions)
        per_line = np.bincount(tokens // stride, minlength=len(self.doc_ids))
        keep = per_line[line_ids] >= 2
        line_ids, positions, key_of = line_ids[keep], positions[keep], key_of[keep]
        order = np.argsort(line_ids, kind="stable")
        line_ids, positions, key_of = line_ids[order], positions[order], key_of[order]
        bounds = np.flatnonzero(np.diff(line_ids)) + 1
        for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, len(line_ids)]):
            if lo == hi:
                continue
            line = int(line_ids[lo])
            src_pos = sorted(set(positions[lo:hi].tolist()))
            tgt_pos = sorted({p for kid in set(key_of[lo:hi].tolist()) for p in keys[key_list[kid]]})
            tokens_line = self._lines[line]
            inv = self._inv_freq[line]
            source = [(p, tokens_line[p][0], inv[p]) for p in src_pos]
            target = [(p, query[p][0], q_inv[p]) for p in tgt_pos]
            score = pair_score(target, source, self.max_distance)
            if score is None:
                continue
            scores[line] = score
        return scores
