"""Two runs over the same queries, compared query by query: paired tests, and where one wins."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np

from latin_intertext.evaluate import charts
from latin_intertext.evaluate.metrics import HEADLINE, Evaluation
from latin_intertext.evaluate.stats import RESAMPLES, SEED, PairedTest, format_p, paired_test

if TYPE_CHECKING:
    from latin_intertext.evaluate.execute import Skipped

PLOTTED = ("ndcg_at_10", "nDCG@10")


def compare_evaluations(
    a: Evaluation, b: Evaluation, clusters: Sequence[int], metrics: Sequence[str] = HEADLINE, resamples: int = RESAMPLES, seed: int = SEED
) -> list[PairedTest]:
    """A paired test of A against B per metric, query by query and span group by span group (``clusters``: one id per
    query of ``a.query_ids``)."""
    if a.query_ids != b.query_ids:
        raise ValueError("the two evaluations are not over the same queries")
    return [paired_test(m, a.per_query[m], b.per_query[m], resamples, seed, clusters) for m in metrics]


def test_json(test: PairedTest) -> dict:
    """A test as the ranker report stores it: means, difference, interval and p-values, by queries and by span groups."""
    plain = ("metric", "mean_a", "mean_b", "diff", "p_randomization", "p_bootstrap")
    return {**{k: getattr(test, k) for k in plain}, "ci95": test.ci95.as_list(), **span_group_json(test)}


def span_group_json(test: PairedTest) -> dict:
    """A test's span-group figures under the names every report gives them."""
    grouped = test.ci95_clusters
    return {"ci95_span_groups": grouped and grouped.as_list(), "p_randomization_span_groups": test.p_randomization_clusters}


def paired_tests_markdown(tests: Sequence[PairedTest], name: str) -> list[str]:
    """The table of ``name``'s paired tests against a baseline, each by queries and by span groups."""
    lines = [f"| metric | {name} | baseline | difference [95% CI] | randomization p | bootstrap p | 95% CI, span groups | span-group p |", "|---|---|---|---|---|---|---|---|"]
    for t in tests:
        lines.append(f"| {t.metric} | {t.mean_a:.4f} | {t.mean_b:.4f} | {t.diff:+.4f} {t.ci95:+.4f} | {format_p(t.p_randomization)} | {format_p(t.p_bootstrap)} "
                     f"| {t.ci95_clusters:+.4f} | {format_p(t.p_randomization_clusters)} |")
    return lines


def skipped_markdown(skipped: Sequence[Skipped]) -> list[str]:
    """What could not run here, each with its reason (none: no line)."""
    return ["", "Skipped here: " + "; ".join(f"`{s.name}` ({s.reason.rstrip('.')})" for s in skipped) + "."] if skipped else []


def plot_differences(a: Evaluation, b: Evaluation, test: PairedTest, path: Path | str, names: tuple[str, str] = ("A", "B")) -> Path:
    """Each query's difference A - B in nDCG@10, sorted, with the mean and its 95% CI: whether a gain is broad or rests
    on a few queries shows at a glance, as no mean can show it."""
    metric, label = PLOTTED
    diff = np.sort(a.per_query[metric] - b.per_query[metric])[::-1]
    wins, losses = int((diff > 0).sum()), int((diff < 0).sum())
    plt = charts.pyplot()
    fig, ax = plt.subplots(figsize=(8, 3.6), layout="constrained")
    ax.bar(range(len(diff)), diff, width=1.0, color=np.where(diff > 0, "#4c72b0", "#c44e52"))
    ax.axhline(0, color="black", lw=0.8)
    grouped = f"; span groups {test.ci95_clusters:+.4f}" if test.ci95_clusters else ""
    ax.axhline(test.diff, color="#55a868", ls="--", label=f"mean {test.diff:+.4f}, 95% CI over queries {test.ci95:+.4f}{grouped}")
    ax.axhspan(test.ci95.low, test.ci95.high, color="#55a868", alpha=0.2)
    ax.set_xlim(-0.5, len(diff) - 0.5)
    ax.set_xlabel(f"queries, sorted: {names[0]} better on {wins}, {names[1]} better on {losses}, equal on {len(diff) - wins - losses}")
    ax.set_ylabel(f"{label}, {names[0]} - {names[1]}")
    ax.legend(fontsize=8, loc="upper right")
    return charts.save(fig, path, dpi=110)
