"""Evidence a scholar would name for a (query passage, verse line) pair, computable for any Latin texts.

Channels of shared vocabulary, each a binary line x term matrix weighted by the
term's rarity (IDF) in the corpus being searched:

- ``lemma``: simplemma's lemma;            - ``lemmaset``: any candidate lemma (lexicon);
- ``form``: the exact folded form;          - ``stem``: the first five letters (catches lemmatiser misses);
- ``bigram``: pairs of lemmas standing within three words of each other, in either order.

Plus sound (character 3-grams, TF-IDF cosine), Tesserae v3's score and distances,
line-edge positions (same word at the start/end of the line), where in the query the
shared words stand, the same evidence on the neighbouring lines, for parallels that
cross a line break, and the query's words in the surrounding scene (five lines either
side, same book). Optionally, with lemma word vectors, the theme: the cosine between the
query's and each line's (and scene's) rarity-weighted mean lemma vector, which meets a
parallel told in other words. Nothing here depends on a particular author, work or on the gold data.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import AbstractSet, Callable, Container, Sequence

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer

from latin_intertext import latin
from latin_intertext.benchmark import CorpusLine
from latin_intertext.vectors import normalised_rows, unit_vectors

CHANNELS = ("lemma", "lemmaset", "form", "stem", "bigram")
EDGE_CHANNELS = ("head", "tail")  # candidate lemmas of a line's first / last EDGE_WORDS words
EDGE_WORDS = 2
_CLOSED = re.compile(r"[.;:?!][\s'\"\u2019\u201d)\]]*$")
STEM_LENGTH = 5
BIGRAM_WINDOW = 3
N_STOP = 10  # Tesserae v3's stop list: the most frequent lemmas of the corpus


def _stem(norm: str) -> str:
    return norm[:STEM_LENGTH] if len(norm) >= STEM_LENGTH else ""


@dataclass(frozen=True)
class Unit:
    """The terms of one text in every channel, with the word positions where they occur."""

    n_words: int
    terms: dict[str, dict[str, list[int]]]  # channel -> term -> positions
    words: tuple[str, ...] = ()  # folded forms in order

    @classmethod
    def of(cls, text: str) -> "Unit":
        tokens = latin.tokenize(text)
        terms: dict[str, dict[str, list[int]]] = {c: {} for c in CHANNELS}
        for t in tokens:
            terms["lemma"].setdefault(t.lemma, []).append(t.position)
            terms["form"].setdefault(t.norm, []).append(t.position)
            if stem := _stem(t.norm):
                terms["stem"].setdefault(stem, []).append(t.position)
            for lemma in sorted(latin.lemma_candidates(t.form)):  # sorted: set order varies between processes
                terms["lemmaset"].setdefault(lemma, []).append(t.position)
        for i, a in enumerate(tokens):
            for b in tokens[i + 1 : i + 1 + BIGRAM_WINDOW]:
                pair = "|".join(sorted((a.lemma, b.lemma)))
                terms["bigram"].setdefault(pair, []).append(a.position)
        for channel, edge in (("head", tokens[:EDGE_WORDS]), ("tail", tokens[-EDGE_WORDS:])):
            terms[channel] = {lemma: [t.position] for t in edge for lemma in sorted(latin.lemma_candidates(t.form))}
        return cls(len(tokens), terms, tuple(t.norm for t in tokens))


@dataclass
class LineIndex:
    """Everything about the corpus the features need, built once per corpus (no labels involved)."""

    lines: Sequence[CorpusLine]
    vocab: dict[str, dict[str, int]] = field(default_factory=dict)
    matrices: dict[str, sp.csc_matrix] = field(default_factory=dict)
    idf: dict[str, np.ndarray] = field(default_factory=dict)
    units: list[Unit] = field(default_factory=list)
    prev: np.ndarray | None = None
    next: np.ndarray | None = None
    lengths: np.ndarray | None = None
    open_end: np.ndarray | None = None  # 1 where the line's sentence runs on into the next line
    open_start: np.ndarray | None = None  # 1 where the previous line's sentence runs on into this one
    scene: tuple[np.ndarray, np.ndarray] | None = None  # first and last line index of each line's scene window, within its book
    stop: frozenset[str] = frozenset()
    lemma_freq: dict[str, int] = field(default_factory=dict)
    background_idf: Callable[[str], float] | None = None  # rarity in a large Latin corpus, if given
    themes: "Themes | None" = None  # lemma vectors and each line's / scene's theme, if vectors are given

    @classmethod
    def build(
        cls, lines: Sequence[CorpusLine], progress=None, background_idf: Callable[[str], float] | None = None, vectors=None
    ) -> "LineIndex":
        """``vectors``: gensim KeyedVectors of lemmas (``latin-intertext train-vectors``); without them the theme features are 0."""
        index = cls(lines, background_idf=background_idf)
        index.units = []
        for d in lines:
            index.units.append(Unit.of(d.text))
            if progress:
                progress(1)
        n = len(lines)
        for channel in CHANNELS + EDGE_CHANNELS:
            vocab: dict[str, int] = {}
            rows, cols = [], []
            for i, unit in enumerate(index.units):
                for term in unit.terms[channel]:
                    rows.append(i)
                    cols.append(vocab.setdefault(term, len(vocab)))
            matrix = sp.csc_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(n, max(len(vocab), 1)))
            df = np.asarray(matrix.sum(axis=0)).ravel()
            index.vocab[channel] = vocab
            index.matrices[channel] = matrix
            index.idf[channel] = np.log((n + 1) / (df + 1)).astype(np.float32)
        for unit in index.units:
            for lemma, positions in unit.terms["lemma"].items():
                index.lemma_freq[lemma] = index.lemma_freq.get(lemma, 0) + len(positions)
        index.stop = frozenset(sorted(index.lemma_freq, key=lambda l: (-index.lemma_freq[l], l))[:N_STOP])
        index.prev, index.next = neighbours(lines)
        index.lengths = np.array([u.n_words for u in index.units], dtype=np.float32)
        index.open_end = np.array([not _CLOSED.search(d.text.rstrip()) for d in lines], dtype=np.float32)
        index.open_start = _shift(index.open_end, index.prev)
        index.scene = scene_bounds(index.prev, index.next, SCENE_LINES)
        index.themes = Themes.of(index, vectors) if vectors is not None else None
        index.char = TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 3), preprocessor=latin.fold, sublinear_tf=True, dtype=np.float32)
        index.char_matrix = index.char.fit_transform([d.text for d in lines]).T.tocsr()
        return index


@dataclass(frozen=True)
class Themes:
    """Each line's theme, and its scene's: the rarity-weighted mean of its lemmas' unit vectors, normalised."""

    vectors: object  # gensim KeyedVectors
    lines: np.ndarray  # (n_lines, dim)
    scenes: np.ndarray  # (n_lines, dim): the sum of the lines of the scene window, the line itself included

    @classmethod
    def of(cls, index: "LineIndex", vectors) -> "Themes":
        lines = np.stack([_theme(index, vectors, unit) for unit in index.units]) if index.units else np.zeros((0, vectors.vector_size))
        return cls(vectors, lines.astype(np.float32), normalised_rows(_window_sum(lines, index.scene).astype(np.float32)))

    def cosines(self, index: "LineIndex", query: Unit) -> list[np.ndarray]:
        """On one BLAS thread: OpenBLAS threads left spinning after the product slowed the LightGBM prediction that
        follows it about threefold (all 482 queries: 28.6 s against 15-17 s; the scores are identical)."""
        theme = _theme(index, self.vectors, query)
        with _blas_threads().limit(limits=1, user_api="blas"):
            return [self.lines @ theme, self.scenes @ theme]


