"""Nested cross-validation of the ranker's LightGBM settings: the figure the headline would have if the settings
were chosen without ever seeing the test fold.

The shipped settings were compared, one at a time, with the alternatives of :func:`settings_grid` on the very folds
that report them. Here each outer fold chooses among the same alternatives by an inner grouped cross-validation over
its own training queries alone, then fits the choice on all of them and searches its test queries; the out-of-fold run
so built carries no optimism from that choice. The choices of stage 1 (stop list, candidate pools) and of the
feature families are outside it: they change the index, not the fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from latin_intertext.benchmark import Benchmark, Run
from latin_intertext.evaluate.ablation import FIXED_SETTINGS, PAIRED, Variant
from latin_intertext.evaluate.cv import Fold, grouped_folds, out_of_fold, training_ids
from latin_intertext.evaluate.metrics import evaluate_run
from latin_intertext.retrieve.ranker import EvidenceRanker

INNER_FOLDS = 3


def settings_grid() -> tuple[Variant, ...]:
    """The shipped settings first (they win ties), then each alternative docs/evidence-ranker.md says was compared with them."""
    trees, leaves, rate = (FIXED_SETTINGS[name] for name in ("n_estimators", "num_leaves", "learning_rate"))
    return (
        Variant("as shipped"),
        Variant(f"{trees // 2} trees", settings=(("n_estimators", trees // 2),)),
        Variant(f"{trees * 2} trees", settings=(("n_estimators", trees * 2),)),
        Variant(f"{leaves // 2} leaves", settings=(("num_leaves", leaves // 2),)),
        Variant(f"{leaves * 2 + 1} leaves", settings=(("num_leaves", leaves * 2 + 1),)),
        Variant("at least 50 lines a leaf", settings=(("min_child_samples", 50),)),
        Variant(f"learning rate {rate / 2:g} and {trees * 2} trees", settings=(("learning_rate", rate / 2), ("n_estimators", trees * 2))),
        Variant("60% of the negatives", settings=(("negative_fraction", 0.6),)),
        Variant("all the negatives", settings=(("negative_fraction", 1.0),)),
        Variant("truncation level 10", settings=(("truncation_level", 10),)),
        Variant("4 members and truncation level 50", settings=(("n_models", 4), ("truncation_level", 50))),
    )


@dataclass(frozen=True)
class NestedChoice:
    """What one outer fold chose, and the inner out-of-fold nDCG@10 of every setting it chose among."""

    fold: str  # Fold.describe()
    chosen: str
    inner: dict[str, float]


@dataclass(frozen=True)
class NestedRun:
    run: Run
    choices: list[NestedChoice]
    inner_folds: int


def nested_cross_validation(
    ranker: EvidenceRanker, bench: Benchmark, folds: list[Fold], grid: tuple[Variant, ...], inner_folds: int = INNER_FOLDS,
    on_setting: Callable[[str], None] | None = None,
) -> NestedRun:
    """The out-of-fold run of ``ranker`` (already indexed) whose settings each outer fold chooses from ``grid`` by
    nDCG@10 under ``inner_folds`` grouped folds of its own training queries (the first setting on a tie)."""
    step = on_setting or (lambda _label: None)
    run: Run = {}
    choices = []
    for fold in folds:
        train = bench.subset(training_ids(bench, fold))
        inner = grouped_folds(train.queries, inner_folds)
        scores = {}
        for setting in grid:
            scores[setting.label] = evaluate_run(out_of_fold(setting.configure(ranker), train, inner), train.qrels).means[PAIRED]
            step(f"{fold.describe()}: {setting.label}")
        best = max(grid, key=lambda s: scores[s.label])  # max keeps the first of equals: the shipped settings
        run.update(out_of_fold(best.configure(ranker), bench, [fold]))  # fitted on all of ``train``, as the headline's folds are
        choices.append(NestedChoice(fold.describe(), best.label, scores))
    Variant("").configure(ranker)  # back to the shipped settings for whatever is fitted next
    return NestedRun(run, choices, inner_folds)
