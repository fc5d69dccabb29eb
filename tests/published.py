"""The figures `latin-intertext figures` published in docs/results/, which the README's tables and prose quote."""

from __future__ import annotations

import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[1] / "docs" / "results"


def leaderboard() -> dict[str, dict[str, float]]:
    """Each retriever's row of leaderboard.md: nDCG@10 and the columns after it."""
    rows = {}
    for line in (RESULTS / "leaderboard.md").read_text(encoding="utf-8").splitlines():
        if m := re.match(r"\| `([^`]+)` \| (0\.\d+) \[[^]]*\] \|(?: \[[^]]*\] \|)? (0\.\d+) \| (0\.\d+) \| (0\.\d+) \| (0\.\d+) \|", line):
            rows[m[1]] = dict(zip(("ndcg_at_10", "map", "recall_at_10", "recall_at_100", "recall_at_1000"), map(float, m.groups()[1:])))
    return rows
