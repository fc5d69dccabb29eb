"""The one retriever interface, and the registry that names every retriever once.

A retriever is an estimator in scikit-learn's manner: parameters are set in
``__init__``; ``index(corpus)`` does the work on the corpus; ``search(queries, k)``
returns a run ``{query_id: {doc_id: score}}``. Learned retrievers also have
``fit(benchmark)``, which is given only the training queries and their qrels.
Retrievers see query ids and texts only: never qrels, ``query_phrases`` or ``n_parallels``.

Lines of equal score are ranked by a checksum of their text (:func:`text_order`), and a run's scores are strictly
decreasing as trec_eval reads them (:func:`untied`): trec_eval, and so pytrec_eval and MTEB, orders equal scores by
doc id, and the benchmark's ids begin with the author, so ties would go to Vergil, the author of most parallels.
"""

from __future__ import annotations

import zlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, ClassVar, Iterator, Mapping, Sequence

import numpy as np

from latin_intertext.benchmark import Benchmark, CorpusLine, Run


@dataclass(frozen=True)
class ScoredWord:
    form: str
    position: int  # in its line or passage, from 0
    inv_freq: float  # 1/f, f the form's count in its own text


@dataclass(frozen=True)
class ScoreDetail:
    """The terms of a distance-weighted rarity score (Tesserae v3's), for a reader to check one line's score by hand:
    each side's scored words, the words spanned by each side's two rarest, the shared words the stop list kept out."""

    formula: str
    score: float
    query: list[ScoredWord]
    line: list[ScoredWord]
    d_query: int
    d_line: int
    stop_listed: list[str]


class Retriever(ABC):
    name: ClassVar[str] = ""
    # What a line needs to be found at all, for "No line ... the passage." when nothing is.
    hit_rule: ClassVar[str] = "shares a word with"
    # Forms read as names even where a capital opens a line (latin.name_forms): what a search reads a hit's matched
    # words by (serve.searcher sets them); only the sparse Tesserae-la index also scores by them.
    names: frozenset[str] = frozenset()

    def __init__(self) -> None:
        self.corpus: Sequence[CorpusLine] = ()
        self.doc_ids: list[str] = []

    def index(self, corpus: Sequence[CorpusLine]) -> "Retriever":
        self.corpus = corpus
        self.doc_ids = [d.id for d in corpus]
        self._index(corpus)
        return self

    @abstractmethod
    def _index(self, corpus: Sequence[CorpusLine]) -> None: ...

    @property
    def corpus(self) -> Sequence[CorpusLine]:
        return self._corpus

    @corpus.setter
    def corpus(self, lines: Sequence[CorpusLine]) -> None:
        self._corpus = lines
        self.__dict__.pop("text_order", None)  # derived from the corpus: a new corpus, a new order

    @cached_property
    def text_order(self) -> np.ndarray:
        """The order in which lines of equal score are ranked (:func:`text_order` of the indexed corpus)."""
        return text_order(self.corpus)

    def clear_cache(self) -> None:
        """Forget whatever was computed for the texts searched so far (none here), so the next search is timed cold."""

    def no_hits_reason(self, text: str) -> str | None:
        """Why no line can be found for ``text``, where the passage itself rules every line out; else None."""
        return None

    def score_detail(self, text: str, doc: int) -> "ScoreDetail | None":
        """How line ``doc``'s score for ``text`` was made, in the retriever's own terms, where they are few enough to
        show (Tesserae's); else None."""
        return None

    def search(self, queries: Mapping[str, str], k: int = 100, progress: Callable[[int], None] | None = None) -> Run:
        """Top ``k`` :meth:`eligible` documents per query. Subclasses implement ``score_all`` (and ``score_batch``
        where scoring many texts together is faster) or override this."""
        run: Run = {}
        for qid, scores in zip(queries, self.score_batch(list(queries.values()))):
            run[qid] = top_k(self.doc_ids, scores, k, self.text_order, self.eligible(scores))
            if progress:
                progress(1)
        return run

    def score_all(self, text: str) -> np.ndarray:
        """A score for every indexed document (higher is better); -inf or 0 where nothing matches."""
        raise NotImplementedError

    def score_batch(self, texts: Sequence[str]) -> Iterator[np.ndarray]:
        """:meth:`score_all` of each text, in order."""
        return (self.score_all(text) for text in texts)

    def eligible(self, scores: np.ndarray) -> np.ndarray:
        """Which lines a score makes a result: any finite score (a retriever whose 0 means "no match" says so)."""
        return np.isfinite(scores)

    def params(self) -> dict:
        """The settings given to ``__init__``: not what indexing or fitting learned (named ``like_this_``, as in sklearn)."""
        return {k: v for k, v in vars(self).items() if not k.startswith("_") and not k.endswith("_") and k not in ("corpus", "doc_ids") and isinstance(v, (int, float, str, bool, type(None), tuple, list))}


class LearnedRetriever(Retriever):
    """A retriever whose weights are learned from gold data; ``fit`` sees only training queries."""

    @abstractmethod
    def fit(self, train: Benchmark) -> "LearnedRetriever": ...

    def check_search_model(self) -> None:
        """Raise, saying what to do, if this retriever cannot search outside cross-validation (it has no trained
        model to search with); cheap, so that a search refuses it before indexing a corpus."""


