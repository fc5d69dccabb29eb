"""The evidence ranker's cross-validated report (``ranker-report``, the README's ranker section): headline figures
with their intervals, the ablation variants, the learning curve, the lexical ceiling and the paired test against the
best baseline, all under the same grouped folds; as JSON, Markdown and a chart."""

from __future__ import annotations

import math
import textwrap
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Callable

from latin_intertext.benchmark import Benchmark, Run
from latin_intertext.evaluate import charts
from latin_intertext.evaluate.ablation import LEARNING_FRACTIONS, LEARNING_SEEDS, ORACLE_LABEL, PAIRED, REPORTED, CurvePoint, Variant, learning_curve, variants
from latin_intertext.evaluate.comparison import compare_evaluations, paired_tests_markdown, skipped_markdown, span_group_json, test_json
from latin_intertext.evaluate.cv import grouped_folds, out_of_fold, span_group_ids
from latin_intertext.evaluate.execute import Skipped, evaluate_baselines, run_retriever
from latin_intertext.evaluate.lexical_evidence import EvidenceClass, candidate_recall, found_depths, found_share, gold_by_evidence, lexical_ceiling
from latin_intertext.evaluate.metrics import evaluate_run
from latin_intertext.evaluate.nested import NestedChoice, nested_cross_validation
from latin_intertext.evaluate.stats import Interval, PairedTest, bootstrap_ci, cluster_bootstrap_ci, format_p, holm
from latin_intertext.errors import LatinIntertextError
from latin_intertext.retrieve import load_all
from latin_intertext.retrieve.base import REGISTRY, resolve_name
from latin_intertext.retrieve.ranker import EvidenceRanker


@dataclass(frozen=True)
class VariantRow:
    """One row of the variants table: a variant's out-of-fold figures and, for every row but the full model's, its
    paired test against the full model, query by query and span group by span group."""

    variant: str
    metrics: dict[str, float]  # REPORTED
    vs_full: PairedTest | None = None  # on PAIRED; A is the variant, B the full model
    p_holm: float | None = None  # vs_full's randomization p, corrected for every row tested (Holm)

    def to_json(self) -> dict:
        out = {"variant": self.variant, **self.metrics}
        if self.vs_full is None:
            return out
        test = self.vs_full
        return out | {"vs_full": {"diff": test.diff, "ci95": test.ci95.as_list(), "p_randomization": test.p_randomization, **span_group_json(test), "p_holm": self.p_holm}}


@dataclass(frozen=True)
class NestedReport:
    """The settings each outer fold chose by nested cross-validation, and what the run so built scores: its figures,
    their intervals and its paired tests against the best baseline."""

    inner_folds: int
    grid: list[str]  # the settings' labels, the shipped ones first
    choices: list[NestedChoice]
    metrics: dict[str, float]
    ci95: dict[str, Interval]  # percentile bootstrap over queries
    paired_tests: list[PairedTest]

    def to_json(self) -> dict:
        return {
            "inner_folds": self.inner_folds, "grid": self.grid, "choices": [asdict(c) for c in self.choices], "metrics": self.metrics,
            "ci95": {m: c.as_list() for m, c in self.ci95.items()}, "paired_tests": [test_json(t) for t in self.paired_tests],
        }


