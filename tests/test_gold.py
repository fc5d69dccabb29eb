"""read_gold: the CRLF gold CSV, and every kind of bad row reported with its CSV line."""

from __future__ import annotations

import pytest

from fixtures.build.helpers import TINY_MIRROR
from latin_intertext.build.dataset import GOLD_FILE
from latin_intertext.errors import InputError
from latin_intertext.sources.gold import REQUIRED_COLUMNS, read_gold

TINY_GOLD = TINY_MIRROR / GOLD_FILE
HEADER = ",".join(REQUIRED_COLUMNS)
GOOD = "1,1,Vergil,Aeneid,1,1,1,prima canimus"


def write_csv(tmp_path, *rows: str, header: str = HEADER, end: str = "\r\n"):
    path = tmp_path / "gold.csv"
    path.write_bytes((end.join([header, *rows]) + end).encode())
    return path


def bad_rows(path, corpus_keys=None) -> list[str]:
    with pytest.raises(InputError) as info:
        read_gold(path, corpus_keys)
    assert "nothing was built" in info.value.summary
    return info.value.problems


def test_tiny_crlf_file_parses_without_carriage_returns():
    assert b"\r\n" in TINY_GOLD.read_bytes()
    gold = read_gold(TINY_GOLD)
    assert [(g.csv_line, g.vf_start, g.vf_end, g.author, g.book, g.line_start, g.line_end) for g in gold] == [
        (2, 1, 1, "vergil", 1, 1, 1),
        (3, 1, 1, "statius", 1, 1, 1),
        (4, 1, 1, "lucan", 1, 1, 2),
        (5, 2, 3, "ovid", 1, 2, 2),
        (6, 2, 3, "ovid", 1, 1, 2),
        (7, 3, 3, "vergil", 2, 1, 2),
    ]
    assert gold[4].result_phrase == "in nova, fert"  # quoted comma kept, no trailing \r
    assert gold[5].result_phrase == "iota"
    assert list(gold[2].target_lines) == [1, 2]


def test_real_gold_file_has_945_rows_and_crlf(sources_dir):
    path = sources_dir / GOLD_FILE
    assert path.read_bytes().count(b"\r\n") == 946  # header + 945 rows
    gold = read_gold(path)
    assert len(gold) == 945
    assert {g.author for g in gold} == {"vergil", "lucan", "ovid", "statius"}
    assert not any("\r" in g.query_phrase or "\r" in g.result_phrase for g in gold)
    assert (gold[0].csv_line, gold[-1].csv_line) == (2, 946)


def test_target_line_missing_from_corpus_is_reported(tmp_path):
    keys = {("vergil", 1, 1), ("vergil", 1, 2)}
    path = write_csv(tmp_path, GOOD, "2,2,Vergil,Aeneid,1,2,5,x", "3,3,Vergil,Aeneid,9,1,1,y")
    assert bad_rows(path, keys) == [
        f"{path}:3: target vergil 1.3 is not in the corpus (nor 2 more lines)",
        f"{path}:4: target vergil 9.1 is not in the corpus",
    ]
    assert len(read_gold(write_csv(tmp_path, GOOD), keys)) == 1


def test_truncated_csv_names_the_cut_line(tmp_path):
    path = tmp_path / "gold.csv"
    path.write_bytes((HEADER + "\r\n" + GOOD + "\r\n" + GOOD + "\r\n" + GOOD[:12]).encode())  # cut mid-row
    (problem,) = bad_rows(path)
    assert problem == f"{path}:4: expected 8 fields, got 4; the row is truncated or has extra commas"


def test_real_csv_cut_mid_row(sources_dir, tmp_path):
    data = (sources_dir / GOLD_FILE).read_bytes()
    cut = data.index(b"\r\n", len(data) // 2) + 20  # 20 bytes into some row
    path = tmp_path / "gold.csv"
    path.write_bytes(data[:cut])
    line = data[:cut].count(b"\r\n") + 1
    got = data[:cut].rsplit(b"\r\n", 1)[1].count(b",") + 1
    assert got < 16
    (problem,) = bad_rows(path)
    assert problem.startswith(f"{path}:{line}: expected 16 fields, got {got};")


@pytest.mark.parametrize(
    "row, reason",
    [
        ("1,1,Vergil,Aeneid,I,1,1,p", "column 'Intertext: Book' must be an integer, got 'I'"),
        ("1,x,Vergil,Aeneid,1,1,1,p", "column 'VF: Line End' must be an integer, got 'x'"),
        ("1,1,Horace,Odes,1,1,1,p", "column 'Intertext: Author' is 'Horace'; expected one of ['Lucan', 'Ovid', 'Statius', 'Vergil']"),
        ("1,1,Vergil,Aeneid,1,5,4,p", "intertext line start 5 > end 4"),
        ("3,2,Vergil,Aeneid,1,1,1,p", "VF line start 3 > end 2"),
        ("1,1,Vergil,Aeneid,1,1,1,  ", "column 'Query Phrase' is empty"),
        ("1,1,Vergil,Aeneid,1,1,1,p,extra", "expected 8 fields, got 9; the row is truncated or has extra commas"),
    ],
)
def test_each_bad_row_is_reported_with_its_line(tmp_path, row, reason):
    path = write_csv(tmp_path, GOOD, row)
    assert bad_rows(path) == [f"{path}:3: {reason}"]


def test_all_bad_rows_are_listed_together(tmp_path):
    path = write_csv(tmp_path, "1,1,Vergil,Aeneid,one,1,1,p", GOOD, "1,1,Homer,Iliad,1,1,1,p", "1,1,Ovid,Met,1,9,2,p")
    problems = bad_rows(path)
    assert [p.split(": ")[0] for p in problems] == [f"{path}:2", f"{path}:4", f"{path}:5"]
    with pytest.raises(InputError) as info:
        read_gold(path)
    rendered = str(info.value)
    assert rendered.startswith(f"{path}: 3 bad gold row(s); nothing was built")
    assert all(p in rendered for p in problems)


def test_missing_column_and_header_only(tmp_path):
    with pytest.raises(InputError, match=r"gold\.csv:1: missing column\(s\) \['Query Phrase'\]"):
        read_gold(write_csv(tmp_path, header=HEADER.removesuffix(",Query Phrase")))
    with pytest.raises(InputError, match="no gold rows found"):
        read_gold(write_csv(tmp_path))
