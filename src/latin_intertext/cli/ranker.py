"""Subcommands of the learned ranker: train the shipped model, and the cross-validated report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from latin_intertext.cli import app
from latin_intertext.paths import default_dataset_dir

err = Console(stderr=True)
DatasetOpt = Annotated[Path, typer.Option("--dataset", help="A folder written by `latin-intertext build`.")]


@app.command("train-ranker")
def train_ranker(
    dataset: DatasetOpt = default_dataset_dir(),
    out: Annotated[Optional[Path], typer.Option(help="Model file (default: the model shipped in the package).")] = None,
) -> None:
    """Train the evidence ranker on ALL 482 queries: the model `search` uses. Never use it for benchmark figures."""
    from latin_intertext.benchmark import load_benchmark
    from latin_intertext.retrieve.ranker import EvidenceRanker, shipped_model_path

    bench = load_benchmark(dataset)
    target = out or shipped_model_path()
    with err.status("indexing the corpus and computing features"):
        ranker = EvidenceRanker().index(bench.corpus)
    with err.status(f"fitting on all {len(bench.queries)} queries"):
        ranker.fit(bench)
    ranker.save(target)
    err.print(f"[green]saved[/] {target} ({target.stat().st_size:,} bytes), trained on the whole benchmark")


@app.command("ranker-report")
def ranker_report(
    dataset: DatasetOpt = default_dataset_dir(),
    cv: Annotated[int, typer.Option("--cv", help="Number of grouped folds.")] = 5,
    out: Annotated[Optional[Path], typer.Option(help="Write the markdown report here (and a chart of it beside it as .png).")] = None,
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Write the figures as JSON here.")] = None,
    save_run: Annotated[Optional[Path], typer.Option("--save-run", help="Write the out-of-fold run (TREC format).")] = None,
) -> None:
    """Cross-validated figures, author prior on/off, feature ablation and the paired test against the best baseline."""
    from latin_intertext.benchmark import load_benchmark
    from latin_intertext.evaluate.ablation import plot, ranker_report as report, registered_baselines, to_markdown, variants
    from latin_intertext.evaluate.runs import write_trec_run

    bench = load_benchmark(dataset)
    from rich.progress import Progress

    steps = 1 + len(variants()) + len(registered_baselines())
    with Progress(console=err) as bar:
        task = bar.add_task("cross-validating the evidence ranker", total=steps)
        result = report(bench, cv, on_step=lambda label: bar.update(task, advance=1, description=label))
    markdown = to_markdown(result)
    print(markdown)
    if out:
        out.write_text(markdown, encoding="utf-8")
        plot(result, out.with_suffix(".png"))
    if save_run:
        write_trec_run(result["run"], save_run, tag="evidence-ranker-cv")
    if json_out:
        json_out.write_text(json.dumps({k: v for k, v in result.items() if k != "run"}, indent=2, default=float) + "\n")