@dataclass(frozen=True)
class RankerReport:
    """What ``ranker-report`` prints, draws and writes (the README's ranker section), all out of fold on the same
    grouped folds."""

    folds: list[str]  # Fold.describe() of each fold
    candidate_recall: float  # stage 1's ceiling over relevant lines
    candidate_recall_per_query: float  # the same as a mean over queries: the ceiling of Recall@100 and @1000
    gold_by_evidence: list[EvidenceClass]
    metrics: dict[str, float]
    ci95: dict[str, tuple[float, float]]  # percentile bootstrap over queries
    ci95_span_groups: dict[str, tuple[float, float]]  # over whole span groups
    n_queries: int
    n_span_groups: int
    ablation: list[VariantRow]  # the full model's row first
    learning_curve: list[CurvePoint]
    baselines: dict[str, dict[str, float]]
    best_baseline: str
    paired_tests: list[PairedTest]  # the full model against the best baseline, per metric
    skipped: list[Skipped] = field(default_factory=list)  # variants and baselines that could not run here, and why
    nested: NestedReport | None = None  # the settings chosen by nested cross-validation, if run
    run: Run = field(default_factory=dict)  # the full model's out-of-fold run (written as a TREC file, not as JSON)

    def to_json(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "run"}
        rows = ("gold_by_evidence", "ablation", "learning_curve")
        return out | {name: [row.to_json() for row in getattr(self, name)] for name in rows} | {
            "paired_tests": [test_json(t) for t in self.paired_tests],
            "skipped": [asdict(s) for s in self.skipped],
            "nested": self.nested.to_json() if self.nested else {},
        }


def build_ranker_report(
    bench: Benchmark, n_folds: int = 5, baselines: tuple[str, ...] | None = None, on_step: Callable[[str], None] | None = None,
    learning_fractions: tuple[float, ...] = LEARNING_FRACTIONS, nested_grid: tuple[Variant, ...] = (),
) -> "RankerReport":
    """``baselines``: default every registered baseline; one that cannot run here (no word vectors, no dense
    extra) is skipped and listed with the reason, as is a variant that needs what is missing.
    ``learning_fractions``: the shares of the training queries the learning curve fits on (none: no curve).
    ``nested_grid``: the settings a nested cross-validation chooses among, fold by fold (none: not run); its run
    is a row of the variants table, and is tested against the best baseline too."""
    step = on_step or (lambda _s: None)
    folds = grouped_folds(bench.queries, n_folds)
    plain = EvidenceRanker().index(bench.corpus)
    rankers = {Variant("").index_options: plain}
    step("indexed")
    rows, evaluations, skipped = [], {}, []
    specs = variants()
    full = specs[0].label  # the model the other rows are tested against, and whose run the report keeps
    for variant in specs:
        try:
            if variant.index_options not in rankers:
                rankers[variant.index_options] = variant.ranker(bench, plain)
        except (ImportError, LatinIntertextError) as exc:
            skipped.append(Skipped(variant.label, str(exc)))
            step(variant.label)
            continue
        run = out_of_fold(variant.configure(rankers[variant.index_options]), bench, folds)
        evaluations[variant.label] = ev = evaluate_run(run, bench.qrels)
        if variant.label == full:
            main = run
        rows.append(VariantRow(variant.label, {m: ev.means[m] for m in REPORTED}))
        step(variant.label)
    main_eval = evaluations[full]
    full_ranker = specs[0].configure(rankers[specs[0].index_options])
    curve = learning_curve(full_ranker, bench, folds, main_eval.means, learning_fractions) if learning_fractions else []
    step("learning curve")
    if nested_grid:
        nested = nested_cross_validation(full_ranker, bench, folds, nested_grid, on_setting=step)
        evaluations[NESTED_LABEL] = nested_eval = evaluate_run(nested.run, bench.qrels)
        rows.append(VariantRow(NESTED_LABEL, {m: nested_eval.means[m] for m in REPORTED}))
    clusters = span_group_ids(bench.queries, list(main_eval.query_ids))
    # each variant against the full model, query by query (and span group by span group)
    versus_full = [compare_evaluations(evaluations[row.variant], main_eval, clusters, (PAIRED,))[0] for row in rows[1:]]
    corrected = holm([test.p_randomization for test in versus_full])  # for every row tested, the oracle's included
    rows[1:] = [replace(row, vs_full=test, p_holm=p) for row, test, p in zip(rows[1:], versus_full, corrected)]
    ci = {m: bootstrap_ci(main_eval.per_query[m])[0] for m in REPORTED}
    ci_groups = {m: cluster_bootstrap_ci(main_eval.per_query[m], clusters)[0] for m in REPORTED}
    def run_of(name: str) -> Run:
        learned = REGISTRY[resolve_name(name)].learned
        return run_retriever(name, bench, 1000, cv=n_folds if learned else None).run  # out of fold on the same grouped folds

    baseline_scores, skipped_baselines, best = evaluate_baselines(baselines or registered_baselines(), run_of, bench.qrels, step)
    skipped += skipped_baselines
    tests = compare_evaluations(main_eval, baseline_scores[best], clusters, REPORTED)
    nested_report = None
    if nested_grid:
        nested_report = NestedReport(
            nested.inner_folds, [s.label for s in nested_grid], nested.choices, {m: nested_eval.means[m] for m in REPORTED},
            {m: bootstrap_ci(nested_eval.per_query[m])[0] for m in REPORTED}, compare_evaluations(nested_eval, baseline_scores[best], clusters, REPORTED),
        )
    pooled, per_query = candidate_recall(plain, bench)
    return RankerReport(
        folds=[f.describe() for f in folds],
        candidate_recall=pooled,
        candidate_recall_per_query=per_query,
        gold_by_evidence=gold_by_evidence(plain, bench, main),
        metrics=main_eval.means,
        ci95={m: (c.low, c.high) for m, c in ci.items()},
        ci95_span_groups={m: (c.low, c.high) for m, c in ci_groups.items()},
        n_queries=len(clusters),
        n_span_groups=len(set(clusters)),
        ablation=rows,
        learning_curve=curve,
        baselines={n: {m: e.means[m] for m in REPORTED} for n, e in baseline_scores.items()},
        best_baseline=best,
        paired_tests=tests,
        skipped=skipped,
        nested=nested_report,
        run=main,
    )


