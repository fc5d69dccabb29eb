"""The leaderboard: every retriever and run file on one table (markdown) and one chart (PNG)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from latin_intertext.evaluate import charts
from latin_intertext.evaluate.execute import Skipped
from latin_intertext.evaluate.report import RunReport


@dataclass(frozen=True)
class Entry:
    name: str
    report: RunReport
    seconds: float | None  # index + search (+ fitting under CV); None for a run file
    note: str = ""  # e.g. "5-fold CV", "run file"


RUN_MARK = " (run)"  # ends the name of a run file's row, which no retriever's name ends with

COLUMNS = (("map", "MAP"), ("recall_at_10", "Recall@10"), ("recall_at_100", "Recall@100"), ("recall_at_1000", "Recall@1000"))


def run_labels(paths: list[Path]) -> list[str]:
    """Row names for run files: the shortest ending of each path that no other given path shares, marked
    :data:`RUN_MARK`, so that two ``my.run`` in two folders, or a run file named like a retriever, stay apart."""
    parts = [Path(os.path.abspath(p)).parts for p in paths]
    labels = []
    for i, mine in enumerate(parts):
        others = [theirs for j, theirs in enumerate(parts) if j != i]
        n = next((n for n in range(1, len(mine)) if all(theirs[-n:] != mine[-n:] for theirs in others)), len(mine))
        labels.append(Path(*mine[-n:]).as_posix() + RUN_MARK)
    return labels


def code_cell(text: str) -> str:
    """``text`` as inline code that keeps a markdown table whole: ``|`` escaped (GFM reads ``\\|`` as ``|``, in code
    too), a line break made a space, and a fence longer than any run of backticks in it."""
    text = " ".join(text.splitlines()).replace("|", "\\|")
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def ranked_entries(entries: list[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: -e.report.metrics["ndcg_at_10"])


def to_markdown(entries: list[Entry], skipped: list[Skipped] = (), title: str = "") -> str:
    """A markdown table, best nDCG@10 first, with skipped retrievers listed below it."""
    head = ["Retriever", "nDCG@10 [95% CI]", "95% CI, span groups", *(label for _, label in COLUMNS), "Time (s)", "Notes"]
    lines = [f"# {title}", ""] if title else []
    lines += ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 2) + ["---"]) + "|"]
    for e in ranked_entries(entries):
        m, ci, groups = e.report.metrics, e.report.ci95["ndcg_at_10"], e.report.ci95_span_groups.get("ndcg_at_10")
        cells = [code_cell(e.name), f"{m['ndcg_at_10']:.4f} {ci:.4f}", f"{groups:.4f}" if groups else ""]
        cells += [f"{m[key]:.4f}" for key, _ in COLUMNS]
        missing, disordered = e.report.evaluation.missing, e.report.order_warnings
        note = "; ".join(
            filter(None, [e.note, missing and f"no results for {len(missing)} of {len(e.report.evaluation.query_ids)} queries, scored 0", disordered and f"scores contradict ranks in {len(disordered)} queries, ranked by score"])
        )
        cells += ["-" if e.seconds is None else f"{e.seconds:.1f}", note]
        lines.append("| " + " | ".join(cells) + " |")
    if entries:
        n = len(entries[0].report.evaluation.query_ids)
        lines += ["", f"{n} queries; 95% CIs: percentile bootstrap ({entries[0].report.config.get('bootstrap_resamples')} resamples) over queries, and over "
                  "span groups (whole groups of queries whose VF spans are chained, each within 3 lines of the next: neighbouring or overlapping text, "
                  "so their results may be correlated)."]
    if skipped:
        lines += ["", "Skipped:", ""] + [f"- {code_cell(s.name)}: {s.reason}" for s in skipped]
    return "\n".join(lines) + "\n"


def plot(entries: list[Entry], path: Path | str, metric: str = "ndcg_at_10", label: str = "nDCG@10") -> Path:
    """Horizontal bars of ``metric`` with 95% CI error bars, best at the top."""
    plt = charts.pyplot()
    rows = ranked_entries(entries)[::-1]
    values = [e.report.metrics[metric] for e in rows]
    errors = [[v - e.report.ci95[metric].low for v, e in zip(values, rows)], [e.report.ci95[metric].high - v for v, e in zip(values, rows)]]
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.2))
    ax.barh([e.name for e in rows], values, xerr=errors, capsize=4, color="#4c72b0")
    ax.set_xlabel(f"{label} (95% bootstrap CI)")
    ax.set_xlim(0, min(1.0, max([hi for hi in errors[1]] + [0]) + max(values + [0]) + 0.05))
    fig.tight_layout()
    return charts.save(fig, path, dpi=120)
