"""TREC run files: round trip, and every kind of bad input reported with file:line, never dropped."""

from __future__ import annotations

import pytest

from latin_intertext.errors import InputError
from latin_intertext.evaluate.runs import read_trec_run, write_trec_run

from conftest import FIXTURES

RUNS = FIXTURES / "runs"
QIDS = {"vf-1-1-1", "vf-1-2-2"}
DOCS = {"vergil-1-1", "vergil-1-2", "vergil-1-3"}


def test_round_trip_keeps_scores_and_writes_trec_order(tmp_path):
    run = {"q2": {"b": 1.0, "a": 1.0, "c": 3.25}, "q1": {"x": 0.1 + 0.2}}
    path = write_trec_run(run, tmp_path / "sub" / "r.run", tag="my run")
    assert read_trec_run(path) == run
    lines = path.read_text().splitlines()
    assert lines[0] == f"q1 Q0 x 1 {0.1 + 0.2!r} my_run"
    assert [line.split()[2] for line in lines[1:]] == ["c", "b", "a"]  # ties by doc id descending
    assert [line.split()[3] for line in lines[1:]] == ["1", "2", "3"]


def test_toy_run_is_read():
    run = read_trec_run(RUNS / "toy.run")
    assert set(run) == {"q1", "q2", "q4"} and run["q1"] == {"d9": 3.0, "d1": 2.0, "d5": 1.0, "d2": 0.5}


def test_malformed_lines_are_all_listed_with_file_and_line():
    with pytest.raises(InputError) as err:
        read_trec_run(RUNS / "malformed.run", QIDS, DOCS)
    text = str(err.value)
    assert "2 malformed line(s)" in text
    assert "malformed.run:2: expected 6 fields" in text and "found 5" in text
    assert "malformed.run:3: rank 'x' is not an integer" in text
    assert "qid Q0 docid rank score tag" in text  # how to fix


def test_unknown_query_ids_are_counted_and_listed():
    with pytest.raises(InputError) as err:
        read_trec_run(RUNS / "unknown-query.run", QIDS, DOCS)
    text = str(err.value)
    assert "2 line(s) with 1 unknown query id(s)" in text
    assert "unknown-query.run:2: unknown query id 'vf-9-1-1' (2 line(s))" in text


def test_unknown_doc_ids_are_counted_and_listed():
    with pytest.raises(InputError) as err:
        read_trec_run(RUNS / "unknown-doc.run", QIDS, DOCS)
    assert "unknown-doc.run:2: unknown doc id 'homer-1-1' (1 line(s))" in str(err.value)
    assert "1 line(s) with 1 unknown doc id(s)" in str(err.value)


def test_duplicates_and_nan_and_missing_file(tmp_path):
    dup = tmp_path / "dup.run"
    dup.write_text("q 0 d 1 1.0 t\nq 0 d 2 0.5 t\n")
    with pytest.raises(InputError, match=r"dup.run:2: document d listed twice for query q"):
        read_trec_run(dup)
    nan = tmp_path / "nan.run"
    nan.write_text("q 0 d 1 nan t\n")
    with pytest.raises(InputError, match=r"nan.run:1: score is NaN"):
        read_trec_run(nan)
    with pytest.raises(InputError, match="run file not found"):
        read_trec_run(tmp_path / "absent.run")
