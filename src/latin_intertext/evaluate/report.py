"""One run's full evaluation: metrics, bootstrap intervals and breakdowns, as a record and as JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from latin_intertext.benchmark import Benchmark, Run
from latin_intertext.evaluate import charts
from latin_intertext.evaluate.breakdown import per_author, per_span_length
from latin_intertext.evaluate.metrics import HEADLINE, METRICS, Evaluation, evaluate_run
from latin_intertext.evaluate.runs import OrderWarning
from latin_intertext.evaluate.cv import span_group_ids
from latin_intertext.evaluate.stats import FEW_FOR_BOOTSTRAP, RESAMPLES, SEED, Interval, bootstrap_ci, cluster_bootstrap_ci


@dataclass(frozen=True)
class RunReport:
    retriever: str
    evaluation: Evaluation
    ci95: dict[str, Interval]
    per_author: dict[str, Evaluation]
    per_span_length: dict[str, Evaluation]
    config: dict = field(default_factory=dict)
    order_warnings: tuple[OrderWarning, ...] = ()  # queries of a run file whose scores contradict its ranks
    ci95_span_groups: dict[str, Interval] = field(default_factory=dict)  # resampling span groups, not queries
    breakdown_ci95: dict[str, dict[str, Interval]] = field(default_factory=dict)  # per author / span length: nDCG@10's interval (rows of enough queries)

    def breakdowns(self) -> dict[str, dict[str, Evaluation]]:
        """The groups a run is broken down by, each by its name in the report."""
        return {"per_author": self.per_author, "per_span_length": self.per_span_length}

    @property
    def metrics(self) -> dict[str, float]:
        return self.evaluation.means

    def to_json(self, per_query: bool = True) -> dict:
        def group(kind: str) -> dict:
            intervals = self.breakdown_ci95.get(kind, {})
            return {
                k: {"n_queries": len(e.query_ids), "metrics": e.means, **({"ci95": {BREAKDOWN_CI: intervals[k].as_list()}} if k in intervals else {})}
                for k, e in self.breakdowns()[kind].items()
            }

        out = {
            "metrics": self.metrics,
            "ci95": {k: iv.as_list() for k, iv in self.ci95.items()},
            "ci95_span_groups": {k: iv.as_list() for k, iv in self.ci95_span_groups.items()},
            "per_author": group("per_author"),
            "per_span_length": group("per_span_length"),
            "n_queries": len(self.evaluation.query_ids),
            **run_notes(self.evaluation, self.order_warnings),
            "retriever": self.retriever,
            "config": self.config,
        }
        if per_query:
            out["per_query"] = self.evaluation.query_rows()
        return out


def run_notes(evaluation: Evaluation, order_warnings: tuple[OrderWarning, ...] = ()) -> dict:
    """What a report must say of a run beside its metrics, each counted and listed: the queries it leaves out
    (scored 0) and those whose scores contradict their ranks (ranked by score)."""
    return {
        "run_depth": evaluation.depth,
        "metrics_deeper_than_run": evaluation.deeper_than_run,
        "n_queries_missing_from_run": evaluation.n_missing,
        "queries_missing_from_run": list(evaluation.missing),
        "n_queries_score_order_differs_from_rank": len(order_warnings),
        "queries_score_order_differs_from_rank": [w.to_json() for w in order_warnings],
    }


def build_report(run: Run, bench: Benchmark, retriever: str, config: dict | None = None, resamples: int = RESAMPLES, seed: int = SEED, ci_metrics: tuple[str, ...] = HEADLINE, order_warnings: tuple[OrderWarning, ...] = ()) -> RunReport:
    """Evaluate ``run`` on ``bench`` with 95% bootstrap intervals for ``ci_metrics``."""
    evaluation = evaluate_run(run, bench.qrels, METRICS)
    intervals = bootstrap_ci(evaluation.matrix(ci_metrics), resamples, seed)
    clustered = cluster_bootstrap_ci(evaluation.matrix(ci_metrics), span_group_ids(bench.queries, evaluation.query_ids), resamples, seed)
    breakdowns = {"per_author": per_author(run, bench.qrels, METRICS), "per_span_length": per_span_length(evaluation, bench.queries)}
    return RunReport(
        retriever,
        evaluation,
        dict(zip(ci_metrics, intervals)),
        breakdowns["per_author"],
        breakdowns["per_span_length"],
        {"bootstrap_resamples": resamples, "bootstrap_seed": seed, **(config or {})},
        order_warnings,
        dict(zip(ci_metrics, clustered)),
        {
            kind: {key: bootstrap_ci(ev.per_query[BREAKDOWN_CI], resamples, seed)[0] for key, ev in groups.items() if len(ev.query_ids) >= FEW_FOR_BOOTSTRAP}
            for kind, groups in breakdowns.items()
        },
    )


BREAKDOWN_CI = "ndcg_at_10"  # the metric whose interval each author's and span length's row carries
BREAKDOWN_PLOTTED = (("ndcg_at_10", "nDCG@10"), ("recall_at_100", "Recall@100"))


def plot_breakdown(report: RunReport, path: Path | str) -> Path:
    """Where the run succeeds, at a glance: nDCG@10 (with its 95% CI) and Recall@100 per target author and per VF
    span length, each bar labelled with its number of queries, the run's overall figure dashed."""
    plt = charts.pyplot()
    panels = (("target author", "per_author"), ("VF span length (lines)", "per_span_length"))
    fig, axes = plt.subplots(1, len(panels), figsize=(10, 3.6), layout="constrained", gridspec_kw={"width_ratios": [max(len(report.breakdowns()[k]), 1) for _, k in panels]})
    width = 0.8 / len(BREAKDOWN_PLOTTED)
    for ax, (title, kind) in zip(axes, panels):
        groups, intervals = report.breakdowns()[kind], report.breakdown_ci95.get(kind, {})
        names = list(groups)
        for j, ((metric, label), colour) in enumerate(zip(BREAKDOWN_PLOTTED, ("#4c72b0", "#dd8452"))):
            x = [i + (j - (len(BREAKDOWN_PLOTTED) - 1) / 2) * width for i in range(len(names))]
            values = [groups[n].means[metric] for n in names]
            errors = None
            if metric == BREAKDOWN_CI:  # a row of too few queries has no interval, and no error bar
                errors = [[v - intervals[n].low if n in intervals else 0 for v, n in zip(values, names)], [intervals[n].high - v if n in intervals else 0 for v, n in zip(values, names)]]
            ax.bar(x, values, width, yerr=errors, capsize=3, color=colour, label=label)
            ax.axhline(report.metrics[metric], color=colour, ls="--", lw=1)
        ax.set_xticks(range(len(names)), [f"{n}\n({len(groups[n].query_ids)} queries)" for n in names], fontsize=8)
        ax.set_ylim(0, 1)
        ax.set_title(f"by {title}", fontsize=9)
    axes[0].legend(fontsize=8, loc="upper left")
    fig.suptitle(f"{report.retriever}: 95% CI of nDCG@10 over queries; dashed: over all queries", fontsize=9)
    return charts.save(fig, path, dpi=110)
