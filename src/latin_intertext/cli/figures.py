"""`latin-intertext figures`: regenerate every figure the README shows, and splice them into it.

Each figure lives between ``<!-- figures:NAME -->`` and ``<!-- /figures:NAME -->`` markers,
so the README's numbers are always the output of this one command, never typed in.
"""

from __future__ import annotations

import io
import shutil
import tempfile
from contextlib import redirect_stdout
from functools import partial
from pathlib import Path
from typing import Annotated

import typer

from latin_intertext.cli import app, main, make_console, write_and_say
from latin_intertext.cli.options import DatasetOpt, SourcesOpt, dataset_folder
from latin_intertext.errors import LatinIntertextError
from latin_intertext.outputs import check_command_outputs, check_outputs, splice

err = make_console(stderr=True)
BLOCKS = ("dataset", "leaderboard", "ranker", "transfer")
RESULTS = ("leaderboard.md", "leaderboard.png", "ranker-report.md", "ranker-report.png", "ranker-report.json", "transfer-report.md", "transfer-report.json")


def _run(args: list[str]) -> str:
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        code = main(args)
    if code:
        raise LatinIntertextError(f"`latin-intertext {' '.join(args)}` failed with exit code {code}")
    return buffer.getvalue()


@app.command()
def figures(
    dataset: DatasetOpt = None,
    readme: Annotated[Path, typer.Option("--readme", help="The README whose <!-- figures:NAME --> blocks are filled.")] = Path("README.md"),
    out_dir: Annotated[Path, typer.Option("--out-dir", help="Where the full reports and plots go.")] = Path("docs/results"),
    cv: Annotated[int, typer.Option("--cv", min=2, help="Grouped folds for the learned retrievers and the ranker report.")] = 5,
    sources: SourcesOpt = None,
) -> None:
    """Regenerate the dataset table, the leaderboard, the ranker report and the transfer report, and write them into the README."""
    dataset = dataset_folder(dataset)
    _check_readme(readme)
    check_command_outputs(*(out_dir / name for name in RESULTS), option="--out-dir", inputs=[readme])
    with tempfile.TemporaryDirectory() as scratch:  # everything lands together at the end, or nothing does
        work = Path(scratch)
        blocks = {"dataset": _dataset_table(_run(["stats", str(dataset), "--json"]))}
        _run(["leaderboard", "--dataset", str(dataset), "--cv", str(cv), "--out", str(work / "leaderboard.md")])
        blocks["leaderboard"] = _without_title((work / "leaderboard.md").read_text(encoding="utf-8"))
        _run(["ranker-report", "--dataset", str(dataset), "--cv", str(cv), "--out", str(work / "ranker-report.md"), "--save-json", str(work / "ranker-report.json")])
        blocks["ranker"] = (work / "ranker-report.md").read_text(encoding="utf-8")
        _run(["transfer-report", "--dataset", str(dataset), "--cv", str(cv), "--out", str(work / "transfer-report.md"), "--save-json", str(work / "transfer-report.json")]
             + (["--sources", str(sources)] if sources else []))
        blocks["transfer"] = (work / "transfer-report.md").read_text(encoding="utf-8")
        text = readme.read_text(encoding="utf-8")
        for name, body in blocks.items():
            text = splice(text, name, body)
        write_and_say(*((out_dir / name, partial(shutil.copyfile, work / name)) for name in RESULTS), (readme, lambda tmp: tmp.write_text(text, encoding="utf-8")))
    err.print(f"[green]updated[/] {readme} ({', '.join(blocks)}) and {out_dir}")


def _check_readme(readme: Path) -> None:
    """The README must exist, be writable and hold every block's markers: found out before the long run, not after."""
    if not readme.is_file():
        raise LatinIntertextError(f"{readme}: README not found; run from the repository's root or pass --readme PATH.")
    check_outputs(readme, option="--readme")  # writable, in a writable folder
    text = readme.read_text(encoding="utf-8")
    for name in BLOCKS:
        splice(text, name, "")


def _without_title(markdown: str) -> str:
    """The leaderboard's tables without its H1 title (which names a local path)."""
    return "\n".join(line for line in markdown.splitlines() if not line.startswith("# ")).strip()


def _dataset_table(stats_json: str) -> str:
    import json

    from latin_intertext.publish.stats import stats_rows

    stats = json.loads(stats_json)
    rows = ["| item | value |", "|---|---|"] + [f"| {k} | {v} |" for k, v in stats_rows(stats)]
    rows += ["", "| author | work | #lines |", "|---|---|---|"] + [f"| {a} | {stats['works'][a]} | {n:,} |" for a, n in stats["authors"].items()]
    return "\n".join(rows)
