"""One run's full evaluation: metrics, bootstrap intervals and breakdowns, as a record and as JSON."""

from __future__ import annotations

from dataclasses import dataclass, field

from latin_intertext.benchmark import Benchmark, Run
from latin_intertext.evaluate.breakdown import per_author, per_span_length
from latin_intertext.evaluate.metrics import HEADLINE, METRICS, Evaluation, evaluate_run
from latin_intertext.evaluate.runs import OrderWarning
from latin_intertext.evaluate.cv import span_group_ids
from latin_intertext.evaluate.stats import RESAMPLES, SEED, Interval, bootstrap_ci, cluster_bootstrap_ci


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

    @property
    def metrics(self) -> dict[str, float]:
        return self.evaluation.means

    def to_json(self, per_query: bool = True) -> dict:
        def group(evals: dict[str, Evaluation]) -> dict:
            return {k: {"n_queries": len(e.query_ids), "metrics": e.means} for k, e in evals.items()}

        out = {
            "metrics": self.metrics,
            "ci95": {k: iv.as_list() for k, iv in self.ci95.items()},
            "ci95_span_groups": {k: iv.as_list() for k, iv in self.ci95_span_groups.items()},
            "per_author": group(self.per_author),
            "per_span_length": group(self.per_span_length),
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
    return RunReport(
        retriever,
        evaluation,
        dict(zip(ci_metrics, intervals)),
        per_author(run, bench.qrels, METRICS),
        per_span_length(evaluation, bench.queries),
        {"bootstrap_resamples": resamples, "bootstrap_seed": seed, **(config or {})},
        order_warnings,
        dict(zip(ci_metrics, clustered)),
    )
