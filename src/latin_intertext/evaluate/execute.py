"""Turn a registered retriever into a run on a benchmark, with cross-validation when it learns."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from latin_intertext.benchmark import Benchmark, Run
from latin_intertext.errors import LatinIntertextError
from latin_intertext.evaluate.cv import Fold, cross_validate, grouped_folds
from latin_intertext.retrieve.base import REGISTRY, make_retriever, resolve_name


@dataclass(frozen=True)
class RetrievalResult:
    name: str
    run: Run
    seconds: float
    folds: list[Fold] = field(default_factory=list)


def run_retriever(
    name: str,
    bench: Benchmark,
    k: int = 1000,
    cv: int | None = None,
    progress: Callable[[int], None] | None = None,
    on_fold: Callable[[Fold], None] | None = None,
) -> RetrievalResult:
    """Index the corpus and search every query; learned retrievers must be cross-validated (``cv``)."""
    name = resolve_name(name)
    spec = REGISTRY[name]
    if spec.learned and not cv:
        raise LatinIntertextError(f"{name} learns from the gold qrels: evaluate it out of fold with --cv N (e.g. --cv 5).")
    start = time.perf_counter()
    if cv:
        try:
            folds = grouped_folds(bench.queries, cv)
        except ValueError as exc:
            raise LatinIntertextError(f"--cv {cv}: {exc}; use fewer folds.") from exc

        def fold_done(fold: Fold) -> None:
            if progress:
                progress(len(fold.test_ids))
            if on_fold:
                on_fold(fold)

        run = cross_validate(lambda: make_retriever(name), bench, folds, k, fold_done)
    else:
        folds = []
        run = make_retriever(name).index(bench.corpus).search(bench.query_texts, k, progress)
    return RetrievalResult(name, run, time.perf_counter() - start, folds)
