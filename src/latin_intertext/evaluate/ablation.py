"""Cross-validated report of the evidence ranker: headline figures, author prior on/off, feature ablation,
candidate recall, an oracle upper bound and the paired test against the best baseline, all under the same
grouped folds."""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Callable, Mapping

import numpy as np

from latin_intertext import latin
from latin_intertext.benchmark import Benchmark, Run
from latin_intertext.evaluate import charts
from latin_intertext.evaluate.cv import Fold, grouped_folds, out_of_fold, span_group_ids, training_ids
from latin_intertext.evaluate.comparison import compare_evaluations, span_group_json, test_json
from latin_intertext.evaluate.execute import run_retriever
from latin_intertext.evaluate.metrics import evaluate_run, ranked
from latin_intertext.evaluate.stats import bootstrap_ci, cluster_bootstrap_ci, format_p, holm
from latin_intertext.errors import LatinIntertextError
from latin_intertext.retrieve import load_all
from latin_intertext.retrieve.base import REGISTRY, resolve_name
from latin_intertext.retrieve.features import Unit, shared_lemmas, shared_query_words, word_idf_sum
from latin_intertext.retrieve.ranker import FAMILIES, OPTIONAL_FAMILIES, EvidenceRanker

REPORTED = ("ndcg_at_10", "recall_at_100", "map", "recall_at_1000")
PAIRED = "ndcg_at_10"  # the metric on which each variant is tested against the full model
# The settings a variant may change on a shared indexed ranker: fitting only (candidates and features are cached per
# index). Every variant starts from the ranker's defaults for all of them, so none inherits the last variant's.
FIT_SETTINGS = ("n_estimators", "learning_rate", "num_leaves", "min_child_samples", "seed", "n_models", "negative_fraction", "truncation_level")
FIXED_SETTINGS = {name: EvidenceRanker().params()[name] for name in FIT_SETTINGS}


@dataclass(frozen=True)
class Variant:
    label: str
    author_prior: bool = False
    drop: tuple[str, ...] = ()
    background: str | None = None
    vectors: str | None = None
    monotone: bool = True
    settings: tuple[tuple[str, int | float], ...] = ()  # LightGBM settings other than the fixed ones
    oracle: bool = False  # told the quoted query words: an upper bound, not a retriever

    def __post_init__(self) -> None:
        if unknown := [name for name, _ in self.settings if name not in FIT_SETTINGS]:
            raise ValueError(f"variant {self.label!r} sets {unknown}, which a shared indexed ranker cannot change; settings must be among {FIT_SETTINGS}")

    @property
    def fit_options(self) -> dict:
        """What fitting depends on, applied to the shared ranker before each variant's folds."""
        return {"author_prior": self.author_prior, "drop_families": self.drop, "monotone": self.monotone, **FIXED_SETTINGS, **dict(self.settings)}

    def configure(self, ranker: EvidenceRanker) -> EvidenceRanker:
        """``ranker`` set to fit as this variant (a shared ranker keeps whatever the last variant set otherwise)."""
        for option, value in self.fit_options.items():
            setattr(ranker, option, value)
        return ranker

    @property
    def index_options(self) -> tuple[str | None, str | None, bool]:
        """What the indexed ranker depends on (its index's background rarity and vectors, and whether it is the
        oracle): variants that share it share one indexed ranker, refitted with each one's ``fit_options``."""
        return self.background, self.vectors, self.oracle

    def ranker(self, bench: Benchmark, plain: EvidenceRanker | None = None) -> EvidenceRanker:
        """A ranker indexed for this variant; the oracle shares ``plain``'s index when given (same corpus index)."""
        if self.oracle:
            oracle = QuotedWordsOracle(quoted_words(bench), background=self.background, vectors=self.vectors)
            return oracle.index_like(plain) if plain is not None else oracle.index(bench.corpus)
        return EvidenceRanker(background=self.background, vectors=self.vectors).index(bench.corpus)


