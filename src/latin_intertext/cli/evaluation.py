"""``evaluate``, ``compare`` and ``leaderboard``: score runs and retrievers on a built dataset."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from latin_intertext import DATASET_NAME
from latin_intertext.benchmark import Benchmark, Run
from latin_intertext.cli import app, console, load_scored_benchmark, make_console, warn, write_and_say
from latin_intertext.cli.options import RETRIEVERS_HELP, DatasetOpt, ResamplesOpt, dataset_folder, plot_option, save_json_option
from latin_intertext.errors import LatinIntertextError
from latin_intertext.evaluate.cv import span_group_ids
from latin_intertext.evaluate.execute import RetrievalResult, run_retriever
from latin_intertext.evaluate.metrics import HEADLINE, METRICS, MTEB_DEPTH, Evaluation
from latin_intertext.evaluate.report import RunReport, build_report, plot_breakdown, run_notes
from latin_intertext.evaluate.runs import ORDER_HINT, OrderWarning, RunFile, read_run_file, unlisted_queries, write_trec_run
from latin_intertext.evaluate.stats import FEW_FOR_BOOTSTRAP, RESAMPLES, SEED, format_p
from latin_intertext.outputs import beside, check_command_outputs, write_json
from latin_intertext.sources.manifest import sha256_of

out = make_console(highlight=False)  # results on stdout; progress and errors on stderr
DEFAULT_K = 1000


def _read_run(path: Path, bench: Benchmark) -> RunFile:
    """Read a run file against the benchmark's ids, warning of every query whose scores contradict its ranks."""
    read = read_run_file(path, {q.id for q in bench.queries}, bench.doc_index)
    warn_order(read)
    return read


SHOWN_IDS = 10  # query ids a warning names; the --save-json report of evaluate or compare lists every one


def some_ids(ids: list[str]) -> str:
    """The first query ids and how many more: one readable line in a terminal, even when every query is named."""
    shown = ", ".join(ids[:SHOWN_IDS])
    return shown if len(ids) <= SHOWN_IDS else f"{shown} and {len(ids) - SHOWN_IDS} more (evaluate --save-json lists every one)"


def warn_order(read: RunFile) -> None:
    """Warn of the queries whose scores do not follow their ranks: they are ranked by score, which the user may not mean."""
    if warnings := read.order_warnings:
        ids = some_ids([w.query for w in warnings])
        warn(f"in {read.path}, the scores of {len(warnings)} queries do not follow their ranks ({ids}); e.g. {warnings[0].describe(read.path)}. {ORDER_HINT} The --save-json report of evaluate or compare gives each query's reason.")


def warn_missing(evaluation: Evaluation, source: str) -> None:
    """Warn that the run from ``source`` lacks some queries, naming them: they score 0, which must not pass unnoticed;
    and that it is too shallow for some metrics, naming them: they are the figures at its depth, not what they say."""
    if missing := evaluation.missing:
        warn(f"no results for {len(missing)} queries of {len(evaluation.query_ids)} in {source}; they score 0: {some_ids(list(missing))}.")
    if shallow := evaluation.deeper_than_run:
        warn(
            f"{source} lists at most {evaluation.depth:,} documents a query, so {', '.join(METRICS[m].label for m in shallow)} count no deeper than that "
            f"(each equals its figure at {evaluation.depth:,}); MTEB scores runs of {MTEB_DEPTH:,}."
        )


def note_unlisted(run: Run, bench: Benchmark) -> None:
    """Say which queries a saved run leaves out: other tools read a run file's queries as the ones asked."""
    if unlisted := unlisted_queries(run, (q.id for q in bench.queries)):
        console.print(
            f"note: {len(unlisted)} queries have no results ({escape(some_ids(list(unlisted)))}); a TREC run file cannot list them, so a tool that "
            "averages over the run's queries (MTEB) would leave them out; `latin-intertext evaluate --run` scores them 0.",
            highlight=False,
        )