@lru_cache(maxsize=1)
def _blas_threads():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def _theme(index: "LineIndex", vectors, unit: Unit) -> np.ndarray:
    """Lemmas unknown to the corpus weigh as its rarest; the stop list and lemmas without a vector are left out."""
    vocab, idf = index.vocab["lemma"], index.idf["lemma"]
    rarest = float(idf.max()) if len(idf) else 1.0
    lemmas = [l for l in unit.terms["lemma"] if l not in index.stop]
    units, known = unit_vectors(vectors, lemmas)
    theme = np.zeros(vectors.vector_size, np.float32)
    for lemma, vector, has_vector in zip(lemmas, units, known):
        if has_vector:
            theme += (idf[vocab[lemma]] if lemma in vocab else rarest) * vector
    return normalised_rows(theme[None, :])[0]


def neighbours(lines: Sequence[CorpusLine]) -> tuple[np.ndarray, np.ndarray]:
    """Index of the previous and next line of the same work and book (-1 where there is none)."""
    n = len(lines)
    prev = np.arange(n) - 1
    nxt = np.arange(n) + 1
    for i, d in enumerate(lines):
        if i == 0 or (lines[i - 1].author, lines[i - 1].work, lines[i - 1].book) != (d.author, d.work, d.book):
            prev[i] = -1
        if i == n - 1 or (lines[i + 1].author, lines[i + 1].work, lines[i + 1].book) != (d.author, d.work, d.book):
            nxt[i] = -1
    return prev, nxt