def variants() -> list[Variant]:
    trees, members, level = (FIXED_SETTINGS[name] for name in ("n_estimators", "n_models", "truncation_level"))
    return (
        [Variant("full model (no author prior)"), Variant("full model + learned author prior", author_prior=True)]
        + [Variant(f"without {family}", drop=(family,)) for family in FAMILIES if family not in OPTIONAL_FAMILIES]
        + [Variant("full model without monotone constraints", monotone=False)]
        + [Variant("full model + lemma rarity in Tesserae-la (612 texts: not the queries' own)", background="tesserae-la")]
        + [Variant("full model + word-vector themes (Word2Vec on Tesserae-la)", vectors="default")]
        + [Variant(f"settings: {n} trees instead of {trees}", settings=(("n_estimators", n),)) for n in (trees // 2, trees * 2)]
        + [Variant(f"settings: another bag (random seeds {members}-{2 * members - 1} instead of 0-{members - 1})", settings=(("seed", members),))]
        # the bag the figures came from until 877c9fa, when these two settings changed for speed
        + [Variant(f"settings: 4 members and truncation level 50 instead of {members} and {level}", settings=(("n_models", 4), ("truncation_level", 50)))]
        + [Variant(ORACLE_LABEL, oracle=True)]
    )


# shares of the training folds' queries the learning curve fits on, each drawn by these seeds (the full share is the model's own row)
LEARNING_FRACTIONS = (0.25, 0.5, 0.75)
LEARNING_SEEDS = (0, 1, 2)


def learning_curve(
    ranker: EvidenceRanker, bench: Benchmark, folds: list[Fold], full: Mapping[str, float], fractions: tuple[float, ...] = LEARNING_FRACTIONS,
) -> list[dict]:
    """How the out-of-fold figures grow with the gold the ranker learns from: each fold's model fitted on a share
    of the training folds' queries (whole span groups, each share drawn once per seed of ``LEARNING_SEEDS``, which the
    report's text counts; means reported), the test folds unchanged; ``full`` (the model's own figures) is the last
    point. Would more gold like this reach the targets?

    Each row keeps the target ``fraction`` and the ``share`` drawn (mean training queries over the full folds'
    mean): whole groups overshoot the target, and the share drawn is what the figures were learned from."""
    whole = float(np.mean([len(training_ids(bench, fold)) for fold in folds]))
    rows = []
    for fraction in fractions:
        draws = [evaluate_run(out_of_fold(ranker, bench, folds, train_fraction=fraction, seed=seed), bench.qrels).means for seed in LEARNING_SEEDS]
        size = float(np.mean([len(training_ids(bench, fold, fraction, seed)) for seed in LEARNING_SEEDS for fold in folds]))
        rows.append({
            "fraction": fraction, "training_queries": size, "share": size / whole,
            **{m: float(np.mean([d[m] for d in draws])) for m in REPORTED},
            "range": {m: [min(d[m] for d in draws), max(d[m] for d in draws)] for m in REPORTED},
        })
    return rows + [{"fraction": 1.0, "training_queries": whole, "share": 1.0, **{m: full[m] for m in REPORTED}}]


ORACLE_LABEL = "oracle, not a retriever: full model + which query words the gold phrases quote"


def quoted_words(bench: Benchmark) -> dict[str, frozenset[int]]:
    """For each query text, the positions of its words that its gold ``query_phrases`` quote (folded forms)."""
    quoted = {}
    for q in bench.queries:
        phrase_words = {w for phrase in json.loads(q.query_phrases) for w in latin.forms(phrase)}
        quoted[q.text] = frozenset(i for i, w in enumerate(Unit.of(q.text).words) if w in phrase_words)
    return quoted


class QuotedWordsOracle(EvidenceRanker):
    """The ranker plus one feature it could never have at search time: the rarity of the query words the
    commentators quote that a line shares (``word_idf_sum`` over the quoted words). It reads ``query_phrases``,
    so it is an analysis, never registered as a retriever: its figures bound what any way of telling the
    alluded words of a query from the others could add to this ranker, with the same candidates."""

    extra_features = ("quoted_word_idf",)

    def __init__(self, quoted: Mapping[str, frozenset[int]], **params):
        super().__init__(**params)
        self._quoted = quoted

    def _extra_columns(self, text: str, query: Unit, cand: np.ndarray) -> np.ndarray:
        return word_idf_sum(self._lines, query, self._quoted.get(text, frozenset()))[cand, None]


def candidate_recall(ranker: EvidenceRanker, bench: Benchmark) -> tuple[float, float]:
    """What stage 1 puts among the candidates, the reranker's ceiling: the share of all relevant lines, and the mean
    over queries of each query's share, which bounds Recall@k from the candidates as Recall@k is a mean over queries."""
    found, total = [], []
    for q in bench.queries:
        relevant = [d for d, r in bench.qrels.get(q.id, {}).items() if r > 0]
        if relevant:
            ids = {ranker.doc_ids[i] for i in ranker._features(q.text)[0]}
            found.append(sum(d in ids for d in relevant))
            total.append(len(relevant))
    if not total:
        return 0.0, 0.0
    return sum(found) / sum(total), float(np.mean(np.divide(found, total)))


ONE_WORD_BANDS = (20, 100)  # how many corpus lines hold the one shared word: the line's competitors


def evidence_classes(bands: tuple[int, int] = ONE_WORD_BANDS) -> tuple[str, ...]:
    low, high = bands
    return (
        "shares two or more of the query's words",
        f"shares one of the query's words, held by under {low} lines",
        f"shares one of the query's words, held by {low} to {high - 1} lines",
        f"shares one of the query's words, held by {high} lines or more",
        "only through a neighbouring line",
        "shares no lemma",
    )


EVIDENCE_CLASSES = evidence_classes()
N_LEXICAL = 4  # the classes that share a query word
COMMONEST = 3  # shared words named per one-word class


def gold_by_evidence(ranker: EvidenceRanker, bench: Benchmark, run: Run, depth: int = 100, bands: tuple[int, int] = ONE_WORD_BANDS) -> list[dict]:
    """Relevant lines grouped by the lexical evidence they offer, with the share of each the run finds in its top ``depth``.

    Shows where the lexical ceiling lies: a line sharing one query word competes with every line holding that
    word (counted by its rarest shared lemma, and split into ``bands`` of that count), and a line sharing no
    lemma with its query (nor its neighbours) can only be found by luck or by evidence other than vocabulary.
    Words, not lemmas, are counted: an ambiguous form shares several candidate lemmas but is one piece of evidence.
    """
    lines = ranker._lines
    classes = evidence_classes(bands)
    holding = np.asarray(lines.matrices["lemmaset"].sum(axis=0)).ravel()  # lines holding each candidate lemma
    vocab = lines.vocab["lemmaset"]
    found = {c: [] for c in classes}
    one_words = {c: Counter() for c in classes}  # the query's one shared word (folded form) of each one-word line
    for q in bench.queries:
        unit = Unit.of(q.text)
        top = {d for d, _ in ranked(run.get(q.id, {}), depth)}
        for doc_id in bench.qrels.get(q.id, {}):
            i = bench.doc_index[doc_id]
            words = shared_query_words(lines, unit, i)
            if len(words) >= 2:
                cls = classes[0]
            elif words:
                rivals = min(holding[vocab[lemma]] for lemma in shared_lemmas(lines, unit, i))
                cls = classes[1 + int(np.searchsorted(bands, rivals, side="right"))]
                one_words[cls][unit.words[min(words)]] += 1
            elif shared_lemmas(lines, unit, int(lines.prev[i])) or shared_lemmas(lines, unit, int(lines.next[i])):
                cls = classes[N_LEXICAL]
            else:
                cls = classes[N_LEXICAL + 1]
            found[cls].append(doc_id in top)
    total = sum(len(v) for v in found.values())
    return [
        {
            "evidence": c,
            "lines": len(v),
            "share": len(v) / total if total else 0.0,
            f"found_at_{depth}": sum(v) / len(v) if v else 0.0,
            "commonest_words": one_words[c].most_common(COMMONEST),
        }
        for c, v in found.items()
    ]


def lexical_ceiling(rows: list[dict], depth: int = 100) -> tuple[float, float]:
    """The share of relevant lines in the top ``depth`` now, and what it would be if every line sharing a query
    word were there while the others stayed as they are (a line share, not the per-query mean of Recall@k)."""
    key = f"found_at_{depth}"
    now = sum(r["share"] * r[key] for r in rows)
    return now, sum(r["share"] * (1.0 if i < N_LEXICAL else r[key]) for i, r in enumerate(rows))


@dataclass(frozen=True)
class RankerReport:
    """What ``ranker-report`` prints, draws and writes (the README's ranker section), all out of fold on the same
    grouped folds. Rows stay plain JSON objects, as written: ``ablation`` (one per variant, each but the first with
    its paired test ``vs_full``), ``learning_curve``, ``gold_by_evidence`` and ``paired_tests``."""

    folds: list[str]  # Fold.describe() of each fold
    candidate_recall: float  # stage 1's ceiling over relevant lines
    candidate_recall_per_query: float  # the same as a mean over queries: the ceiling of Recall@100 and @1000
    gold_by_evidence: list[dict]
    metrics: dict[str, float]
    ci95: dict[str, tuple[float, float]]  # percentile bootstrap over queries
    ci95_span_groups: dict[str, tuple[float, float]]  # over whole span groups
    n_queries: int
    n_span_groups: int
    ablation: list[dict]
    learning_curve: list[dict]
    baselines: dict[str, dict[str, float]]
    best_baseline: str
    paired_tests: list[dict]  # the full model against the best baseline, per metric
    skipped: list[dict] = field(default_factory=list)  # variants and baselines that could not run here, and why
    run: Run = field(default_factory=dict)  # the full model's out-of-fold run (written as a TREC file, not as JSON)

    def to_json(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "run"}


def ranker_report(
    bench: Benchmark, n_folds: int = 5, baselines: tuple[str, ...] | None = None, on_step: Callable[[str], None] | None = None,
    learning_fractions: tuple[float, ...] = LEARNING_FRACTIONS,
) -> "RankerReport":
    """``baselines``: default every registered baseline; one that cannot run here (no word vectors, no dense
    extra) is skipped and listed with the reason, as is a variant that needs what is missing.
    ``learning_fractions``: the shares of the training queries the learning curve fits on (none: no curve)."""
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
            skipped.append({"name": variant.label, "reason": str(exc)})
            step(variant.label)
            continue
        run = out_of_fold(variant.configure(rankers[variant.index_options]), bench, folds)
        evaluations[variant.label] = ev = evaluate_run(run, bench.qrels)
        if variant.label == full:
            main = run
        rows.append({"variant": variant.label, **{m: ev.means[m] for m in REPORTED}})
        step(variant.label)
    main_eval = evaluations[full]
    full_ranker = specs[0].configure(rankers[specs[0].index_options])
    curve = learning_curve(full_ranker, bench, folds, main_eval.means, learning_fractions) if learning_fractions else []
    step("learning curve")
    clusters = span_group_ids(bench.queries, list(main_eval.query_ids))
    for row in rows[1:]:  # each variant against the full model, query by query (and span group by span group)
        [test] = compare_evaluations(evaluations[row["variant"]], main_eval, clusters, (PAIRED,))
        row["vs_full"] = {"diff": test.diff, "ci95": test.ci95.as_list(), "p_randomization": test.p_randomization, **span_group_json(test)}
    for row, p in zip(rows[1:], holm([row["vs_full"]["p_randomization"] for row in rows[1:]])):
        row["vs_full"]["p_holm"] = p  # corrected for every row tested, the oracle's included
    ci = {m: bootstrap_ci(main_eval.per_query[m])[0] for m in REPORTED}
    ci_groups = {m: cluster_bootstrap_ci(main_eval.per_query[m], clusters)[0] for m in REPORTED}
    baseline_scores = {}
    for name in baselines or registered_baselines():
        try:
            learned = REGISTRY[resolve_name(name)].learned
            run = run_retriever(name, bench, 1000, cv=n_folds if learned else None).run  # out of fold on the same grouped folds
        except (ImportError, LatinIntertextError) as exc:
            skipped.append({"name": name, "reason": str(exc)})
        else:
            baseline_scores[name] = evaluate_run(run, bench.qrels)
        step(name)
    if not baseline_scores:
        raise LatinIntertextError("No baseline could run, so there is nothing to test the ranker against: " + "; ".join(s["reason"] for s in skipped))
    best = max(baseline_scores, key=lambda n: baseline_scores[n].means["ndcg_at_10"])
    tests = compare_evaluations(main_eval, baseline_scores[best], clusters, REPORTED)
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
        paired_tests=[test_json(t) for t in tests],
        skipped=skipped,
        run=main,
    )


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
    lines += ["| relevant lines by lexical evidence | lines | share | in the top 100 | commonest shared words |", "|---|---|---|---|---|"]
    lines += [
        f"| {g['evidence']} | {g['lines']} | {g['share']:.1%} | {g['found_at_100']:.1%} | {_words(g.get('commonest_words', []))} |" if g["lines"] else f"| {g['evidence']} | 0 | | | |"
        for g in report.gold_by_evidence
    ]
    now, ceiling = lexical_ceiling(report.gold_by_evidence)
    lines += ["", f"Relevant lines in the top 100: {now:.1%}; with every line that shares a query word there (the rest as now): {ceiling:.1%}.", ""]
    lines += ["| variant | nDCG@10 | difference [95% CI], paired p | Holm p | span-group p | Recall@100 | MAP | Recall@1000 |", "|---|---|---|---|---|---|---|---|"]
    for row in report.ablation:
        test = row.get("vs_full")
        delta = f"{test['diff']:+.4f} [{test['ci95'][0]:+.4f}, {test['ci95'][1]:+.4f}], p {_p_clause(test['p_randomization'])}" if test else ""
        adjusted = format_p(test["p_holm"], raw=test["p_randomization"]) if test else ""
        grouped = format_p(test["p_randomization_span_groups"]) if test else ""
        lines.append(f"| {row['variant']} | {row['ndcg_at_10']:.4f} | {delta} | {adjusted} | {grouped} | {row['recall_at_100']:.4f} | {row['map']:.4f} | {row['recall_at_1000']:.4f} |")
    if tested := sum("vs_full" in row for row in report.ablation):
        lines += ["", f"Holm p: the paired p corrected for the {tested} rows tested against the first (Holm-Bonferroni), "
                  f"so the rows whose Holm p is below 0.05 differ from it at 5% with all {tested} tests taken together. "
                  "Span-group p: the randomization test with one sign per span group, uncorrected."]
    if report.learning_curve:
        targets = ", ".join(f"{row['fraction']:.0%}" for row in report.learning_curve[:-1])
        lines += ["", "Learning curve: each fold's model fitted on a share of the training folds' queries (whole span groups, "
                  f"{len(LEARNING_SEEDS)} random draws per share, mean [lowest, highest]), the test folds unchanged; "
                  f"share: the training queries drawn over the full folds' (whole span groups can overshoot the targets of {targets}):", ""]
        lines += ["| training queries per fold | share | nDCG@10 | Recall@100 |", "|---|---|---|---|"]
        for row in report.learning_curve:
            spread = {m: f" [{row['range'][m][0]:.4f}, {row['range'][m][1]:.4f}]" if "range" in row else "" for m in dict(PLOTTED)}
            lines.append(f"| {row['training_queries']:.0f} | {row['share']:.0%} | {row['ndcg_at_10']:.4f}{spread['ndcg_at_10']} | {row['recall_at_100']:.4f}{spread['recall_at_100']} |")
    lines += ["", f"Paired tests against the best baseline by nDCG@10, `{report.best_baseline}`, of {', '.join(f'`{n}`' for n in report.baselines)} (10,000 resamples):", ""]
    lines += ["| metric | evidence-ranker | baseline | difference [95% CI] | randomization p | bootstrap p | 95% CI, span groups | span-group p |", "|---|---|---|---|---|---|---|---|"]
    for t in report.paired_tests:
        grouped = t["ci95_span_groups"]
        lines.append(f"| {t['metric']} | {t['mean_a']:.4f} | {t['mean_b']:.4f} | {t['diff']:+.4f} [{t['ci95'][0]:+.4f}, {t['ci95'][1]:+.4f}] | {format_p(t['p_randomization'])} | {format_p(t['p_bootstrap'])} "
                     f"| [{grouped[0]:+.4f}, {grouped[1]:+.4f}] | {format_p(t['p_randomization_span_groups'])} |")
    if report.skipped:
        lines += ["", "Skipped here: " + "; ".join(f"`{s['name']}` ({s['reason']})" for s in report.skipped) + "."]
    return "\n".join(lines) + "\n"


TARGETS = {"ndcg_at_10": 0.45, "recall_at_100": 0.85}  # the project's goals for the ranker (issue 4)
PLOTTED = (("ndcg_at_10", "nDCG@10"), ("recall_at_100", "Recall@100"))


def plot(report: RankerReport, path: Path | str) -> Path:
    """The report at a glance: each variant's nDCG@10 and Recall@100 against the best baseline and the targets,
    how many relevant lines of each kind of lexical evidence the top 100 holds, and the learning curve."""
    plt = charts.pyplot()
    rows = report.ablation[::-1]
    baseline = report.baselines[report.best_baseline]
    curve = report.learning_curve or []
    widths = [2.2, 2.2, 2] + ([1.6] if curve else [])
    fig, axes = plt.subplots(1, len(widths), figsize=(4.4 * len(widths), 0.3 * len(rows) + 1.8), gridspec_kw={"width_ratios": widths}, layout="constrained")
    colours = ["#c44e52" if r["variant"] == ORACLE_LABEL else "#1f3d7a" if r is report.ablation[0] else "#4c72b0" for r in rows]
    for ax, (metric, label) in zip(axes, PLOTTED):
        values = [r[metric] for r in rows]
        ax.hlines(range(len(rows)), 0, values, color="#dddddd", lw=1)
        ax.scatter(values, range(len(rows)), color=colours, zorder=3)
        ax.axvline(baseline[metric], color="#55a868", ls="--", label=f"best baseline ({report.best_baseline})")
        ax.axvline(TARGETS[metric], color="black", ls=":", label="target")
        ax.set_xlabel(f"{label}, out of fold")
        ax.set_xlim(min(values + [baseline[metric]]) - 0.05, max(values + [TARGETS[metric]]) + 0.03)
        ax.set_yticks(range(len(rows)), [r["variant"] for r in rows] if ax is axes[0] else [""] * len(rows), fontsize=7)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=2, fontsize=8)
    evidence = report.gold_by_evidence
    found = [g["lines"] * g["found_at_100"] for g in evidence]
    axes[2].barh(range(len(evidence)), found, color="#4c72b0", label="in the top 100")
    axes[2].barh(range(len(evidence)), [g["lines"] - f for g, f in zip(evidence, found)], left=found, color="#dddddd", label="not in the top 100")
    for y, g in enumerate(evidence):
        axes[2].text(g["lines"] + 5, y, f"{g['found_at_100']:.0%} of {g['lines']}", va="center", fontsize=7)
    axes[2].set_yticks(range(len(evidence)), [textwrap.fill(g["evidence"], 28) for g in evidence], fontsize=7)
    axes[2].set_xlim(0, max(g["lines"] for g in evidence) * 1.3)
    axes[2].invert_yaxis()
    axes[2].set_xlabel("relevant lines")
    axes[2].legend(fontsize=7, loc="lower right")
    if curve:
        _plot_learning_curve(axes[3], curve)
    return charts.save(fig, path, dpi=110)


def _plot_learning_curve(ax, curve: list[dict]) -> None:
    """Each metric against the training queries per fold (log scale), draws' range as error bars, targets dotted."""
    sizes = [row["training_queries"] for row in curve]
    for (metric, label), colour in zip(PLOTTED, ("#1f3d7a", "#c44e52")):
        means = [row[metric] for row in curve]
        low = [m - row["range"][metric][0] if "range" in row else 0 for m, row in zip(means, curve)]
        high = [row["range"][metric][1] - m if "range" in row else 0 for m, row in zip(means, curve)]
        ax.errorbar(sizes, means, yerr=[low, high], color=colour, marker="o", capsize=3, label=label)
        ax.axhline(TARGETS[metric], color=colour, ls=":", lw=1)
        ax.text(sizes[0], TARGETS[metric], f"target {label}", color=colour, fontsize=7, va="bottom")
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes, [f"{s:.0f}" for s in sizes], fontsize=7)
    ax.minorticks_off()
    ax.set_xlabel("training queries per fold")
    ax.set_title("learning curve, out of fold", fontsize=9)
    ax.legend(fontsize=7, loc="center right")