@contextmanager
def _progress(description: str, total: int) -> Iterator:
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)


def _retrieve(name: str, bench: Benchmark, k: int, cv: Optional[int]) -> RetrievalResult:
    """Run one registered retriever with a progress bar, printing each CV fold as it finishes (under the retriever's
    own name, as the table and the report give it, not an alias such as ``best``)."""
    from latin_intertext.retrieve.base import resolve_name

    name = resolve_name(name)
    with _progress(f"{name}: searching", len(bench.queries)) as advance:
        result = run_retriever(name, bench, k, cv, progress=advance, on_fold=lambda f: console.print(f"  {name} {f.describe()}", highlight=False))
    return result


def _fmt(value: float) -> str:
    return f"{value:.4f}"


BREAKDOWN_COLUMNS = ("map", "recall_at_10", "recall_at_100")
AUTHOR_CAPTION = "a query counts under every author of its relevant lines, with its other authors' relevant lines taken out of its run"


CI_CAPTION = (
    "95% CI: percentile bootstrap over queries; span groups: over whole groups of queries whose VF spans are chained, each "
    "within 3 lines of the next (as the CV folds keep them), since such queries are not independent; over so few groups, of very "
    "unequal size, it runs somewhat narrow, so `compare` also gives an exact sign-flip p over the same groups"
)


SPAN_GROUPS_CAPTION = (
    "span groups: queries whose VF spans are chained, each within 3 lines of the next (neighbouring or overlapping text, so "
    "their results may be correlated), resampled together (CI) or swapped between A and B together (p: an exact sign-flip test)"
)


def print_report(report: RunReport) -> None:
    table = Table(title=f"{report.retriever} on {len(report.evaluation.query_ids)} queries")
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("95% CI, span groups", justify="right")
    for name, metric in METRICS.items():
        cells = [f"[{_fmt(ci.low)}, {_fmt(ci.high)}]" if (ci := intervals.get(name)) else "" for intervals in (report.ci95, report.ci95_span_groups)]
        table.add_row(metric.label or name, _fmt(report.metrics[name]), *cells)
    table.caption = CI_CAPTION
    out.print(table)
    breakdowns = (("target author", "per_author", AUTHOR_CAPTION), ("VF span length (lines)", "per_span_length", None))
    for title, kind, caption in breakdowns:
        sub = Table(title=f"by {title}", caption=caption)
        sub.add_column(title)
        sub.add_column("queries", justify="right")
        sub.add_column(METRICS["ndcg_at_10"].label, justify="right")
        sub.add_column("95% CI", justify="right")
        for key in BREAKDOWN_COLUMNS:
            sub.add_column(METRICS[key].label, justify="right")
        intervals = report.breakdown_ci95.get(kind, {})
        if any(group not in intervals for group in report.breakdowns()[kind]):
            sub.caption = "; ".join(filter(None, [caption, f"no 95% CI for a row of fewer than {FEW_FOR_BOOTSTRAP} queries: a bootstrap over so few is too unstable to read"]))
        for group, ev in report.breakdowns()[kind].items():
            ci = f"[{_fmt(intervals[group].low)}, {_fmt(intervals[group].high)}]" if group in intervals else ""
            sub.add_row(group, str(len(ev.query_ids)), _fmt(ev.means["ndcg_at_10"]), ci, *(_fmt(ev.means[key]) for key in BREAKDOWN_COLUMNS))
        out.print(sub)


