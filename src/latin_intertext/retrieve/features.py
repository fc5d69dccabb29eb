"""Evidence a scholar would name for a (query passage, verse line) pair, computable for any Latin texts.

Channels of shared vocabulary, each a binary line x term matrix weighted by the
term's rarity (IDF) in the corpus being searched:

- ``lemma``: simplemma's lemma;            - ``lemmaset``: any candidate lemma (lexicon);
- ``form``: the exact folded form;          - ``stem``: the first five letters (catches lemmatiser misses);
- ``bigram``: pairs of lemmas standing within three words of each other, in either order.

Plus sound (character 3-grams, TF-IDF cosine), the pair evidence of
:mod:`latin_intertext.retrieve.pair_evidence` (Tesserae v3's score and distances, phrases,
the same word at the line's start or end or in the same sedes, where in the query the
shared words stand), the same evidence on the neighbouring lines, for parallels that
cross a line break, and the query's words in the surrounding scene (five lines either
side, same book). Optionally, with lemma word vectors, the theme: the cosine between the
query's and each line's (and scene's) rarity-weighted mean lemma vector, which meets a
parallel told in other words. Nothing here depends on a particular author, work or on the gold data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Container, Sequence

import numpy as np
import scipy.sparse as sp

from latin_intertext import latin
from latin_intertext.benchmark import CorpusLine
from latin_intertext.retrieve.pair_evidence import PAIR_FEATURES, query_lemmas
from latin_intertext.retrieve.postings import Postings, presence_matrix
from latin_intertext.vectors import normalised_rows, unit_vectors

if TYPE_CHECKING:
    from sklearn.feature_extraction.text import TfidfVectorizer

CHANNELS = ("lemma", "lemmaset", "form", "stem", "bigram")
EDGE_CHANNELS = ("head", "tail")  # candidate lemmas of a line's first / last EDGE_WORDS words
EDGE_WORDS = 2
BIGRAM_WINDOW = 3
N_STOP = 10  # Tesserae v3's stop list: the most frequent lemmas of the corpus


@dataclass(frozen=True)
class Unit:
    """The terms of one text in every channel, with the word positions where they occur."""

    n_words: int
    terms: dict[str, dict[str, list[int]]]  # channel -> term -> positions
    words: tuple[str, ...] = ()  # folded forms in order
    sound: str = ""  # latin.sound_text: what the sound features compare

    @classmethod
    def of(cls, text: str) -> "Unit":
        tokens = latin.tokenize(text)
        terms: dict[str, dict[str, list[int]]] = {c: {} for c in CHANNELS}
        for t in tokens:
            terms["lemma"].setdefault(t.lemma, []).append(t.position)
            terms["form"].setdefault(t.norm, []).append(t.position)
            if stem := latin.stem(t.norm):
                terms["stem"].setdefault(stem, []).append(t.position)
            for lemma in _candidates_in_order(t.form):
                terms["lemmaset"].setdefault(lemma, []).append(t.position)
        for i, a in enumerate(tokens):
            for b in tokens[i + 1 : i + 1 + BIGRAM_WINDOW]:
                pair = f"{a.lemma}|{b.lemma}" if a.lemma <= b.lemma else f"{b.lemma}|{a.lemma}"  # in either order
                terms["bigram"].setdefault(pair, []).append(a.position)
        for channel, edge in (("head", tokens[:EDGE_WORDS]), ("tail", tokens[-EDGE_WORDS:])):
            terms[channel] = {lemma: [t.position] for t in edge for lemma in _candidates_in_order(t.form)}
        return cls(len(tokens), terms, tuple(t.norm for t in tokens), latin.sound_text(text))


@lru_cache(maxsize=1 << 18)
def _candidates_in_order(word: str) -> tuple[str, ...]:
    """:func:`latin.lemma_candidates` sorted, since set order varies between processes."""
    return tuple(sorted(latin.lemma_candidates(word)))


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
    postings: Postings | None = None  # where each candidate lemma stands in each line: the pair evidence's input
    char: TfidfVectorizer | None = None  # sound: character 3-grams of the folded text
    char_by_line: sp.csr_matrix | None = None  # (lines, 3-grams) TF-IDF, unit rows
    char_by_trigram: sp.csr_matrix | None = None  # its transpose, for one query against every line

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
            matrix, vocab = presence_matrix([unit.terms[channel] for unit in index.units])
            df = np.asarray(matrix.sum(axis=0)).ravel()
            index.vocab[channel] = vocab
            index.matrices[channel] = matrix
            index.idf[channel] = np.log((n + 1) / (df + 1)).astype(np.float32)
        for unit in index.units:  # every candidate lemma of a word counts, as in Tesserae v3's stem counts
            for lemma, positions in unit.terms["lemmaset"].items():
                index.lemma_freq[lemma] = index.lemma_freq.get(lemma, 0) + len(positions)
        index.stop = frozenset(latin.commonest(index.lemma_freq, N_STOP))
        index.postings = Postings.of([u.terms["lemmaset"] for u in index.units], index.vocab["lemmaset"])
        index.prev, index.next = neighbours(lines)
        index.lengths = np.array([u.n_words for u in index.units], dtype=np.float32)
        index.open_end = np.array([not latin.ends_sentence(d.text) for d in lines], dtype=np.float32)
        index.open_start = index.before(index.open_end)
        index.scene = scene_bounds(index.prev, index.next, SCENE_LINES)
        index.themes = Themes.of(index, vectors) if vectors is not None else None
        from sklearn.feature_extraction.text import TfidfVectorizer  # here: scikit-learn takes a second to import

        index.char = TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 3), lowercase=False, sublinear_tf=True, dtype=np.float32)
        index.char_by_line = index.char.fit_transform([u.sound for u in index.units]).tocsr()
        index.char_by_trigram = index.char_by_line.T.tocsr()
        return index

    def __getstate__(self) -> dict:
        """Pickled without ``units``: a search never reads them, and unpickling the benchmark's 39,675 took 4 of the
        4.4 seconds a cached search index took to load; :meth:`unit` reads them again from the lines when asked."""
        return {**self.__dict__, "units": []}

    def unit(self, i: int) -> Unit:
        """Line ``i``'s terms, read again from the lines' texts in an unpickled index."""
        if not self.units and self.lines:
            self.units = [Unit.of(d.text) for d in self.lines]
        return self.units[i]

    def before(self, values: np.ndarray) -> np.ndarray:
        """Each line's previous line's value (0 for a book's first line)."""
        out = np.zeros_like(values)
        out[1:] = values[:-1]
        out[self.prev < 0] = 0
        return out

    def after(self, values: np.ndarray) -> np.ndarray:
        """Each line's next line's value (0 for a book's last line)."""
        out = np.zeros_like(values)
        out[:-1] = values[1:]
        out[self.next < 0] = 0
        return out

    def neighbour_max(self, values: np.ndarray) -> np.ndarray:
        """The larger of each line's two neighbours' values, within its book."""
        return np.maximum(self.before(values), self.after(values))


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


def _overlap(matrix: sp.csc_matrix, ids: Sequence[int], weights: np.ndarray) -> list[np.ndarray]:
    """For each line of a binary line x term matrix: the sum, count and maximum of the ``weights`` of the terms
    ``ids`` it holds (float32, summed in the order of ``ids``). Reads the columns' row lists directly: slicing
    and reducing a scipy matrix cost ten times as much for the few dozen terms of a query."""
    total, count, best = (np.zeros(matrix.shape[0], np.float32) for _ in range(3))
    for term, weight in zip(ids, weights):
        rows = matrix.indices[matrix.indptr[term] : matrix.indptr[term + 1]]
        total[rows] += weight
        count[rows] += 1
        best[rows] = np.maximum(best[rows], weight)
    return [total, count, best]


def _lemma_ids_by_word(index: LineIndex, query: Unit, positions: Container[int] | None = None) -> list[list[int]]:
    """For each query word (or each of those at ``positions``), the ids of its candidate lemmas in the corpus
    (stop list aside)."""
    vocab = index.vocab["lemmaset"]
    by_word: dict[int, list[int]] = {}
    for lemma in query_lemmas(index, query, vocab):
        for position in query.terms["lemmaset"][lemma]:
            if positions is None or position in positions:
                by_word.setdefault(position, []).append(vocab[lemma])
    return [by_word[p] for p in sorted(by_word)]


def word_idf_sum(index: LineIndex, query: Unit, positions: Container[int] | None = None) -> np.ndarray:
    """For each line, the sum over the query words (those at ``positions``, or all for None) of the IDF of the
    rarest of the word's candidate lemmas the line holds. Unlike ``lemmaset_idf_sum``, each query word counts
    once: an ambiguous form (*virum*: uir, uirum, uirus, uis) must not outweigh one rare name (*Idumen*) in stage 1."""
    matrix, idf = index.matrices["lemmaset"], index.idf["lemmaset"]
    total = np.zeros(matrix.shape[0], np.float32)
    for ids in _lemma_ids_by_word(index, query, positions):
        total += _overlap(matrix, ids, idf[ids])[2]  # the word's best lemma in each line
    return total


DENSE_FEATURES = [
    f"{c}_{s}" for c in CHANNELS for s in ("idf_sum", "count", "idf_max")
] + ["char_cos", "nb_lemmaset_idf", "nb_stem_idf", "nb_char_cos", "window_lemmaset_idf", "line_words", "open_end", "open_start", "nb_across_idf", "scene_lemmaset_idf", "theme_cos", "scene_theme_cos", "word_idf_sum", "nb_word_idf"]
WINDOW_WORDS, WINDOW_STEP = 8, 4
SCENE_LINES = 5
FEATURES = DENSE_FEATURES + PAIR_FEATURES


def dense_features(index: LineIndex, query: Unit) -> np.ndarray:
    """Vectorised features of the query against every line: (n_lines, len(DENSE_FEATURES))."""
    n = len(index.lines)
    cols = []
    for channel in CHANNELS:
        vocab = index.vocab[channel]
        ids = [vocab[t] for t in query.terms[channel] if t in vocab and not (channel in ("lemma", "lemmaset") and t in index.stop)]
        cols += _overlap(index.matrices[channel], ids, index.idf[channel][ids])
    qchar = index.char.transform([query.sound])
    char_cos = (qchar @ index.char_by_trigram).toarray().ravel()
    lemmaset_idf = cols[CHANNELS.index("lemmaset") * 3]
    stem_idf = cols[CHANNELS.index("stem") * 3]
    before, after = index.before, index.after
    lemma_before, lemma_after = before(lemmaset_idf), after(lemmaset_idf)
    nb_lemma = np.maximum(lemma_before, lemma_after)
    nb_stem, nb_char = (index.neighbour_max(values) for values in (stem_idf, char_cos))
    window = lemmaset_idf + lemma_before + lemma_after
    head, tail = (_edge_idf(index, query, channel) for channel in EDGE_CHANNELS)
    # a phrase running over the line break: the query's words at the end of an unfinished previous line or the start of the next
    across = np.maximum(index.open_start * before(tail), index.open_end * after(head))
    scene = _scene_sum(lemmaset_idf, index.scene)  # the surrounding passage shares the query's vocabulary: the same kind of scene
    cols += [char_cos, nb_lemma, nb_stem, nb_char, window, index.lengths, index.open_end, index.open_start, across, scene]
    cols += index.themes.cosines(index, query) if index.themes else [np.zeros(n, np.float32)] * 2
    word_idf = word_idf_sum(index, query)
    cols += [word_idf, index.neighbour_max(word_idf)]
    out = np.empty((n, len(cols)), dtype=np.float32, order="F")  # column by column: contiguous writes
    for j, col in enumerate(cols):
        out[:, j] = col
    return out


def _edge_idf(index: LineIndex, query: Unit, channel: str) -> np.ndarray:
    """Rarity-weighted count of the query's lemmas among each line's first (``head``) or last (``tail``) words."""
    vocab = index.vocab[channel]
    terms = query_lemmas(index, query, vocab)
    lemma_vocab = index.vocab["lemmaset"]
    idf = np.array([index.idf["lemmaset"][lemma_vocab[t]] for t in terms], np.float32)
    return _overlap(index.matrices[channel], [vocab[t] for t in terms], idf)[0]


def shared_lemmas(index: LineIndex, query: Unit, doc: int) -> set[str]:
    """The query's candidate lemmas (stop list aside) that line ``doc`` also has; empty for ``doc`` = -1."""
    if doc < 0:
        return set()
    target = index.unit(doc).terms["lemmaset"]
    return set(query_lemmas(index, query, target))


def shared_query_words(index: LineIndex, query: Unit, doc: int) -> set[int]:
    """Positions of the query words that line ``doc`` shares by a candidate lemma (stop list aside)."""
    return {p for lemma in shared_lemmas(index, query, doc) for p in query.terms["lemmaset"][lemma]}


def window_starts(n_words: int) -> list[int]:
    """Where the query's windows of WINDOW_WORDS words start, every WINDOW_STEP words, the last ending on its last word:
    a step past the end would leave a 9- to 11-word query's closing words in no window."""
    last = max(n_words - WINDOW_WORDS, 0)
    return sorted(set(range(0, last + 1, WINDOW_STEP)) | {last})


def window_char_cos(index: LineIndex, query: Unit, lines: np.ndarray) -> np.ndarray:
    """Sound similarity of each line to the closest verse-sized window of the query (long queries dilute plain cosine)."""
    words = query.sound.split()
    windows = [" ".join(words[i : i + WINDOW_WORDS]) for i in window_starts(len(words))] or [""]
    sims = index.char_by_line[lines] @ index.char.transform(windows).T
    return sims.max(axis=1).toarray().ravel() if len(lines) else np.zeros(0)
