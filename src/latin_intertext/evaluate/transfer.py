"""The gold read backwards: does the evidence ranker carry over to a corpus and to query authors it never trained on?

Each epic line that the gold cites becomes a query, and the whole of Valerius Flaccus' *Argonautica* (all eight
books, read from the sources as `search --tess` reads any file; the benchmark searches none of it) is searched for
the lines of the passages that cite it. Learned retrievers are fitted as everywhere else, on the training folds'
Valerius Flaccus queries against the four epics, and search only the reversed queries of their test fold: no
pair a model is scored on was seen in training, in either direction. An epic line cited from passages of two folds
would be, so it is left out and listed. The searched corpus is other than the one trained on (one author's 5,592
lines instead of four authors' 39,675, every rarity counted afresh in it), and the queries are by other poets.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Callable, Sequence

from latin_intertext.benchmark import Benchmark, CorpusLine, Qrels, Query, Run
from latin_intertext.evaluate.ablation import REPORTED
from latin_intertext.evaluate.comparison import compare_evaluations, paired_tests_markdown, skipped_markdown, test_json
from latin_intertext.evaluate.cv import Fold, grouped_folds, span_group_ids, training_ids
from latin_intertext.evaluate.execute import Skipped, evaluate_baselines
from latin_intertext.evaluate.metrics import evaluate_run
from latin_intertext.evaluate.stats import PairedTest, bootstrap_ci
from latin_intertext.errors import LatinIntertextError
from latin_intertext.retrieve import load_all
from latin_intertext.retrieve.base import REGISTRY, check_needs, make_retriever, resolve_name
from latin_intertext.retrieve.ranker import EvidenceRanker

RANKER = "evidence-ranker"


@dataclass(frozen=True)
class ReversedTask:
    """The benchmark's gold pairs with query and corpus swapped, each reversed query kept in its passages' fold."""

    corpus: list[CorpusLine]  # every line of the query text's files
    queries: dict[str, str]  # cited epic line id -> its text
    qrels: Qrels  # cited epic line id -> the lines of every passage that cites it
    fold_of: dict[str, int]
    cluster_of: dict[str, int]  # the span groups of the passages that cite it, merged where a line links two: the clusters of the paired tests
    left_out: list[str]  # epic lines cited from passages of two folds: in training and test both, so not scored

    def fold_queries(self, fold: int) -> dict[str, str]:
        return {q: text for q, text in self.queries.items() if self.fold_of[q] == fold}


def reversed_task(bench: Benchmark, folds: Sequence[Fold], corpus: Sequence[CorpusLine], book: int = 1) -> ReversedTask:
    """``corpus``: the lines of the text the queries come from, cited ``BOOK.LINE``; a passage's lines are those of
    ``book`` from its ``line_start`` to its ``line_end``."""
    by_locus = {d.tess_index.strip("<>").rsplit(" ", 1)[-1]: d.id for d in corpus}  # the citation's locus: 2.565a stays apart from 2.565
    passages = {q.id: q for q in bench.queries}
    fold_of_passage = {q: fold.index for fold in folds for q in fold.test_ids}
    qrels: dict[str, dict[str, int]] = {}
    folds_of: dict[str, set[int]] = {}
    citing: dict[str, set[str]] = {}
    for passage_id, docs in sorted(bench.qrels.items()):
        passage = passages[passage_id]
        lines = [f"{book}.{n}" for n in range(passage.line_start, passage.line_end + 1)]
        if missing := [locus for locus in lines if locus not in by_locus]:
            raise LatinIntertextError(f"{passage_id}: lines {', '.join(missing)} are not in the searched text; give the files its passages come from.")
        for doc, grade in docs.items():
            if grade > 0:
                qrels.setdefault(doc, {}).update({by_locus[locus]: 1 for locus in lines})
                folds_of.setdefault(doc, set()).add(fold_of_passage[passage_id])
                citing.setdefault(doc, set()).add(passage_id)
    left_out = sorted(doc for doc, seen in folds_of.items() if len(seen) > 1)
    kept = sorted(set(qrels) - set(left_out))
    texts = {d.id: d.text for d in bench.corpus}
    clusters = linked_span_groups(bench.queries, {doc: citing[doc] for doc in kept})
    return ReversedTask(
        list(corpus), {doc: texts[doc] for doc in kept}, {doc: qrels[doc] for doc in kept},
        {doc: min(folds_of[doc]) for doc in kept}, clusters, left_out,
    )


def linked_span_groups(passages: Sequence[Query], citing: dict[str, set[str]]) -> dict[str, int]:
    """Each reversed query's cluster for the span-group statistics: the span groups of the passages citing it, merged
    wherever one line is cited from passages of two groups (Aen. 6.196 from two scenes of VF 1), since its results
    and both groups' are then correlated; numbered 0, 1, ... in order of first appearance."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    ids = [q.id for q in passages]
    group_of = dict(zip(ids, span_group_ids(list(passages), ids)))
    groups = [sorted({group_of[p] for p in citing[doc]}) for doc in citing]
    n = max(group_of.values(), default=-1) + 1
    links = [(g[0], other) for g in groups for other in g[1:]]
    rows, cols = zip(*links) if links else ((), ())
    _, component = connected_components(coo_matrix(([1] * len(links), (rows, cols)), shape=(n, n)), directed=False)
    renumber: dict[int, int] = {}
    return {doc: renumber.setdefault(int(component[g[0]]), len(renumber)) for doc, g in zip(citing, groups)}