NESTED_LABEL = "settings chosen by nested cross-validation"


def registered_baselines() -> list[str]:
    """Every baseline, learned ones (run out of fold, on the ranker's folds) included."""
    return [spec.name for spec in load_all().values() if spec.baseline]


def _p_clause(value: float) -> str:
    """"= 0.0123", or "≤ 0.0001" at the resampling floor."""
    text = format_p(value)
    return text if text.startswith("≤") else f"= {text}"


def _words(counted: list) -> str:
    return ", ".join(f"*{word}* ({n})" for word, n in counted)


def to_markdown(report: RankerReport) -> str:
    m, ci, groups = report.metrics, report.ci95, report.ci95_span_groups
    lines = [
        f"Out-of-fold over {len(report.folds)} grouped folds ({'; '.join(report.folds)}).",
        "",
        "| metric | evidence-ranker | 95% CI, queries | 95% CI, span groups |",
        "|---|---|---|---|",
    ]
    lines += [f"| {k} | {m[k]:.4f} | [{ci[k][0]:.4f}, {ci[k][1]:.4f}] | [{groups[k][0]:.4f}, {groups[k][1]:.4f}] |" for k in REPORTED]
    lines += ["", f"Intervals and tests resample (or sign-flip) the {report.n_queries} queries one by one, or the "
              f"{report.n_span_groups} span groups whole (queries whose VF spans are chained, each within 3 lines of the next: "
              "neighbouring or overlapping text, so their results may be correlated; the folds keep them together too). The span-group "
              "p is an exact sign-flip test; the span-group interval, a percentile bootstrap over groups of very unequal size, runs somewhat narrow."]
    lines += ["", f"Candidate recall (stage 1 ceiling): {report.candidate_recall:.4f} of the relevant lines; "
              f"{report.candidate_recall_per_query:.4f} as a mean over queries, the ceiling of Recall@100 and Recall@1000 from the reranked candidates.", ""]
    depths = found_depths(report.gold_by_evidence)
    lines += ["| relevant lines by lexical evidence | lines | share | " + " | ".join(f"in the top {d}" for d in depths) + " | commonest shared words |",
              "|---|---|---|" + "---|" * len(depths) + "---|"]
    lines += [
        f"| {g.evidence} | {g.lines} | {g.share:.1%} | " + " | ".join(f"{g.found[d]:.1%}" for d in depths) + f" | {_words(g.commonest_words)} |"
        if g.lines else f"| {g.evidence} | 0 | |" + " |" * len(depths) + " |"
        for g in report.gold_by_evidence
    ]
    held = "; ".join(f"in the top {d}: {found_share(report.gold_by_evidence, d):.1%}" for d in depths)
    _, ceiling = lexical_ceiling(report.gold_by_evidence)
    lines += ["", f"Relevant lines {held}; with every line that shares a query word there (the rest as now): {ceiling:.1%}.", ""]
    lines += ["| variant | nDCG@10 | difference [95% CI], paired p | Holm p | span-group p | Recall@100 | MAP | Recall@1000 |", "|---|---|---|---|---|---|---|---|"]
    for row in report.ablation:
        test, m = row.vs_full, row.metrics
        delta = f"{test.diff:+.4f} [{test.ci95.low:+.4f}, {test.ci95.high:+.4f}], p {_p_clause(test.p_randomization)}" if test else ""
        adjusted = format_p(row.p_holm, raw=test.p_randomization) if test else ""
        grouped = format_p(test.p_randomization_clusters) if test else ""
        lines.append(f"| {row.variant} | {m['ndcg_at_10']:.4f} | {delta} | {adjusted} | {grouped} | {m['recall_at_100']:.4f} | {m['map']:.4f} | {m['recall_at_1000']:.4f} |")
    if tested := sum(row.vs_full is not None for row in report.ablation):
        lines += ["", f"Holm p: the paired p corrected for the {tested} rows tested against the first (Holm-Bonferroni), "
                  f"so the rows whose Holm p is below 0.05 differ from it at 5% with all {tested} tests taken together. "
                  "Span-group p: the randomization test with one sign per span group, uncorrected."]
    if report.nested:
        lines += _nested_markdown(report.nested, report.best_baseline)
    if report.learning_curve:
        targets = ", ".join(f"{point.fraction:.0%}" for point in report.learning_curve[:-1])
        lines += ["", "Learning curve: each fold's model fitted on a share of the training folds' queries (whole span groups, "
                  f"{len(LEARNING_SEEDS)} random draws per share, mean [lowest, highest]), the test folds unchanged; "
                  f"share: the training queries drawn over the full folds' (whole span groups can overshoot the targets of {targets}):", ""]
        lines += ["| training queries per fold | share | nDCG@10 | Recall@100 |", "|---|---|---|---|"]
        for point in report.learning_curve:
            spread = {m: f" [{point.range[m][0]:.4f}, {point.range[m][1]:.4f}]" if point.range is not None else "" for m in dict(PLOTTED)}
            m = point.metrics
            lines.append(f"| {point.training_queries:.0f} | {point.share:.0%} | {m['ndcg_at_10']:.4f}{spread['ndcg_at_10']} | {m['recall_at_100']:.4f}{spread['recall_at_100']} |")
        paces = "; ".join(_pace_text(m, target, extrapolate(report.learning_curve, m, target)) for m, target in TARGETS.items())
        lines += ["", f"At the pace from the fewest training queries to all of them, per doubling of the queries: {paces}."]
    lines += ["", f"Paired tests against the best baseline by nDCG@10, `{report.best_baseline}`, of {', '.join(f'`{n}`' for n in report.baselines)} (10,000 resamples):", ""]
    lines += paired_tests_markdown(report.paired_tests, "evidence-ranker")
    lines += skipped_markdown(report.skipped)
    return "\n".join(lines) + "\n"