def text_order(corpus: Sequence[CorpusLine]) -> np.ndarray:
    """A checksum of each line's text, which says nothing of who wrote it (equal lines tie alike in any file), then,
    for lines of the very same text, a checksum of their ids: never where a line stands in the corpus."""
    text = np.array([zlib.crc32(d.text.encode("utf-8")) for d in corpus], dtype=np.uint64)
    ids = np.array([zlib.crc32(d.id.encode("utf-8")) for d in corpus], dtype=np.uint64)
    return (text << np.uint64(32)) | ids


def top_indices(values: np.ndarray, n: int, order: np.ndarray, eligible: np.ndarray) -> np.ndarray:
    """The ``n`` eligible lines of highest value: those above the cut in index order, then the lines tied at the cut
    in ``order`` (:func:`text_order`)."""
    pool = np.flatnonzero(eligible)
    if len(pool) <= n or n <= 0:
        return pool[: max(n, 0)]
    cut = np.partition(values[pool], len(pool) - n)[len(pool) - n]  # the n-th largest value
    above, tied = pool[values[pool] > cut], pool[values[pool] == cut]
    return np.concatenate([above, tied[np.lexsort((tied, order[tied]))[: n - len(above)]]])


def best_first(values: np.ndarray, lines: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``lines`` by value, highest first, equal values in ``order``."""
    return lines[np.lexsort((lines, order[lines], -values[lines]))]


def untied(scores: np.ndarray) -> np.ndarray:
    """Best-first scores made strictly decreasing, each tie lowered by the smallest steps, so that trec_eval keeps the
    order they come in instead of ordering equal scores by doc id. trec_eval reads scores as 32-bit floats, so the
    scores are rounded to them and the steps are theirs (a change of under one part in ten million)."""
    bits = np.asarray(scores, dtype=np.float32).view(np.int32).astype(np.int64)
    steps = np.where(bits < 0, -(bits & 0x7FFFFFFF), bits)  # floats in order as integers: one apart, one step apart
    at = np.arange(len(steps))
    steps = np.minimum.accumulate(steps + at) - at  # each at least one step below the one before
    bits = np.where(steps < 0, (-steps) | 0x80000000, steps)
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


def top_k(
    doc_ids: Sequence[str], scores: np.ndarray, k: int, order: np.ndarray, eligible: np.ndarray | None = None, untie: bool = True
) -> dict[str, float]:
    """The ``k`` best-scoring documents among ``eligible`` (default: a finite score), best first, equal scores in
    ``order`` (:func:`text_order`) and, for a run, made strictly decreasing (:func:`untied`); ``untie=False`` keeps the
    scores as they are, for a reader."""
    scores = np.asarray(scores, dtype=np.float64)
    eligible = np.isfinite(scores) if eligible is None else eligible
    lines = best_first(scores, top_indices(scores, k, order, eligible), order)
    return dict(zip([doc_ids[i] for i in lines], (untied(scores[lines]) if untie else scores[lines]).tolist()))


@dataclass(frozen=True)
class RetrieverSpec:
    name: str
    factory: Callable[..., Retriever]
    description: str
    needs: tuple[str, ...] = ()  # e.g. ("word vectors",), ("dense extra",)
    params: dict = field(default_factory=dict)
    learned: bool = False
    baseline: bool = True
    model_type: str = "sparse"  # MTEB's ModelMeta.model_type: "sparse" or "dense"
    cache_index: bool = False  # its indexed state is plain data, worth pickling for the next search (serve.searcher)
    caveat: str = ""  # what a reader of its figures must know (the leaderboard's Notes): e.g. settings chosen on the benchmark

    def make(self, **overrides) -> Retriever:
        """An unindexed retriever with the registered parameters, ``overrides`` replacing any of them."""
        return self.factory(**{**self.params, **overrides})


REGISTRY: dict[str, RetrieverSpec] = {}
ALIASES: dict[str, str] = {}
REQUIREMENTS: dict[str, Callable[[], object]] = {}  # a spec's ``needs`` entry -> the check that raises if it is unmet


def requirement(need: str):
    """Function decorator: the cheap check that raises (ImportError or LatinIntertextError, saying how to meet it)
    when ``need`` is not met here, so that a caller can refuse a retriever before any long work."""

    def wrap(check: Callable[[], object]) -> Callable[[], object]:
        REQUIREMENTS[need] = check
        return check

    return wrap


def check_needs(name: str) -> None:
    """Raise unless every need of retriever ``name`` is met here."""
    for need in REGISTRY[resolve_name(name)].needs:
        if need in REQUIREMENTS:
            REQUIREMENTS[need]()


def register(
    name: str,
    description: str,
    *,
    needs: tuple[str, ...] = (),
    learned: bool = False,
    baseline: bool = True,
    model_type: str = "sparse",
    cache_index: bool = False,
    caveat: str = "",
    aliases: tuple[str, ...] = (),
    **params,
):
    """Class decorator: add a retriever to the registry under ``name``."""

    def wrap(cls):
        cls.name = name
        REGISTRY[name] = RetrieverSpec(name, cls, description, needs, params, learned, baseline, model_type, cache_index, caveat)
        for alias in aliases:
            ALIASES[alias] = name
        return cls

    return wrap


def resolve_name(name: str) -> str:
    from latin_intertext.retrieve import load_all

    load_all()
    name = ALIASES.get(name, name)
    if name not in REGISTRY:
        from latin_intertext.errors import LatinIntertextError

        raise LatinIntertextError(f"Unknown retriever {name!r}. Known: {', '.join(sorted(REGISTRY) + sorted(ALIASES))}.")
    return name


def make_retriever(name: str, **overrides) -> Retriever:
    return REGISTRY[resolve_name(name)].make(**overrides)
