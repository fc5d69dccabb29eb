"""Subcommands of the learned ranker: train the model `search` uses, and the cross-validated report."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from latin_intertext.cli import app, load_scored_benchmark, make_console, write_and_say
from latin_intertext.cli.options import DatasetOpt, SourcesOpt, dataset_folder, flag, save_json_option
from latin_intertext.outputs import beside, check_command_outputs, check_outputs, write_json

err = make_console(stderr=True)


@app.command("train-ranker")
def train_ranker(
    dataset: DatasetOpt = None,
    out: Annotated[Optional[Path], typer.Option(help="Model file (default: models/evidence_ranker.txt in the cache folder, the only place `search` and `serve` look; $LATIN_INTERTEXT_HOME moves it; in Python, EvidenceRanker(model_path=PATH) reads another).")] = None,
) -> None:
    """Train the evidence ranker on ALL 482 queries: the model `search` uses. Never use it for benchmark figures."""
    from latin_intertext.paths import trained_model_path
    from latin_intertext.retrieve.ranker import EvidenceRanker

    dataset = dataset_folder(dataset)
    given = out or trained_model_path()
    target, _ = check_outputs(given, beside(given, ".json", "feature list"), option="--out", inputs=[dataset])  # ~ expanded; the model's own folder
    bench = load_scored_benchmark(dataset)
    with err.status("indexing the corpus and computing features"):
        ranker = EvidenceRanker().index(bench.corpus)
    with err.status(f"fitting on all {len(bench.queries)} queries"):
        ranker.fit(bench)
    ranker.save(target)
    err.print(f"[green]saved[/] {target} ({target.stat().st_size:,} bytes), trained on the whole benchmark")
    if unlearnable := ranker.unlearnable_queries_:
        err.print(f"note: {len(unlearnable)} of the {len(bench.queries)} queries have no relevant line among their candidates, so they teach "
                  f"the ranker nothing: {', '.join(unlearnable)}")


@app.command("ranker-report")
def ranker_report(
    dataset: DatasetOpt = None,
    cv: Annotated[int, typer.Option("--cv", min=2, help="Number of grouped folds.")] = 5,
    out: Annotated[Optional[Path], typer.Option(help="Write the markdown report here (and a chart of it beside it as .png).")] = None,
    json_out: Optional[Path] = save_json_option("the figures"),
    save_run: Annotated[Optional[Path], typer.Option("--save-run", help="Write the out-of-fold run (TREC format).")] = None,
    nested: Annotated[bool, flag("--nested/--no-nested", help="Also choose the LightGBM settings by nested cross-validation, fold by fold (about 20 minutes more).")] = True,
) -> None:
    """Cross-validated figures, author prior on/off, feature ablation, nested cross-validation of the settings, a learning curve and the paired test against the best baseline."""
    from latin_intertext.evaluate.nested import settings_grid
    from latin_intertext.evaluate.ranker_report import build_ranker_report as report, plot, registered_baselines, to_markdown, variants
    from latin_intertext.evaluate.runs import write_trec_run

    from rich.progress import Progress

    dataset = dataset_folder(dataset)
    png = beside(out, ".png", "chart")
    check_command_outputs(out, png, json_out, save_run, inputs=[dataset])
    bench = load_scored_benchmark(dataset)

    grid = settings_grid() if nested else ()
    steps = 2 + len(variants()) + len(registered_baselines()) + len(grid) * cv  # the index, each variant, the learning curve, each baseline, each fold's settings
    with Progress(console=err) as bar:
        task = bar.add_task("cross-validating the evidence ranker", total=steps)
        result = report(bench, cv, on_step=lambda label: bar.update(task, advance=1, description=label), nested_grid=grid)
    markdown = to_markdown(result)
    print(markdown)
    write_and_say(
        (out, lambda tmp: tmp.write_text(markdown, encoding="utf-8")),
        (png, lambda tmp: plot(result, tmp)),
        (save_run, lambda tmp: write_trec_run(result.run, tmp, tag="evidence-ranker-cv")),
        (json_out, lambda tmp: write_json(result.to_json(), tmp)),
    )
    if save_run:
        from latin_intertext.cli.evaluation import note_unlisted

        note_unlisted(result.run, bench)


@app.command("transfer-report")
def transfer_report(
    dataset: DatasetOpt = None,
    sources: SourcesOpt = None,
    cv: Annotated[int, typer.Option("--cv", min=2, help="Number of grouped folds.")] = 5,
    out: Annotated[Optional[Path], typer.Option(help="Write the markdown report here.")] = None,
    json_out: Optional[Path] = save_json_option("the figures"),
    save_run: Annotated[Optional[Path], typer.Option("--save-run", help="Write the ranker's run of the reversed queries (TREC format).")] = None,
) -> None:
    """The gold read backwards: cited epic lines search all of Valerius Flaccus, the ranker fitted out of fold on the benchmark."""
    from rich.progress import Progress

    from latin_intertext.evaluate.runs import write_trec_run
    from latin_intertext.evaluate.transfer import build_transfer_report, query_text_files, to_markdown, transfer_baselines
    from latin_intertext.serve.corpora import tess_corpus
    from latin_intertext.sources.manifest import resolve_sources

    dataset = dataset_folder(dataset)
    check_command_outputs(out, json_out, save_run, inputs=[dataset])
    corpus = tess_corpus(query_text_files(resolve_sources(sources))).lines  # a wrong --sources is told before the benchmark loads
    bench = load_scored_benchmark(dataset)
    with Progress(console=err) as bar:
        task = bar.add_task("searching the reversed queries", total=1 + len(transfer_baselines()))
        report = build_transfer_report(bench, corpus, cv, on_step=lambda name: bar.update(task, advance=1, description=name))
    markdown = to_markdown(report)
    print(markdown)
    write_and_say(
        (out, lambda tmp: tmp.write_text(markdown, encoding="utf-8")),
        (json_out, lambda tmp: write_json(report.to_json(), tmp)),
        (save_run, lambda tmp: write_trec_run(report.run, tmp, tag="evidence-ranker-transfer")),
    )