@app.command()
def evaluate(
    dataset: DatasetOpt = None,
    run: Optional[Path] = typer.Option(None, "--run", help="A TREC run file (qid Q0 docid rank score tag) to score."),
    retriever: Optional[str] = typer.Option(None, "--retriever", help=f"A registered retriever to run: {RETRIEVERS_HELP}."),
    k: Optional[int] = typer.Option(None, "--k", "-k", min=1, help=f"Documents retrieved per query (default {DEFAULT_K}; --retriever only: a run file is scored as it is)."),
    cv: Optional[int] = typer.Option(None, "--cv", min=2, help="Cross-validate over N grouped folds (required for learned retrievers)."),
    save_run: Optional[Path] = typer.Option(None, "--save-run", help="Write the retriever's run here (TREC format)."),
    json_path: Optional[Path] = save_json_option("metrics, CIs and breakdowns"),
    plot: Optional[Path] = plot_option("the breakdowns, nDCG@10 and Recall@100 per target author and per span length,"),
    resamples: ResamplesOpt = RESAMPLES,
) -> None:
    """Score one run file or one retriever: metrics with 95% bootstrap CIs, per author and per span length."""
    if (run is None) == (retriever is None):
        raise LatinIntertextError("Give exactly one of --run FILE or --retriever NAME.")
    if run is not None and cv:
        raise LatinIntertextError("--cv applies to --retriever only; a run file is scored as it is.")
    if run is not None and save_run:
        raise LatinIntertextError(f"--save-run applies to --retriever only; the run is already saved, as {run}.")
    if run is not None and k is not None:
        raise LatinIntertextError(f"--k applies to --retriever only; a run file is scored with every document it lists (cut {run} to fewer per query to score fewer).")
    dataset = dataset_folder(dataset)
    check_command_outputs(save_run, json_path, plot, inputs=[run, dataset])
    bench = load_scored_benchmark(dataset)
    config: dict = provenance(bench)
    order_warnings: tuple[OrderWarning, ...] = ()
    if run is not None:
        read = _read_run(run, bench)  # checked before it is hashed
        name, scored, source, order_warnings = run.name, read.run, str(run), read.order_warnings
        config.update(run_file=str(run), run_file_sha256=sha256_of(run))
    else:
        k = DEFAULT_K if k is None else k
        result = _retrieve(retriever, bench, k, cv)
        name, scored, source = result.name, result.run, f"the run of {result.name}"
        config.update({"k": k, "cv_folds": cv, "seconds": round(result.seconds, 3), "folds": [f.describe() for f in result.folds]})
    report = build_report(scored, bench, name, config, resamples, ci_metrics=tuple(METRICS), order_warnings=order_warnings)  # both intervals for every metric
    warn_missing(report.evaluation, source)
    print_report(report)
    write_and_say(
        (save_run, lambda tmp: write_trec_run(scored, tmp, name)), (json_path, lambda tmp: write_json(report.to_json(), tmp)), (plot, lambda tmp: plot_breakdown(report, tmp))
    )
    if save_run:
        note_unlisted(scored, bench)


