"""Turn a registered retriever into a run on a benchmark, with cross-validation when it learns."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from latin_intertext.benchmark import Benchmark, Qrels, Run
from latin_intertext.errors import LatinIntertextError
from latin_intertext.evaluate.cv import Fold, cross_validate, grouped_folds
from latin_intertext.evaluate.metrics import Evaluation, evaluate_run
from latin_intertext.retrieve.base import REGISTRY, make_retriever, resolve_name


@dataclass(frozen=True)
class Skipped:
    """A retriever, or a variant of one, that could not run here (no word vectors, no dense extra), and why."""

    name: str
    reason: str


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


def evaluate_baselines(
    names: Sequence[str], run_of: Callable[[str], Run], qrels: Qrels, on_step: Callable[[str], None] | None = None
) -> tuple[dict[str, Evaluation], list[Skipped], str]:
    """Each baseline's evaluation of ``run_of(name)``, the baselines that cannot run here (no word vectors, no dense
    extra) with the reason, and the best by nDCG@10: what a learned retriever is tested against."""
    evaluations: dict[str, Evaluation] = {}
    skipped: list[Skipped] = []
    for name in names:
        try:
            evaluations[name] = evaluate_run(run_of(name), qrels)
        except (ImportError, LatinIntertextError) as exc:
            skipped.append(Skipped(name, str(exc)))
        if on_step:
            on_step(name)
    if not evaluations:
        raise LatinIntertextError("No baseline could run, so there is nothing to test the ranker against: " + "; ".join(s.reason for s in skipped))
    return evaluations, skipped, max(evaluations, key=lambda n: evaluations[n].means["ndcg_at_10"])