def scene_bounds(prev: np.ndarray, nxt: np.ndarray, radius: int) -> tuple[np.ndarray, np.ndarray]:
    """For each line, the first and last line within ``radius`` lines of it in the same book."""
    lo, hi = np.arange(len(prev)), np.arange(len(prev))
    for _ in range(radius):
        lo = np.where(prev[lo] >= 0, prev[lo], lo)
        hi = np.where(nxt[hi] >= 0, nxt[hi], hi)
    return lo, hi


def _window_sum(values: np.ndarray, bounds: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Sum of ``values`` (one row per line) over each line's window ``bounds``, the line itself included (float64)."""
    lo, hi = bounds
    total = np.concatenate([np.zeros((1,) + values.shape[1:]), np.cumsum(values, axis=0, dtype=np.float64)])
    return total[hi + 1] - total[lo]


def _scene_sum(values: np.ndarray, bounds: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Sum of ``values`` over each line's scene window, the line itself excluded."""
    return (_window_sum(values, bounds) - values).astype(np.float32)


def _shift(values: np.ndarray, where: np.ndarray) -> np.ndarray:
    return np.where(where >= 0, values[np.maximum(where, 0)], 0.0)


DENSE_FEATURES = [
    f"{c}_{s}" for c in CHANNELS for s in ("idf_sum", "count", "idf_max")
] + ["char_cos", "nb_lemmaset_idf", "nb_stem_idf", "nb_char_cos", "window_lemmaset_idf", "line_words", "open_end", "open_start", "nb_across_idf", "scene_lemmaset_idf", "theme_cos", "scene_theme_cos"]
PAIR_FEATURES = [
    "tess_score",
    "tess_dist_target",
    "tess_dist_source",
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
WINDOW_WORDS, WINDOW_STEP = 8, 4
SCENE_LINES = 5
PHRASE_WINDOW = 4
FEATURES = DENSE_FEATURES + PAIR_FEATURES


def dense_features(index: LineIndex, query: Unit) -> np.ndarray:
    """Vectorised features of the query against every line: (n_lines, len(DENSE_FEATURES))."""
    n = len(index.lines)
    cols = []
    for channel in CHANNELS:
        vocab = index.vocab[channel]
        ids = [vocab[t] for t in query.terms[channel] if t in vocab and not (channel in ("lemma", "lemmaset") and t in index.stop)]
        if ids:
            sub = index.matrices[channel][:, ids]
            idf = index.idf[channel][ids]
            weighted = sub.multiply(idf[None, :]).tocsr()
            cols += [np.asarray(weighted.sum(axis=1)).ravel(), np.asarray(sub.sum(axis=1)).ravel(), weighted.max(axis=1).toarray().ravel()]
        else:
            cols += [np.zeros(n, np.float32)] * 3
    qchar = index.char.transform([" ".join(f for f in query.terms["form"])])
    char_cos = (qchar @ index.char_matrix).toarray().ravel()
    lemmaset_idf = cols[CHANNELS.index("lemmaset") * 3]
    stem_idf = cols[CHANNELS.index("stem") * 3]
    nb_lemma = np.maximum(_shift(lemmaset_idf, index.prev), _shift(lemmaset_idf, index.next))
    nb_stem = np.maximum(_shift(stem_idf, index.prev), _shift(stem_idf, index.next))
    nb_char = np.maximum(_shift(char_cos, index.prev), _shift(char_cos, index.next))
    window = lemmaset_idf + _shift(lemmaset_idf, index.prev) + _shift(lemmaset_idf, index.next)
    head, tail = (_edge_idf(index, query, channel) for channel in EDGE_CHANNELS)
    # a phrase running over the line break: the query's words at the end of an unfinished previous line or the start of the next
    across = np.maximum(index.open_start * _shift(tail, index.prev), index.open_end * _shift(head, index.next))
    scene = _scene_sum(lemmaset_idf, index.scene)  # the surrounding passage shares the query's vocabulary: the same kind of scene
    cols += [char_cos, nb_lemma, nb_stem, nb_char, window, index.lengths, index.open_end, index.open_start, across, scene]
    cols += index.themes.cosines(index, query) if index.themes else [np.zeros(n, np.float32)] * 2
    out = np.empty((n, len(cols)), dtype=np.float32, order="F")  # column by column: contiguous writes
    for j, col in enumerate(cols):
        out[:, j] = col
    return out


def _edge_idf(index: LineIndex, query: Unit, channel: str) -> np.ndarray:
    """Rarity-weighted count of the query's lemmas among each line's first (``head``) or last (``tail``) words."""
    vocab = index.vocab[channel]
    terms = query_lemmas(index, query, vocab)
    if not terms:
        return np.zeros(len(index.lines), np.float32)
    lemma_vocab = index.vocab["lemmaset"]
    idf = np.array([index.idf["lemmaset"][lemma_vocab[t]] for t in terms], np.float32)
    return np.asarray(index.matrices[channel][:, [vocab[t] for t in terms]] @ idf).ravel()


def _distance(positions: list[int]) -> int:
    return (max(positions) - min(positions) + 1) if len(positions) > 1 else 1


def pair_feature_matrix(index: LineIndex, query: Unit, docs: np.ndarray) -> np.ndarray:
    """:func:`pair_features` of the query against each line of ``docs``: (len(docs), len(PAIR_FEATURES)).

    Pair evidence is evidence about shared lemmas, so every line sharing none (a quarter of the candidates,
    found by sound, form or as a neighbour) has the same row: it is computed once per query.
    """
    rarest = rarest_query_lemmas(index, query)
    lemmas = frozenset(query_lemmas(index, query, index.vocab["lemmaset"]))
    rows, unrelated = [], None
    for doc in map(int, docs):
        common = lemmas.intersection(index.units[doc].terms["lemmaset"])
        if common:
            rows.append(pair_features(index, query, doc, rarest, common))
        else:
            unrelated = unrelated or pair_features(index, query, doc, rarest, common)
            rows.append(unrelated)
    return np.array(rows, dtype=np.float32).reshape(len(docs), len(PAIR_FEATURES))


def pair_features(index: LineIndex, query: Unit, doc: int, rarest: list[str] | None = None, common: AbstractSet[str] | None = None) -> list[float]:
    """Tesserae-style evidence for one pair: frequencies and distances of the matched words.

    ``rarest`` (:func:`rarest_query_lemmas`) and ``common`` (:func:`shared_lemmas`) are passed in when scoring many lines for one query.
    """
    rarest = rarest_query_lemmas(index, query) if rarest is None else rarest
    target = index.units[doc]
    q_terms, t_terms = query.terms["lemmaset"], target.terms["lemmaset"]
    common = shared_lemmas(index, query, doc) if common is None else common
    shared = [l for l in q_terms if l in common]  # in the query's order
    q_lemma_pos = {p: l for l in shared for p in q_terms[l]}  # each matched word position, with one of its lemmas
    t_lemma_pos = {p: l for l in shared for p in t_terms[l]}
    freq = {l: index.lemma_freq.get(l, 1) for l in shared}
    if len(q_lemma_pos) >= 2 and len(t_lemma_pos) >= 2:
        rarest_shared = sorted(shared, key=lambda l: (freq[l], l))[:2]
        d_t = _distance([t_terms[l][0] for l in rarest_shared]) if len(rarest_shared) == 2 else 1
        d_s = _distance([q_terms[l][0] for l in rarest_shared]) if len(rarest_shared) == 2 else 1
        weight = sum(1.0 / freq[l] * (len(t_terms[l]) + len(q_terms[l])) for l in shared)
        tess = math.log(weight / (d_t + d_s))
    else:
        d_t = d_s = 0
        tess = -20.0
    lemma_vocab, lemma_idf = index.vocab["lemmaset"], index.idf["lemmaset"]
    shared_idf = {l: float(lemma_idf[lemma_vocab[l]]) for l in shared}  # shared lemmas stand in a corpus line: all in the vocabulary
    idfs = sorted(shared_idf.values(), reverse=True) + [0.0, 0.0]
    background = index.background_idf
    bg = sorted((background(l) for l in shared), reverse=True) + [0.0, 0.0] if background else [0.0, 0.0]
    phrase = _phrase_evidence(shared, q_terms, t_terms, shared_idf)
    last = target.n_words - 1
    shift = query.n_words - target.n_words  # the same distance from the end of the line on both sides: the same sedes
    edge = sum(1 for l in shared if (0 in t_terms[l] or last in t_terms[l]))
    sedes = sum(1 for l in shared if any(p + shift in q_terms[l] for p in t_terms[l]))
    where = _query_position(shared, q_terms, query.n_words, shared_idf)
    return [
        tess,
        float(d_t),
        float(d_s),
        float(len(t_lemma_pos)),
        float(min(freq.values())) if freq else 0.0,
        float(_ordered_pairs(q_lemma_pos, t_lemma_pos)),
        float(edge),
        float(sedes),
        float(query.n_words),
        idfs[0],
        idfs[1],
        float(sum(1 for v in idfs if v > 6.0)),
        bg[0],
        bg[1],
        *phrase,
        float(sum(1 for l in rarest if l in t_terms)),
        *where,
    ]


def _ordered_pairs(q_lemma_pos: dict[int, str], t_lemma_pos: dict[int, str]) -> int:
    """How many neighbouring matched words of the query come in the same order in the line."""
    q_seq = [q_lemma_pos[p] for p in sorted(q_lemma_pos)]
    t_first: dict[str, int] = {}
    for p in sorted(t_lemma_pos):
        t_first.setdefault(t_lemma_pos[p], len(t_first))
    return sum(1 for a, b in zip(q_seq, q_seq[1:]) if a != b and a in t_first and b in t_first and t_first[a] < t_first[b])


def _query_position(shared: list[str], q_terms: dict, n_words: int, idf: dict[str, float]) -> tuple[float, float]:
    """Where in the query the shared words stand, 0 at its start and 1 at its end (rarity-weighted mean),
    and how far they stand from its middle (-1 when nothing is shared): in a passage of several lines
    the borrowed phrase is often the one that runs over a line break."""
    weights = [(p / max(n_words - 1, 1), idf[l]) for l in shared for p in q_terms[l]]
    total = sum(w for _, w in weights)
    if total <= 0:  # nothing shared, or only lemmas of no rarity
        return -1.0, -1.0
    mean = sum(r * w for r, w in weights) / total
    return mean, sum(abs(r - 0.5) * w for r, w in weights) / total


def shared_lemmas(index: LineIndex, query: Unit, doc: int) -> set[str]:
    """The query's candidate lemmas (stop list aside) that line ``doc`` also has; empty for ``doc`` = -1."""
    if doc < 0:
        return set()
    target = index.units[doc].terms["lemmaset"]
    return set(query_lemmas(index, query, target))


def query_lemmas(index: LineIndex, query: Unit, known: Container[str]) -> list[str]:
    """The query's candidate lemmas found in ``known`` (a vocabulary, a line's terms), the stop list aside, in the query's order."""
    return [l for l in query.terms["lemmaset"] if l in known and l not in index.stop]


def rarest_query_lemmas(index: LineIndex, query: Unit, n: int = 3) -> list[str]:
    vocab, idf = index.vocab["lemmaset"], index.idf["lemmaset"]
    known = query_lemmas(index, query, vocab)
    return sorted(known, key=lambda l: (-idf[vocab[l]], l))[:n]


def window_char_cos(index: LineIndex, query: Unit, lines: np.ndarray) -> np.ndarray:
    """Sound similarity of each line to the closest verse-sized window of the query (long queries dilute plain cosine)."""
    words = query.words
    starts = range(0, max(len(words) - WINDOW_WORDS, 0) + 1, WINDOW_STEP)
    windows = [" ".join(words[i : i + WINDOW_WORDS]) for i in starts] or [""]
    sims = (index.char.transform(windows) @ index.char_matrix).tocsc()[:, lines]
    return sims.max(axis=0).toarray().ravel() if len(lines) else np.zeros(0)


def _phrase_evidence(shared: list[str], q_terms: dict, t_terms: dict, idf: dict[str, float]) -> tuple[float, float, float]:
    """The best pair of shared lemmas standing close together on both sides: a borrowed phrase.

    Returns the weaker IDF of the best close pair, the smallest combined gap of any pair, and how many close pairs there are.
    """
    best_idf, best_gap, close = 0.0, 99.0, 0
    for i, a in enumerate(shared):
        for b in shared[i + 1 :]:
            q_gap = min((abs(x - y) for x in q_terms[a] for y in q_terms[b] if x != y), default=99)
            t_gap = min((abs(x - y) for x in t_terms[a] for y in t_terms[b] if x != y), default=99)
            best_gap = min(best_gap, float(q_gap + t_gap))
            if q_gap <= PHRASE_WINDOW and t_gap <= PHRASE_WINDOW:
                close += 1
                best_idf = max(best_idf, min(idf[a], idf[b]))
    return best_idf, best_gap, float(close)
