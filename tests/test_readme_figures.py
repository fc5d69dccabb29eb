"""The README's prose quotes the figures `latin-intertext figures` generated (docs/results/), not older ones.

The tables between the README's figure markers are written by the command; the sentences around them restate some
of their figures, rounded. Each sentence checked here is rebuilt from docs/results/ranker-report.json and
leaderboard.md, so a regeneration that moves a figure fails here until the prose follows it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "docs" / "results"


def _prose() -> str:
    """The README outside its generated blocks, whitespace collapsed (sentences wrap across lines)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    text = re.sub(r"<!-- figures:(\w+) -->.*?<!-- /figures:\1 -->", "", text, flags=re.S)
    return " ".join(text.split())


def _leaderboard() -> dict[str, dict[str, float]]:
    """Each retriever's row of leaderboard.md: nDCG@10 and the columns after it."""
    rows = {}
    for line in (RESULTS / "leaderboard.md").read_text(encoding="utf-8").splitlines():
        if m := re.match(r"\| `([^`]+)` \| (0\.\d+) \[[^]]*\] \|(?: \[[^]]*\] \|)? (0\.\d+) \| (0\.\d+) \| (0\.\d+) \| (0\.\d+) \|", line):
            rows[m[1]] = dict(zip(("ndcg_at_10", "map", "recall_at_10", "recall_at_100", "recall_at_1000"), map(float, m.groups()[1:])))
    return rows


def _expected() -> list[str]:
    report = json.loads((RESULTS / "ranker-report.json").read_text(encoding="utf-8"))
    rows = {row["variant"]: row for row in report["ablation"]}
    full, board = report["metrics"], _leaderboard()
    prior = next(row for label, row in rows.items() if "learned author prior" in label)
    themes = next(row for label, row in rows.items() if "word-vector themes" in label)
    oracle = next(row for label, row in rows.items() if label.startswith("oracle"))
    best = report["best_baseline"]
    curve = report["learning_curve"]
    return [
        f"nDCG@10 {full['ndcg_at_10']:.3f} against a goal of 0.45, Recall@100 {full['recall_at_100']:.2f} against 0.85",
        f"hold {100 * report['candidate_recall']:.1f}% of the relevant lines, and {report['candidate_recall_per_query']:.3f} of a query's relevant lines",
        f"best baseline is `{best}` ({board[best]['ndcg_at_10']:.3f})",
        f"`word2vec` scores {board['word2vec']['ndcg_at_10']:.3f} nDCG@10 and `word2vec-tuned` {board['word2vec-tuned']['ndcg_at_10']:.3f}",
        f"(Recall@1000 {board['word2vec']['recall_at_1000']:.3f} against {board['word2vec-tuned']['recall_at_1000']:.3f})",
        f"adds {prior['vs_full']['diff']:+.3f} nDCG@10",
        f"reaches {prior['ndcg_at_10']:.3f}",
        f"(Recall@100 {themes['recall_at_100']:.3f} against {full['recall_at_100']:.3f})",
        f"nDCG@10 ({themes['ndcg_at_10']:.3f} against {full['ndcg_at_10']:.3f}",
        f"It reaches nDCG@10 about {oracle['ndcg_at_10']:.2f}, but Recall@100 only about {oracle['recall_at_100']:.2f}",
        f"nDCG@10 climbs from about {curve[0]['ndcg_at_10']:.3f} ({curve[0]['training_queries']:.0f} training queries)",
        "Recall@100: " + ", ".join(f"{row['recall_at_100']:.3f}" for row in curve) + ",",
        f"span-group p {prior['vs_full']['p_randomization_span_groups']:.4f})",
        "the span-group interval of the nDCG@10 margin is [{:+.3f}, {:+.3f}]".format(*report["paired_tests"][0]["ci95_span_groups"]),
    ]


@pytest.mark.parametrize("sentence", _expected())
def test_readme_prose_quotes_the_generated_figures(sentence):
    assert sentence in _prose(), f"README prose should read {sentence!r}, as docs/results now says"


def test_the_published_report_has_the_layout_ranker_report_writes():
    """docs/results/ranker-report.json is what `ranker-report --json` writes (RankerReport.to_json): same fields, same order."""
    from dataclasses import fields

    from latin_intertext.evaluate.ranker_report import RankerReport

    published = json.loads((RESULTS / "ranker-report.json").read_text(encoding="utf-8"))
    assert list(published) == [f.name for f in fields(RankerReport) if f.name != "run"]


def test_the_readme_counts_the_lemmatiser_s_corrections_as_the_table_holds_them():
    from latin_intertext import latin

    assert f"and {len(latin.SIMPLEMMA_ERRORS)} frequent forms whose simplemma lemma is none of their readings" in _prose()