@app.command()
def compare(
    run_a: Path = typer.Argument(..., help="TREC run file A."),
    run_b: Path = typer.Argument(..., help="TREC run file B."),
    dataset: DatasetOpt = None,
    resamples: ResamplesOpt = RESAMPLES,
    json_path: Optional[Path] = save_json_option("the comparison"),
    plot: Optional[Path] = plot_option("each query's difference in nDCG@10, sorted, with the mean and its 95% CI,"),
) -> None:
    """Paired comparison of two runs over the same queries: difference, 95% CI and p-values per metric."""
    from latin_intertext.evaluate.comparison import compare_evaluations, plot_differences, span_group_json
    from latin_intertext.evaluate.metrics import evaluate_run

    dataset = dataset_folder(dataset)
    check_command_outputs(json_path, plot, inputs=[run_a, run_b, dataset])
    bench = load_scored_benchmark(dataset)
    read_a, read_b = (_read_run(p, bench) for p in (run_a, run_b))
    a, b = (evaluate_run(read.run, bench.qrels) for read in (read_a, read_b))
    for path, evaluation in ((run_a, a), (run_b, b)):
        warn_missing(evaluation, str(path))
    clusters = span_group_ids(bench.queries, list(a.query_ids))
    tests = compare_evaluations(a, b, clusters, HEADLINE, resamples, SEED)
    differing = {t.metric: differing_queries(a, b, t.metric) for t in tests}
    table = Table(title=f"A = {run_a.name}, B = {run_b.name} ({len(a.query_ids)} queries, paired)")
    for col in ("metric", "A", "B", "A - B", "95% CI", "p (randomization)", "p (bootstrap)", "queries differing"):
        table.add_column(col, justify="left" if col == "metric" else "right")
    for t in tests:
        table.add_row(
            METRICS[t.metric].label, _fmt(t.mean_a), _fmt(t.mean_b), f"{t.diff:+.4f}", f"{t.ci95:+.4f}",
            format_p(t.p_randomization, resamples), format_p(t.p_bootstrap, resamples), str(differing[t.metric]),
        )
    out.print(table)
    if not any(differing.values()):
        warn(f"{run_a.name} and {run_b.name} score the same on every query by every metric: nothing to compare (were they meant to be two different runs?).")
    if few := [METRICS[m].label for m, n in differing.items() if 0 < n < FEW_FOR_BOOTSTRAP]:
        warn(
            f"on {', '.join(few)}, fewer than {FEW_FOR_BOOTSTRAP} queries differ: a percentile bootstrap interval of so few is too narrow "
            "(it can leave out 0 where the difference is no more than chance); read the randomization p."
        )
    grouped = Table(title=f"the same, by {len(set(clusters))} span groups", caption=SPAN_GROUPS_CAPTION)
    for col in ("metric", "A - B", "95% CI", "p (randomization)"):
        grouped.add_column(col, justify="left" if col == "metric" else "right")
    for t in tests:
        grouped.add_row(METRICS[t.metric].label, f"{t.diff:+.4f}", f"{t.ci95_clusters:+.4f}", format_p(t.p_randomization_clusters, resamples))
    out.print(grouped)
    data = {**provenance(bench), "a": str(run_a), "a_sha256": sha256_of(run_a), "b": str(run_b), "b_sha256": sha256_of(run_b), "n_queries": len(a.query_ids), "n_span_groups": len(set(clusters)), "resamples": resamples, "seed": SEED,
            "run_notes": {"a": run_notes(a, read_a.order_warnings), "b": run_notes(b, read_b.order_warnings)},
            "tests": {t.metric: {"a": t.mean_a, "b": t.mean_b, "diff": t.diff, "ci95": t.ci95.as_list(), "p_randomization": t.p_randomization, "p_bootstrap": t.p_bootstrap,
                                 "n_queries_differing": differing[t.metric], **span_group_json(t)} for t in tests},
            "span_group": dict(zip(a.query_ids, map(int, clusters))),
            "per_query": {"a": a.query_rows(), "b": b.query_rows()}}  # each query's every metric, as evaluate's report gives them
    ndcg = next(t for t in tests if t.metric == "ndcg_at_10")
    write_and_say((json_path, lambda tmp: write_json(data, tmp)), (plot, lambda tmp: plot_differences(a, b, ndcg, tmp, (run_a.name, run_b.name))))


def provenance(bench: Benchmark) -> dict:
    """What a --save-json report's figures came from, so that a reader can tell whether they can rerun them: this package's
    version, the dataset's folder, version and checksum list (its SHA256SUMS file, which names every file's sha256);
    the reports add each run file's sha256."""
    from latin_intertext import __version__

    sums = Path(bench.path or "") / "SHA256SUMS"
    return {"latin_intertext": __version__, "dataset": str(bench.path), "dataset_version": bench.version_label,
            "dataset_sha256sums": sha256_of(sums) if bench.path and sums.is_file() else None}


def differing_queries(a: Evaluation, b: Evaluation, metric: str) -> int:
    return int((a.per_query[metric] != b.per_query[metric]).sum())


