"""Tesserae-style evidence for a query against many lines at once: which lemmas both share, how rare they are,
where they stand and how close together, computed with numpy over the positions of the shared lemmas.

A query is scored against some 500 candidate lines; looping over them in Python cost about 9 ms a query, a third
of the ranker's time. Here each feature is a handful of array operations over the table of (line, lemma,
position) occurrences of the query's lemmas in the candidate lines, read from the corpus's
:class:`~latin_intertext.retrieve.postings.Postings`.
``tests/pair_oracle.py`` keeps the line-by-line definition these must equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Container

import numpy as np

if TYPE_CHECKING:
    from latin_intertext.retrieve.features import LineIndex, Unit

PAIR_FEATURES = [
    "tess_score",
    "tess_dist_line",
    "tess_dist_query",
    "matched_tokens",
    "rarest_match_freq",
    "ordered_pairs",
    "edge_match",
    "same_sedes",
    "query_words",
    "idf_rarest",
    "idf_second",
    "rare_shared",
    "bg_idf_rarest",
    "bg_idf_second",
    "phrase_idf",
    "phrase_gap",
    "phrase_pairs",
    "shares_query_rarest",
    "query_pos_mean",
    "query_center_dist",
]
PHRASE_WINDOW = 4  # words: two shared lemmas this close on both sides make a phrase
NO_GAP = 99  # the gap of two lemmas that never stand at different places
RARE_IDF = 6.0
N_RAREST = 3
NO_TESSERAE = -20.0  # Tesserae scores pairs with two matched words or more on both sides; below any real score


@dataclass(frozen=True)
class QueryLemmas:
    """The query's lemmas that can be shared (in the corpus vocabulary, the stop list aside), in the query's order."""

    names: list[str]
    term_ids: list[int]
    positions: list[list[int]]  # word positions in the query
    freq: np.ndarray  # corpus frequency (Tesserae's), 1 for lemmas the corpus never lemmatised so
    idf: np.ndarray
    background: np.ndarray  # rarity in a large Latin corpus; 0 without one
    n_words: int

    @classmethod
    def of(cls, index: "LineIndex", query: "Unit", names: list[str]) -> "QueryLemmas":
        vocab, idf = index.vocab["lemmaset"], index.idf["lemmaset"]
        background: Callable[[str], float] | None = index.background_idf
        return cls(
            names,
            [vocab[l] for l in names],
            [query.terms["lemmaset"][l] for l in names],
            np.array([index.lemma_freq.get(l, 1) for l in names], dtype=np.float64),
            np.array([float(idf[vocab[l]]) for l in names], dtype=np.float64),
            np.array([background(l) for l in names] if background else np.zeros(len(names)), dtype=np.float64),
            query.n_words,
        )

    def at_positions(self) -> np.ndarray:
        """(lemmas, query words) boolean: lemma k stands at word p."""
        out = np.zeros((len(self.names), max(self.n_words, 1)), dtype=bool)
        for k, where in enumerate(self.positions):
            out[k, where] = True
        return out


def query_lemmas(index: "LineIndex", query: "Unit", known: Container[str]) -> list[str]:
    """The query's candidate lemmas found in ``known`` (a vocabulary, a line's terms), the stop list aside, in the query's order."""
    return [l for l in query.terms["lemmaset"] if l in known and l not in index.stop]


def rarest_query_lemmas(index: "LineIndex", query: "Unit", n: int = N_RAREST) -> list[str]:
    vocab, idf = index.vocab["lemmaset"], index.idf["lemmaset"]
    known = query_lemmas(index, query, vocab)
    return sorted(known, key=lambda l: (-idf[vocab[l]], l))[:n]


