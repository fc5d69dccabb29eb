"""`latin-intertext figures`: regenerate every figure the README shows, and splice them into it.

Each figure lives between ``<!-- figures:NAME -->`` and ``<!-- /figures:NAME -->`` markers,
so the README's numbers are always the output of this one command, never typed in.
"""

from __future__ import annotations

import io
import re
from contextlib import redirect_stdout
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from latin_intertext.cli import app, main
from latin_intertext.errors import LatinIntertextError
from latin_intertext.paths import default_dataset_dir

err = Console(stderr=True)


def splice(readme: str, name: str, body: str) -> str:
    pattern = re.compile(rf"(<!-- figures:{re.escape(name)} -->\n).*?(<!-- /figures:{re.escape(name)} -->)", re.S)
    if not pattern.search(readme):
        raise LatinIntertextError(f"README has no <!-- figures:{name} --> ... <!-- /figures:{name} --> block to fill.")
    return pattern.sub(lambda m: m.group(1) + body.rstrip() + "\n" + m.group(2), readme)


def _run(args: list[str]) -> str:
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        code = main(args)
    if code:
        raise LatinIntertextError(f"`latin-intertext {' '.join(args)}` failed with exit code {code}")
    return buffer.getvalue()


@app.command()
def figures(
    dataset: Annotated[Path, typer.Option("--dataset")] = default_dataset_dir(),
    readme: Annotated[Path, typer.Option("--readme")] = Path("README.md"),
    out_dir: Annotated[Path, typer.Option("--out-dir", help="Where the full reports and plots go.")] = Path("docs/results"),
    cv: Annotated[int, typer.Option("--cv")] = 5,
) -> None:
    """Regenerate the dataset table, the leaderboard and the ranker report, and write them into the README."""
    out_dir.mkdir(parents=True, exist_ok=True)
    blocks = {}
    stats = _run(["stats", str(dataset), "--json"])
    blocks["dataset"] = _dataset_table(stats)
    leaderboard = out_dir / "leaderboard.md"
    _run(["leaderboard", "--dataset", str(dataset), "--cv", str(cv), "--out", str(leaderboard)])
    blocks["leaderboard"] = _without_title(leaderboard.read_text(encoding="utf-8"))
    report = out_dir / "ranker-report.md"
    _run(["ranker-report", "--dataset", str(dataset), "--cv", str(cv), "--out", str(report), "--json", str(out_dir / "ranker-report.json")])
    blocks["ranker"] = report.read_text(encoding="utf-8")
    text = readme.read_text(encoding="utf-8")
    for name, body in blocks.items():
        text = splice(text, name, body)
    readme.write_text(text, encoding="utf-8")
    err.print(f"[green]updated[/] {readme} ({', '.join(blocks)}) and {out_dir}")


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