@app.command()
def leaderboard(
    dataset: DatasetOpt = None,
    run: list[Path] = typer.Option([], "--run", help="Run files to add to the table (repeatable)."),
    retriever: list[str] = typer.Option([], "--retriever", help=f"Only these retrievers (repeatable; default: every registered one): {RETRIEVERS_HELP}."),
    out_path: Optional[Path] = typer.Option(None, "--out", help="Write the markdown table here (and a bar chart beside it as .png)."),
    cv: int = typer.Option(5, "--cv", min=2, help="Folds for learned retrievers."),
    k: int = typer.Option(DEFAULT_K, "--k", "-k", min=1, help="Documents retrieved per query by each retriever (run files are scored as they are)."),
    resamples: ResamplesOpt = RESAMPLES,
) -> None:
    """Evaluate every registered retriever (learned ones out of fold) and any run files on one table."""
    from latin_intertext.evaluate.execute import Skipped
    from latin_intertext.evaluate.leaderboard import Entry, plot, run_labels, to_markdown
    from latin_intertext.retrieve import load_all, resolve_name
    from latin_intertext.retrieve.base import check_needs

    png = beside(out_path, ".png", "bar chart")
    dataset = dataset_folder(dataset)
    check_command_outputs(out_path, png, option="--out", inputs=[*run, dataset])
    if twice := [p for n, p in enumerate(run) if p.resolve() in {q.resolve() for q in run[:n]}]:
        raise LatinIntertextError(f"--run {twice[0]} is given twice; give each run file once.")
    registry = load_all()
    specs = [registry[resolve_name(name)] for name in retriever or list(registry)]
    skipped: list[Skipped] = []

    def cannot_run(spec, exc: Exception) -> None:
        needs = f" (needs {', '.join(spec.needs)})" if spec.needs else ""
        if retriever:  # asked for by name: a table without it would not be what was asked
            raise LatinIntertextError(f"--retriever {spec.name} cannot run here{needs}: {exc}") from exc
        skipped.append(Skipped(spec.name, f"{exc}{needs}"))
        console.print(f"[yellow]skipped[/] {spec.name}{needs}: {exc}", highlight=False)

    ready = []
    for spec in specs:  # refuse or skip what cannot run before any long work
        try:
            check_needs(spec.name)
            ready.append(spec)
        except (ImportError, LatinIntertextError) as exc:
            cannot_run(spec, exc)
    bench = load_scored_benchmark(dataset)
    runs = [(p, label, _read_run(p, bench)) for p, label in zip(run, run_labels(run))]  # fail on a bad run file before any long work
    entries: list[Entry] = []
    for spec in ready:
        try:
            result = _retrieve(spec.name, bench, k, cv if spec.learned else None)
        except (ImportError, LatinIntertextError) as exc:  # a failure no cheap check foresaw
            cannot_run(spec, exc)
            continue
        note = "; ".join(filter(None, [f"{cv}-fold CV" if spec.learned else "", spec.caveat]))
        entries.append(Entry(spec.name, build_report(result.run, bench, spec.name, {"k": k}, resamples), result.seconds, note))
        console.print(f"{spec.name}: nDCG@10 {entries[-1].report.metrics['ndcg_at_10']:.4f} in {result.seconds:.1f}s", highlight=False)
        warn_missing(entries[-1].report.evaluation, f"the run of {spec.name}")
    for path, label, read in runs:
        entries.append(Entry(label, build_report(read.run, bench, label, {"run_file": str(path)}, resamples, order_warnings=read.order_warnings), None, "run file"))
        warn_missing(entries[-1].report.evaluation, str(path))
    if not entries:
        raise LatinIntertextError("Nothing to put on the leaderboard: every retriever was skipped and no --run was given.")
    markdown = to_markdown(entries, skipped, f"{DATASET_NAME} leaderboard (dataset {bench.version_label})")
    out.print(markdown, markup=False)
    write_and_say((out_path, lambda tmp: tmp.write_text(markdown, encoding="utf-8")), (png, lambda tmp: plot(entries, tmp)))