def pair_feature_matrix(index: "LineIndex", query: "Unit", docs: np.ndarray) -> np.ndarray:
    """:data:`PAIR_FEATURES` of ``query`` against each line of ``docs``: (len(docs), len(PAIR_FEATURES)) float32."""
    lemmas = query_lemmas(index, query, index.vocab["lemmaset"])
    rarest = rarest_query_lemmas(index, query)
    docs = np.asarray(docs, dtype=np.int64)
    unique, back = np.unique(docs, return_inverse=True)
    q = QueryLemmas.of(index, query, lemmas)
    n_rows, n_lemmas = len(unique), len(lemmas)
    row_of_line = np.full(len(index.lines), -1, dtype=np.int64)
    row_of_line[unique] = np.arange(n_rows)
    rows, ks, pos = index.postings.occurrences(q.term_ids, row_of_line)
    line_words = index.lengths[unique].astype(np.int64)

    shared = np.zeros((n_rows, n_lemmas), dtype=bool)
    shared[rows, ks] = True
    cell = rows * n_lemmas + ks
    line_count = np.bincount(cell, minlength=n_rows * n_lemmas).reshape(n_rows, n_lemmas)
    line_first = np.full(n_rows * n_lemmas, np.iinfo(np.int64).max)
    np.minimum.at(line_first, cell, pos)
    line_first = line_first.reshape(n_rows, n_lemmas)
    q_at = q.at_positions()
    q_count = np.array([len(p) for p in q.positions], dtype=np.float64)
    q_first = np.array([p[0] for p in q.positions], dtype=np.int64)

    q_words_matched = (shared.astype(np.float32) @ q_at.astype(np.float32) > 0).sum(axis=1)  # BLAS: integer products are not
    word_rows, word_labels, word_pos = _matched_words(rows, ks, pos)
    line_words_matched = np.bincount(word_rows, minlength=n_rows)

    tess, d_line, d_query = _tesserae(q, shared, line_count, line_first, q_count, q_first, (q_words_matched >= 2) & (line_words_matched >= 2))
    freq_shared = np.where(shared, q.freq[None, :], np.inf).min(axis=1, initial=np.inf)
    last = line_words[rows] - 1
    edge = _lemmas_where(shared.shape, rows, ks, (pos == 0) | (pos == last))
    query_pos = pos + (q.n_words - line_words[rows])  # the same distance from the end of the line: the same sedes
    in_query = (query_pos >= 0) & (query_pos < q_at.shape[1])
    sedes = _lemmas_where(shared.shape, rows, ks, in_query & q_at[ks, np.clip(query_pos, 0, q_at.shape[1] - 1)])
    idf_top = _two_largest(shared, q.idf)
    bg_top = _two_largest(shared, q.background)
    rarest_k = [lemmas.index(l) for l in rarest]
    where_mean, where_centre = _query_position(q, shared)
    columns = [
        tess,
        d_line,
        d_query,
        line_words_matched,
        np.where(np.isfinite(freq_shared), freq_shared, 0.0),
        _ordered_pairs(q, shared, word_rows, word_labels, word_pos),
        edge,
        sedes,
        np.full(n_rows, float(q.n_words)),
        *idf_top,
        (shared & (q.idf > RARE_IDF)[None, :]).sum(axis=1),
        *bg_top,
        *_phrases(q, rows, ks, pos, n_rows),
        shared[:, rarest_k].sum(axis=1),
        where_mean,
        where_centre,
    ]
    return np.column_stack([np.asarray(c, dtype=np.float64) for c in columns]).astype(np.float32)[back].reshape(len(docs), len(PAIR_FEATURES))