def _nested_markdown(nested: NestedReport, baseline: str) -> list[str]:
    """The settings each outer fold chose by its inner folds, and what the run so built scores against the best baseline."""
    m, ci = nested.metrics, nested.ci95
    ndcg = next(t for t in nested.paired_tests if t.metric == "ndcg_at_10")
    lines = ["", f"Nested cross-validation of the settings (the row \"{NESTED_LABEL}\" above): each outer fold chose among the "
             f"{len(nested.grid)} settings below the one with the best nDCG@10 under {nested.inner_folds} grouped folds of its own "
             "training queries, fitted it on all of them and searched its test queries, so no choice saw the queries it is scored on. "
             f"nDCG@10 {m['ndcg_at_10']:.4f} {ci['ndcg_at_10']:.4f}, Recall@100 {m['recall_at_100']:.4f} "
             f"{ci['recall_at_100']:.4f}, MAP {m['map']:.4f}, Recall@1000 {m['recall_at_1000']:.4f}; "
             f"against `{baseline}`, {ndcg.diff:+.4f} nDCG@10 {ndcg.ci95:+.4f}, randomization p {format_p(ndcg.p_randomization)}, "
             f"span-group p {format_p(ndcg.p_randomization_clusters)}. Inner nDCG@10 of each setting, fold by fold (the choice in bold):", ""]
    choices = nested.choices
    lines += ["| setting | " + " | ".join(c.fold.split(":")[0] for c in choices) + " |", "|---|" + "---|" * len(choices)]
    for label in nested.grid:
        cells = [f"**{c.inner[label]:.4f}**" if c.chosen == label else f"{c.inner[label]:.4f}" for c in choices]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


