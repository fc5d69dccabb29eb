"""`latin-intertext figures` writes each figure between its README markers and nowhere else."""

from __future__ import annotations

import pytest

from latin_intertext.cli.figures import splice
from latin_intertext.errors import LatinIntertextError

README = """# Title

Intro with <!-- figures:leaderboard --> mentioned inline, not a block.

<!-- figures:dataset -->
| old | dataset |
<!-- /figures:dataset -->

Between the blocks.

<!-- figures:leaderboard -->
old leaderboard
spanning lines
<!-- /figures:leaderboard -->

Outro.
"""


def test_splice_replaces_only_the_marked_block():
    out = splice(README, "leaderboard", "| new | board |\n\n")
    expected = README.replace("old leaderboard\nspanning lines\n", "| new | board |\n")
    assert out == expected
    assert "| old | dataset |" in out  # the other block is untouched
    assert splice(out, "leaderboard", "| new | board |") == out  # idempotent


def test_splice_fills_each_block_independently():
    out = splice(splice(README, "dataset", "D"), "leaderboard", "L")
    assert "<!-- figures:dataset -->\nD\n<!-- /figures:dataset -->" in out
    assert "<!-- figures:leaderboard -->\nL\n<!-- /figures:leaderboard -->" in out
    assert out.replace("\nD\n", "\n| old | dataset |\n").replace("\nL\n", "\nold leaderboard\nspanning lines\n") == README


def test_splice_takes_the_body_literally():
    body = r"a \1 b \g<0> c \\ d $1"
    out = splice(README, "dataset", body)
    assert f"<!-- figures:dataset -->\n{body}\n<!-- /figures:dataset -->" in out


@pytest.mark.parametrize(
    "readme",
    [
        "# no markers at all\n",
        "<!-- figures:ranker -->\nbody but no end marker\n",
        "body\n<!-- /figures:ranker -->\n",
        "<!-- figures:rankers -->\nx\n<!-- /figures:rankers -->\n",
    ],
)
def test_splice_without_the_markers_raises(readme):
    with pytest.raises(LatinIntertextError, match=r"figures:ranker -->"):
        splice(readme, "ranker", "figures")


def test_dataset_block_gives_each_figure_of_the_card_under_its_own_name():
    """`figures` writes the README's dataset block from `stats --json`: with the card's figures it is the block the
    README holds, and each row names its own figure (945 gold parallels, not the 978 qrels)."""
    import json
    import re
    from pathlib import Path

    from latin_intertext.cli.figures import _dataset_table
    from latin_intertext.publish.stats import REFERENCE, stats_rows

    assert stats_rows(REFERENCE) == [
        ("corpus (lines)", "39,675"),
        ("queries (VF 1 spans)", "482"),
        ("qrels", "978"),
        ("gold parallels", "945"),
        ("relevant docs / query", "2.03 (min=1, max=10)"),
    ]
    distinct = {**REFERENCE, "corpus": 1001, "queries": 1002, "qrels": 1003, "gold_parallels": 1004}  # no figure stands in for another
    assert [value for _, value in stats_rows(distinct)[:4]] == ["1,001", "1,002", "1,003", "1,004"]
    table = _dataset_table(json.dumps(REFERENCE))
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert re.search(r"<!-- figures:dataset -->\n(.*?)\n<!-- /figures:dataset -->", readme, re.S)[1] == table
    assert "| gold parallels | 945 |" in table and "| Ovid | Metamorphoses | 11,995 |" in table