def _tesserae(q: QueryLemmas, shared, line_count, line_first, q_count, q_first, scored) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tesserae-style, not v3's own score (the ``tesserae`` retriever is that): log(sum over the shared lemmas of their
    count on both sides / their corpus count, over the distances between the two rarest shared lemmas on each side);
    distances count words, both ends included. Unlike v3 it sums per lemma, not per word, uses corpus counts on both
    sides, and does not ask for two different forms; it is one piece of evidence among many, cheap over 500 lines."""
    n_rows, n_lemmas = shared.shape
    weight = np.zeros(n_rows)
    for k in range(n_lemmas):  # in the query's order, one column at a time: the same sums as the definition's
        weight = weight + np.where(shared[:, k], 1.0 / q.freq[k] * (line_count[:, k] + q_count[k]), 0.0)
    rank = np.empty(n_lemmas, dtype=np.int64)
    rank[sorted(range(n_lemmas), key=lambda k: (q.freq[k], q.names[k]))] = np.arange(n_lemmas)
    d_line = np.ones(n_rows)
    d_query = np.ones(n_rows)
    if n_lemmas >= 2:
        two = np.argsort(np.where(shared, rank[None, :], n_lemmas), axis=1, kind="stable")[:, :2]
        both = shared.sum(axis=1) >= 2
        at = np.arange(n_rows)
        d_line = np.where(both, np.abs(line_first[at, two[:, 0]] - line_first[at, two[:, 1]]) + 1.0, 1.0)
        d_query = np.where(both, np.abs(q_first[two[:, 0]] - q_first[two[:, 1]]) + 1.0, 1.0)
    with np.errstate(divide="ignore"):
        tess = np.where(scored, np.log(np.where(scored, weight, 1.0) / (d_line + d_query)), NO_TESSERAE)
    return tess, np.where(scored, d_line, 0.0), np.where(scored, d_query, 0.0)


def _lemmas_where(shape: tuple[int, int], rows, ks, flag) -> np.ndarray:
    """How many shared lemmas of each line have an occurrence where ``flag`` holds."""
    hit = np.zeros(shape, dtype=bool)
    hit[rows[flag], ks[flag]] = True
    return hit.sum(axis=1)


def _two_largest(shared: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The largest and second largest ``values`` of each line's shared lemmas (0 where there are fewer)."""
    if shared.shape[1] == 0:
        return np.zeros(shared.shape[0]), np.zeros(shared.shape[0])
    masked = np.sort(np.where(shared, values[None, :], -np.inf), axis=1)[:, ::-1]
    masked = np.where(np.isfinite(masked), masked, 0.0)
    return masked[:, 0], (masked[:, 1] if shared.shape[1] > 1 else np.zeros(shared.shape[0]))


def _matched_words(rows, ks, pos) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each line's matched words once (row, label, position), labelled with the last of their shared lemmas in the
    query's order: computed over the occurrences, not over every word of the lines, so a long line costs no more."""
    if not len(rows):
        return rows, ks, pos
    order = np.lexsort((ks, pos, rows))
    r, p, k = rows[order], pos[order], ks[order]
    last = np.r_[(r[1:] != r[:-1]) | (p[1:] != p[:-1]), True]  # the word's last occurrence holds its largest lemma
    return r[last], k[last], p[last]


def _ordered_pairs(q: QueryLemmas, shared, word_rows, word_labels, word_pos) -> np.ndarray:
    """How many neighbouring matched words of the query come in the same order in the line.

    Each matched word is labelled with one of its shared lemmas, the last in the query's order where a word has
    several; a pair counts when both labels differ and the first's label first appears earlier in the line.
    """
    n_rows, n_lemmas = shared.shape
    q_label = np.full((n_rows, max(q.n_words, 1)), -1, dtype=np.int64)
    for k in range(n_lemmas):
        for p in q.positions[k]:
            q_label[:, p] = np.where(shared[:, k], k, q_label[:, p])
    never = np.iinfo(np.int64).max
    first = np.full((n_rows, n_lemmas), never, dtype=np.int64)
    np.minimum.at(first, (word_rows, word_labels), word_pos)
    present = first < never
    matched = q_label >= 0
    previous = np.maximum.accumulate(np.where(matched, np.arange(q_label.shape[1])[None, :], -1), axis=1)
    previous = np.concatenate([np.full((n_rows, 1), -1), previous[:, :-1]], axis=1)  # the matched word before each
    r, p = np.nonzero(matched & (previous >= 0))
    a, b = q_label[r, previous[r, p]], q_label[r, p]
    hit = (a != b) & present[r, a] & present[r, b] & (first[r, a] < first[r, b])
    return np.bincount(r[hit], minlength=n_rows)


