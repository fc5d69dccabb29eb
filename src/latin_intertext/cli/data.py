"""Subcommands of the data stages: fetch, build, validate, stats, push."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from latin_intertext import DATASET_NAME, DATASET_VERSION, HUB_REPO_ID
from latin_intertext.cli import app, make_console
from latin_intertext.cli.options import DatasetArg, DatasetOpt, SourcesOpt, dataset_folder, flag
from latin_intertext.errors import LatinIntertextError, ValidationError
from latin_intertext.paths import default_dataset_dir, sources_cache_dir

out = make_console()
err = make_console(stderr=True)


@app.command()
def fetch(
    sources: SourcesOpt = None,
    collection: Annotated[str, typer.Option(help="naacl2021, tesserae-la or all")] = "naacl2021",
    dest: Annotated[Optional[Path], typer.Option(help="Download cache (default: the project's cache dir).")] = None,
) -> None:
    """Download the pinned source files (or verify a local mirror) and check every sha256."""
    from latin_intertext.sources.manifest import MANIFESTS, SOURCES_ENV, fetch as download, load_manifest, mirror_from_env, verify
    from latin_intertext.sources.tesserae_la import COLLECTION, not_in_snapshot_notes

    names = list(MANIFESTS) if collection == "all" else [collection]
    mirror = mirror_from_env(sources)
    if mirror is not None and dest is not None:
        raise LatinIntertextError(
            f"--dest {dest} would be ignored: with a mirror ({mirror}, from --sources or ${SOURCES_ENV}) nothing is downloaded. "
            f"Give one of them; unset {SOURCES_ENV} to download into --dest."
        )
    for name in names:
        files = load_manifest(name)
        if mirror is not None:
            verify(mirror, files, mirror=True)
            err.print(f"[green]verified[/] {len(files)} {name} files in mirror {mirror}")
            continue
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), console=err) as bar:
            task = bar.add_task(f"fetching {name}", total=len(files))
            root = download(files, dest or sources_cache_dir(), on_file=lambda _f: bar.advance(task))  # ~ expanded
        verify(root, files)
        err.print(f"[green]fetched and verified[/] {len(files)} {name} files in {root}")
    if COLLECTION in names:
        for note in not_in_snapshot_notes():
            err.print(f"not in the {COLLECTION} snapshot: {note}", highlight=False)


@app.command()
def build(
    out_dir: Annotated[Path, typer.Option("--out", help="Output folder: new, empty or an earlier build (replaced atomically).")] = default_dataset_dir(),
    sources: SourcesOpt = None,
) -> None:
    """Build LatinEpicIntertextualityRetrieval v1.0.0 from verified sources into the folder --out names (HF parquet + BEIR + card)."""
    from latin_intertext.build.dataset import beyond_span_summary
    from latin_intertext.publish.writer import build_dataset
    from latin_intertext.sources.gold import line_ends_text

    with err.status("verifying sources and building the benchmark"):
        stats, report = build_dataset(sources, out_dir)
    counts = report.counts()
    err.print(f"[green]built[/] {out_dir}: corpus={stats['corpus']:,} queries={stats['queries']} qrels={stats['qrels']}")
    err.print("skipped source lines: " + ", ".join(f"{n} {why}" for why, n in sorted(counts.items())) + f" (listed in {out_dir / 'build_report.json'})")
    if report.ignored:
        err.print(f"ignored {len(report.ignored)} file(s) the manifest does not pin, none read: " + "; ".join(map(str, report.ignored)), highlight=False)
    seps = {a: dict(c) for a, c in report.separators.items()}
    err.print(f"citation separators: {seps}", highlight=False)
    err.print(f"duplicate citations, one line kept of each: {', '.join(d.line.tess_index for d in report.duplicates)}", highlight=False)
    err.print(f"numbering gaps kept as the sources number them: {', '.join(map(str, report.numbering)) or 'none'}", highlight=False)
    err.print(f"gold CSV line ends: {line_ends_text(report.gold_line_ends)}", highlight=False)
    beyond = "; ".join(beyond_span_summary(report.beyond_span, side) for side in ("result", "query"))
    err.print(f"gold phrases quoting words beyond their span, kept as the gold has them: {beyond}", highlight=False)


@app.command()
def validate(folder: DatasetArg = None, dataset: DatasetOpt = None) -> None:
    """Re-check a published folder (schema, ids, references, figures, checksums); exit 1 on any problem."""
    from latin_intertext.publish.validate import validate_dataset

    dataset = dataset_folder(dataset, folder)
    problems = validate_dataset(dataset)
    if problems:
        raise ValidationError(f"{dataset}: {len(problems)} problem(s):\n  " + "\n  ".join(problems))
    err.print(f"[green]valid[/] {dataset}: schema, unique ids, qrels references, card figures, the records of v1.0.0 and checksums all check out")


@app.command()
def stats(
    folder: DatasetArg = None,
    dataset: DatasetOpt = None,
    as_json: Annotated[bool, flag("--json", help="Print the figures as JSON (the card's and stats.json's keys).")] = False,
    mteb: Annotated[bool, flag("--mteb", help="Print mteb's descriptive statistics of the task as JSON (needs the mteb extra).")] = False,
) -> None:
    """Print the dataset's statistics table, computed from the data."""
    from latin_intertext.benchmark import load_benchmark
    from latin_intertext.publish.stats import compute_stats, relevant_by_author, stats_rows

    if mteb:
        from latin_intertext.evaluate.mteb_task import descriptive_statistics

        print(json.dumps(descriptive_statistics(dataset_folder(dataset, folder)), indent=2))
        return
    bench = load_benchmark(dataset_folder(dataset, folder), release_check=True)
    figures = compute_stats(bench)
    if as_json:
        print(json.dumps(figures, indent=2))
        return
    table = Table(title=f"{DATASET_NAME} (dataset {bench.version_label})")  # v1.0.0 only for the release's records
    table.add_column("item")
    table.add_column("value", justify="right")
    for item, value in stats_rows(figures):
        table.add_row(item, value)
    out.print(table)
    authors = Table(title="Corpus author distribution, and where the gold lies")
    for col in ("author", "work", "#lines", "#qrels", "#queries with one"):
        authors.add_column(col, justify="left" if col in ("author", "work") else "right")
    gold = relevant_by_author(bench)
    for author, n in figures["authors"].items():
        relevant, queries = gold.get(author, (0, 0))
        authors.add_row(author, figures["works"][author], f"{n:,}", f"{relevant:,}", f"{queries:,} of {figures['queries']:,}")
    out.print(authors)


@app.command()
def push(
    folder: DatasetArg = None,
    dataset: DatasetOpt = None,
    repo_id: Annotated[str, typer.Option("--repo-id", help="The Hub dataset repository, owner/name.")] = HUB_REPO_ID,
    dry_run: Annotated[bool, flag("--dry-run", help="List what would be uploaded; upload nothing.")] = False,
    revision: Annotated[Optional[str], typer.Option("--revision", help="An existing branch of the repository to upload to (default: main).")] = None,
) -> None:
    """Upload a validated folder to the Hugging Face Hub (token from $HF_TOKEN)."""
    from latin_intertext.publish.push import VERSION_TAG, push as upload

    plan = upload(dataset_folder(dataset, folder), repo_id, dry_run=dry_run, revision=revision)
    verb = "would upload" if dry_run else "uploaded"
    for name, size in plan:
        out.print(f"{verb} {name} ({size:,} bytes) -> {repo_id} (dataset)")
    err.print(f"{len(plan)} files, {sum(s for _, s in plan):,} bytes")
    if not dry_run and revision != VERSION_TAG:
        err.print(f"tagged the upload {VERSION_TAG} (the revision the MTEB task loads)")