TARGETS = {"ndcg_at_10": 0.45, "recall_at_100": 0.85}  # the project's goals for the ranker (issue 4)
PLOTTED = (("ndcg_at_10", "nDCG@10"), ("recall_at_100", "Recall@100"))


@dataclass(frozen=True)
class Extrapolation:
    """Where a learning curve's pace, kept up, would take a metric: a straight line in the log of the queries."""

    per_doubling: float
    doublings: float | None  # more doublings of all the training queries to reach the target (None: the pace never does)
    queries: float | None


def extrapolate(curve: list[CurvePoint], metric: str, target: float) -> Extrapolation:
    """The pace of ``metric`` from the curve's first point to its last (all the training queries), per doubling of
    the queries, and how many more doublings (and queries) that pace would need to reach ``target``."""
    first, last = curve[0], curve[-1]
    pace = (last.metrics[metric] - first.metrics[metric]) / math.log2(last.training_queries / first.training_queries)
    if pace <= 0 or last.metrics[metric] >= target:
        return Extrapolation(pace, None, None)
    doublings = (target - last.metrics[metric]) / pace
    return Extrapolation(pace, doublings, last.training_queries * 2**doublings)


def _pace_text(metric: str, target: float, e: Extrapolation) -> str:
    name = dict(PLOTTED)[metric]
    if e.doublings is None:
        return f"{name} {e.per_doubling:+.4f}, which never reaches {target}"
    return f"{name} {e.per_doubling:+.4f}, which would reach {target} after {e.doublings:.1f} more doublings (some {_about(e.queries)} queries)"


def _about(n: float) -> str:
    """A count rounded to two significant figures: a pace kept up is no precise forecast."""
    return f"{round(n, 2 - len(str(int(n)))):,.0f}" if n >= 100 else f"{n:.0f}"


