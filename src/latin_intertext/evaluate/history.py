"""The evidence ranker's figures at every commit that regenerated them, read from git, never typed in.

Each regeneration commits ``docs/results/ranker-report.json``; the table reads every committed version of it, so
the record of what each regeneration moved is the output of one command, which writes it into its page:

    python -m latin_intertext.evaluate.history docs/evidence-ranker.md

and ``tests/test_readme_figures.py`` checks that the page holds the table this gives.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPORT = "docs/results/ranker-report.json"

# Rows of the variants table followed across regenerations: (column title, how the row's label begins).
FOLLOWED = (
    ("author prior", "full model + learned author prior"),
    ("without phrases", "without phrases"),
    ("without monotone", "full model without monotone constraints"),
    ("themes", "full model + word-vector themes"),
    ("300 trees", "settings: 300 trees"),
    ("another bag", "settings: another bag"),
    ("4 members, level 50", "settings: 4 members and truncation level 50"),
    ("nested", "settings chosen by nested cross-validation"),
)
OLD_SETTINGS = "4 members and truncation level 50"  # the settings used until 877c9fa, offered to every nested fold


@dataclass(frozen=True)
class Regeneration:
    commit: str
    date: str
    report: dict

    def row(self, prefix: str) -> dict | None:
        return next((row for row in self.report["ablation"] if row["variant"].startswith(prefix)), None)

    def nested_choices(self) -> list[str]:
        return [choice["chosen"] for choice in (self.report.get("nested") or {}).get("choices", [])]


def regenerations(repo: Path = Path(".")) -> list[Regeneration]:
    """Every committed version of the ranker report, oldest first."""
    log = _git(repo, "log", "--reverse", "--format=%h %cs", "--", REPORT)
    found = []
    for line in log.splitlines():
        commit, date = line.split()
        found.append(Regeneration(commit, date, json.loads(_git(repo, "show", f"{commit}:{REPORT}"))))
    return found


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def _diff(row: dict | None) -> str:
    if row is None or "vs_full" not in row:
        return ""
    p = row["vs_full"]["p_randomization"]
    return f"{row['vs_full']['diff']:+.4f} ({'≤ 0.0001' if p <= 1e-4 else f'{p:.2g}'})"


def to_markdown(found: list[Regeneration]) -> str:
    """One row a regeneration: the headline, each followed row's difference from it (randomization p), and how many
    nested folds chose settings other than the shipped ones, and the old ones."""
    head = ["commit", "date", "nDCG@10", "Recall@100", *(title for title, _ in FOLLOWED), "nested folds: other / old settings"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for regeneration in found:
        report, choices = regeneration.report, regeneration.nested_choices()
        shipped = (report.get("nested") or {}).get("grid", [None])[0]
        nested = f"{sum(c != shipped for c in choices)} / {choices.count(OLD_SETTINGS)}" if choices else ""
        cells = [
            regeneration.commit,
            regeneration.date,
            f"{report['metrics']['ndcg_at_10']:.4f}",
            f"{report['metrics']['recall_at_100']:.4f}",
            *(_diff(regeneration.row(prefix)) for _, prefix in FOLLOWED),
            nested,
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


PAGE_BLOCK = "history"  # the page's <!-- figures:history --> block


def write_into(page: Path, repo: Path = Path(".")) -> None:
    """Fill the page's history block with the table of the repository's regenerations."""
    from latin_intertext.outputs import splice, write_outputs

    text = splice(page.read_text(encoding="utf-8"), PAGE_BLOCK, to_markdown(regenerations(repo)))
    write_outputs((page, lambda tmp: tmp.write_text(text, encoding="utf-8")))


if __name__ == "__main__":
    if len(sys.argv) > 1:
        write_into(Path(sys.argv[1]))
    else:
        sys.stdout.write(to_markdown(regenerations()))