def reversed_run(name: str, bench: Benchmark, task: ReversedTask, folds: Sequence[Fold], k: int = 1000) -> Run:
    """``name``'s run of the reversed queries over ``task.corpus``. A learned retriever (only the evidence ranker
    can be moved between corpora) is fitted fold by fold on the benchmark's training queries over its own corpus."""
    spec = REGISTRY[resolve_name(name)]
    if spec.learned and not issubclass(spec.factory, EvidenceRanker):
        raise LatinIntertextError(f"{name} chooses its settings on the training folds of the benchmark's own corpus; only the evidence ranker is moved to another corpus.")
    check_needs(name)
    searcher = make_retriever(name).index(task.corpus)
    if not spec.learned:
        return searcher.search(task.queries, k)
    trainer = make_retriever(name).index(bench.corpus)
    run: Run = {}
    for fold in folds:
        searcher.use_model_of(trainer.fit(bench.subset(training_ids(bench, fold))))
        run.update(searcher.search(task.fold_queries(fold.index), k))
    return run


def transfer_baselines() -> list[str]:
    """Every registered baseline (a learned one is listed as not run: its settings belong to the benchmark's corpus)."""
    return [spec.name for spec in load_all().values() if spec.baseline]


@dataclass(frozen=True)
class TransferReport:
    """What ``transfer-report`` prints and writes (the README's "gold read backwards" table)."""

    folds: list[str]
    corpus_lines: int
    n_queries: int
    n_relevant: int
    left_out: list[str]
    scores: dict[str, dict[str, float]]  # retriever -> metric -> mean
    ci95: dict[str, dict[str, tuple[float, float]]]  # retriever -> metric -> percentile bootstrap over queries
    best_baseline: str
    paired_tests: list[PairedTest]  # the ranker against the best baseline, per metric, by queries and by span groups
    skipped: list[Skipped] = field(default_factory=list)  # baselines that cannot run here, and why
    run: Run = field(default_factory=dict)  # the ranker's run

    def to_json(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "run"}
        return out | {"paired_tests": [test_json(t) for t in self.paired_tests], "skipped": [asdict(s) for s in self.skipped]}


def build_transfer_report(
    bench: Benchmark, corpus: Sequence[CorpusLine], n_folds: int = 5, baselines: Sequence[str] | None = None,
    on_step: Callable[[str], None] | None = None,
) -> TransferReport:
    step = on_step or (lambda _s: None)
    folds = grouped_folds(bench.queries, n_folds)
    task = reversed_task(bench, folds, corpus)
    run = reversed_run(RANKER, bench, task, folds)
    ranker = evaluate_run(run, task.qrels)
    step(RANKER)
    names = baselines if baselines is not None else transfer_baselines()
    evaluations, skipped, best = evaluate_baselines(names, lambda name: reversed_run(name, bench, task, folds), task.qrels, step)
    evaluations = {RANKER: ranker, **evaluations}
    clusters = [task.cluster_of[q] for q in ranker.query_ids]
    return TransferReport(
        folds=[f.describe() for f in folds],
        corpus_lines=len(task.corpus),
        n_queries=len(task.queries),
        n_relevant=sum(len(docs) for docs in task.qrels.values()),
        left_out=task.left_out,
        scores={n: {m: e.means[m] for m in REPORTED} for n, e in evaluations.items()},
        ci95={n: {m: bootstrap_ci(e.per_query[m])[0].as_list() for m in REPORTED} for n, e in evaluations.items()},
        best_baseline=best,
        paired_tests=compare_evaluations(ranker, evaluations[best], clusters, REPORTED),
        skipped=skipped,
        run=run,
    )


def to_markdown(report: TransferReport) -> str:
    lines = [
        f"The gold read backwards: {report.n_queries} cited epic lines as queries, searching all {report.corpus_lines:,} lines of "
        f"Valerius Flaccus' *Argonautica* for the {report.n_relevant:,} lines of the passages that cite them; the ranker "
        f"fitted on each fold's training queries (Valerius Flaccus against the four epics) searches that fold's reversed "
        f"queries only ({'; '.join(report.folds)}). {len(report.left_out)} cited lines, cited from passages of two folds, are left out.",
        "",
        "| retriever | nDCG@10 [95% CI] | Recall@100 | MAP | Recall@1000 |",
        "|---|---|---|---|---|",
    ]
    for name, means in sorted(report.scores.items(), key=lambda item: -item[1]["ndcg_at_10"]):
        low, high = report.ci95[name]["ndcg_at_10"]
        shown = f"**{name}**" if name == RANKER else name
        lines.append(f"| {shown} | {means['ndcg_at_10']:.4f} [{low:.4f}, {high:.4f}] | {means['recall_at_100']:.4f} | {means['map']:.4f} | {means['recall_at_1000']:.4f} |")
    lines += ["", f"Paired tests of `{RANKER}` against the best baseline here by nDCG@10, `{report.best_baseline}` (10,000 resamples; span groups: "
              "the reversed queries of chained passages together, and of two groups wherever one line is cited from both):", ""]
    lines += paired_tests_markdown(report.paired_tests, RANKER)
    lines += skipped_markdown(report.skipped)
    return "\n".join(lines) + "\n"


def query_text_files(sources: Path) -> list[Path]:
    """Every book of the benchmark's query text in a sources mirror."""
    from latin_intertext import QUERY_FILE_STEM
    from latin_intertext.build.dataset import book_files

    return book_files(sources, QUERY_FILE_STEM)