def plot(report: RankerReport, path: Path | str) -> Path:
    """The report at a glance: each variant's nDCG@10 and Recall@100 against the best baseline and the targets,
    how many relevant lines of each kind of lexical evidence the run's top lines hold (at ``found_depths``), and the learning curve."""
    plt = charts.pyplot()
    rows = report.ablation[::-1]
    baseline = report.baselines[report.best_baseline]
    curve = report.learning_curve or []
    widths = [2.2, 2.2, 2] + ([1.6] if curve else [])
    fig, axes = plt.subplots(1, len(widths), figsize=(4.4 * len(widths), 0.3 * len(rows) + 1.8), gridspec_kw={"width_ratios": widths}, layout="constrained")
    colours = ["#c44e52" if r.variant == ORACLE_LABEL else "#1f3d7a" if r is report.ablation[0] else "#4c72b0" for r in rows]
    for ax, (metric, label) in zip(axes, PLOTTED):
        values = [r.metrics[metric] for r in rows]
        ax.hlines(range(len(rows)), 0, values, color="#dddddd", lw=1)
        ax.scatter(values, range(len(rows)), color=colours, zorder=3)
        ax.axvline(baseline[metric], color="#55a868", ls="--", label=f"best baseline ({report.best_baseline})")
        ax.axvline(TARGETS[metric], color="black", ls=":", label="target")
        ax.set_xlabel(f"{label}, out of fold")
        ax.set_xlim(min(values + [baseline[metric]]) - 0.05, max(values + [TARGETS[metric]]) + 0.03)
        ax.set_yticks(range(len(rows)), [r.variant for r in rows] if ax is axes[0] else [""] * len(rows), fontsize=7)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=2, fontsize=8)
    evidence = report.gold_by_evidence
    depths = found_depths(evidence)
    colours = ("#1f3d7a", "#4c72b0", "#9ab0d6")  # lines in the top 10, then at 11 to 100, ...
    if len(depths) > len(colours):
        raise ValueError(f"the chart draws at most {len(colours)} depths of lexical evidence, not {len(depths)}")
    left, shallower = [0.0] * len(evidence), 0
    for depth, colour in zip(depths, colours):
        found = [g.lines * g.found[depth] for g in evidence]
        axes[2].barh(range(len(evidence)), [f - l for f, l in zip(found, left)], left=left, color=colour,
                     label=f"in the top {depth}" if not shallower else f"at {shallower + 1} to {depth}")
        left, shallower = found, depth
    axes[2].barh(range(len(evidence)), [g.lines - f for g, f in zip(evidence, left)], left=left, color="#dddddd", label=f"not in the top {depths[-1]}")
    for y, g in enumerate(evidence):
        axes[2].text(g.lines + 5, y, " / ".join(f"{g.found[d]:.0%}" for d in depths) + f" of {g.lines}", va="center", fontsize=7)
    axes[2].set_yticks(range(len(evidence)), [textwrap.fill(g.evidence, 28) for g in evidence], fontsize=7)
    axes[2].set_xlim(0, max(g.lines for g in evidence) * 1.3)
    axes[2].invert_yaxis()
    axes[2].set_xlabel("relevant lines")
    axes[2].legend(fontsize=7, loc="lower right")
    if curve:
        _plot_learning_curve(axes[3], curve)
    return charts.save(fig, path, dpi=110)


def _plot_learning_curve(ax, curve: list[CurvePoint]) -> None:
    """Each metric against the training queries per fold (log scale), draws' range as error bars, targets dotted."""
    sizes = [point.training_queries for point in curve]
    for (metric, label), colour in zip(PLOTTED, ("#1f3d7a", "#c44e52")):
        means = [point.metrics[metric] for point in curve]
        low = [m - point.range[metric][0] if point.range is not None else 0 for m, point in zip(means, curve)]
        high = [point.range[metric][1] - m if point.range is not None else 0 for m, point in zip(means, curve)]
        ax.errorbar(sizes, means, yerr=[low, high], color=colour, marker="o", capsize=3, label=label)
        ax.axhline(TARGETS[metric], color=colour, ls=":", lw=1)
        ax.text(sizes[0], TARGETS[metric], f"target {label}", color=colour, fontsize=7, va="bottom")
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes, [f"{s:.0f}" for s in sizes], fontsize=7)
    ax.minorticks_off()
    ax.set_xlabel("training queries per fold")
    ax.set_title("learning curve, out of fold", fontsize=9)
    ax.legend(fontsize=7, loc="center right")
