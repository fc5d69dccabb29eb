"""The one retriever interface, and the registry that names every retriever once.

A retriever is an estimator in scikit-learn's manner: parameters are set in
``__init__``; ``index(corpus)`` does the work on the corpus; ``search(queries, k)``
returns a run ``{query_id: {doc_id: score}}``. Learned retrievers also have
``fit(benchmark)``, which is given only the training queries and their qrels.
Retrievers see query ids and texts only: never qrels, ``query_phrases`` or ``n_parallels``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable, ClassVar, Mapping, Sequence

import numpy as np

from latin_intertext.benchmark import Benchmark, CorpusLine, Run


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

    def search(self, queries: Mapping[str, str], k: int = 100, progress: Callable[[int], None] | None = None) -> Run:
        """Top ``k`` documents per query. Subclasses implement ``score_all`` or override this."""
        run: Run = {}
        for qid, text in queries.items():
            scores = self.score_all(text)
            run[qid] = top_k(self.doc_ids, scores, k)
            if progress:
                progress(1)
        return run

    def score_all(self, text: str) -> np.ndarray:
        """A score for every indexed document (higher is better); -inf or 0 where nothing matches."""
        raise NotImplementedError

    def params(self) -> dict:
        return {k: v for k, v in vars(self).items() if not k.startswith("_") and k not in ("corpus", "doc_ids") and isinstance(v, (int, float, str, bool, type(None), tuple, list))}


class LearnedRetriever(Retriever):
    """A retriever whose weights are learned from gold data; ``fit`` sees only training queries."""

    @abstractmethod
    def fit(self, train: Benchmark) -> "LearnedRetriever": ...


def top_k(doc_ids: Sequence[str], scores: np.ndarray, k: int) -> dict[str, float]:
    """The ``k`` best-scoring documents with a positive or finite score, ties broken by corpus order."""
    scores = np.asarray(scores, dtype=np.float64)
    finite = np.isfinite(scores)
    k = min(k, int(finite.sum()))
    if k <= 0:
        return {}
    candidates = np.argpartition(-np.where(finite, scores, -np.inf), k - 1)[:k]
    order = candidates[np.lexsort((candidates, -scores[candidates]))]
    return {doc_ids[i]: float(scores[i]) for i in order}


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
    aliases: tuple[str, ...] = (),
    **params,
):
    """Class decorator: add a retriever to the registry under ``name``."""

    def wrap(cls):
        cls.name = name
        REGISTRY[name] = RetrieverSpec(name, cls, description, needs, params, learned, baseline, model_type, cache_index)
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
    spec = REGISTRY[resolve_name(name)]
    return spec.factory(**{**spec.params, **overrides})