def _phrases(q: QueryLemmas, rows, ks, pos, n_rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The best pair of shared lemmas standing close together on both sides: a borrowed phrase.

    Returns the weaker IDF of the best close pair, the smallest combined gap of any pair (:data:`NO_GAP` at most)
    and how many close pairs there are. Gaps are between different words on each side.
    """
    n_lemmas = len(q.names)
    q_gap = _query_gaps(q)
    best_idf, best_gap, close = np.zeros(n_rows), np.full(n_rows, float(NO_GAP)), np.zeros(n_rows)
    first, second = _pairs_within_reach(rows, pos, NO_GAP)
    in_order = ks[first] < ks[second]
    first, second = np.where(in_order, first, second), np.where(in_order, second, first)
    keep = (ks[first] != ks[second]) & (pos[first] != pos[second])
    first, second = first[keep], second[keep]
    if not len(first):
        return best_idf, best_gap, close
    key = (rows[first] * n_lemmas + ks[first]) * n_lemmas + ks[second]
    order = np.argsort(key, kind="stable")
    key, gap = key[order], np.abs(pos[first] - pos[second])[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    key, t_gap = key[starts], np.minimum.reduceat(gap, starts)
    row, a, b = key // (n_lemmas * n_lemmas), key // n_lemmas % n_lemmas, key % n_lemmas
    total = (q_gap[a, b] + t_gap).astype(np.float64)
    np.minimum.at(best_gap, row, total)
    is_close = (q_gap[a, b] <= PHRASE_WINDOW) & (t_gap <= PHRASE_WINDOW)
    close = np.bincount(row[is_close], minlength=n_rows).astype(np.float64)
    np.maximum.at(best_idf, row[is_close], np.minimum(q.idf[a], q.idf[b])[is_close])
    return best_idf, best_gap, close


def _query_gaps(q: QueryLemmas) -> np.ndarray:
    """(lemmas, lemmas): the smallest distance between two different words of the query, one holding each lemma
    (:data:`NO_GAP` where it is larger, or there are no such words). One lemma at a time: a long passage has
    thousands of words."""
    n_lemmas = len(q.names)
    gap = np.full((n_lemmas, n_lemmas), NO_GAP, dtype=np.int64)
    if not n_lemmas:
        return gap
    lemma = np.repeat(np.arange(n_lemmas), [len(p) for p in q.positions])
    where = np.concatenate([np.asarray(p, dtype=np.int64) for p in q.positions])
    for a, positions in enumerate(q.positions):
        distance = np.abs(np.asarray(positions)[:, None] - where[None, :])
        other_word = distance > 0
        np.minimum.at(gap[a], np.broadcast_to(lemma, distance.shape)[other_word], distance[other_word])
    return gap


def _pairs_within_reach(rows: np.ndarray, pos: np.ndarray, reach: int) -> tuple[np.ndarray, np.ndarray]:
    """Every unordered pair of occurrences in the same row standing under ``reach`` words apart: farther pairs make
    no phrase (:data:`NO_GAP`), and leaving them out keeps a long line that repeats the query's words from costing
    the square of its length. One offset at a time in (row, position) order, until no pair is in reach."""
    order = np.lexsort((pos, rows))
    r, p = rows[order], pos[order]
    firsts, seconds = [], []
    for offset in range(1, len(order)):
        near = (r[offset:] == r[:-offset]) & (p[offset:] - p[:-offset] < reach)
        if not near.any():
            break
        at = np.flatnonzero(near)
        firsts.append(order[at])
        seconds.append(order[at + offset])
    if not firsts:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(firsts), np.concatenate(seconds)


def _query_position(q: QueryLemmas, shared: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where in the query the shared words stand, 0 at its start and 1 at its end (rarity-weighted mean),
    and how far they stand from its middle (-1 when nothing is shared): in a passage of several lines
    the borrowed phrase is often the one that runs over a line break."""
    n_rows = shared.shape[0]
    total, mean, centre = np.zeros(n_rows), np.zeros(n_rows), np.zeros(n_rows)
    span = max(q.n_words - 1, 1)
    for k, where in enumerate(q.positions):  # word by word in the query's order: the definition's sums
        w = np.where(shared[:, k], q.idf[k], 0.0)
        for p in where:
            r = p / span
            total = total + w
            mean = mean + r * w
            centre = centre + abs(r - 0.5) * w
    some = total > 0
    safe = np.where(some, total, 1.0)
    return np.where(some, mean / safe, -1.0), np.where(some, centre / safe, -1.0)
