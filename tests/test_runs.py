"""TREC run files: round trip, and every kind of bad input reported with file:line, never dropped."""

from __future__ import annotations

import re

import pytest

from latin_intertext.errors import InputError
from latin_intertext.evaluate.runs import read_run_file, read_trec_run, unlisted_queries, write_trec_run

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


def test_scores_are_written_in_the_fewest_digits_that_read_back_exactly(tmp_path):
    """A run's 32-bit scores (retrieve.base.untied) are written as such (2.864), any other double in full."""
    import numpy as np

    single = float(np.float32(2.864))
    run = {"q": {"a": single, "c": float(np.nextafter(np.float32(2.864), np.float32(0))), "b": 0.1}}
    path = write_trec_run(run, tmp_path / "r.run")
    scores = [line.split()[4] for line in path.read_text(encoding="utf-8").splitlines()]
    assert scores[0] == "2.864" and scores[2] == "0.1"
    back = read_trec_run(path)["q"]
    assert list(back) == list(run["q"]) and all(np.float32(back[d]) == np.float32(run["q"][d]) for d in run["q"])  # as trec_eval reads them
    assert back["b"] == 0.1


def test_queries_without_results_cannot_be_listed_in_a_run_file(tmp_path):
    run = {"q1": {"a": 1.0}, "q2": {}}
    assert unlisted_queries(run, ["q3", "q1", "q2"]) == ["q2", "q3"]  # empty, or never answered: no line for either
    assert set(read_trec_run(write_trec_run(run, tmp_path / "r.run"))) == {"q1"}


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
    assert err.value.summary.endswith("unknown-query.run: 2 line(s) with 1 unknown query id(s)")  # no count of nothing


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


@pytest.mark.parametrize("score, reason", [
    ("inf", "score 'inf' is infinite"), ("-inf", "score '-inf' is infinite"), ("1e400", "score '1e400' is infinite (or beyond a 64-bit float)"),
    ("1_000", "score '1_000' is not a number"),
    ("1e39", "score '1e39' lies beyond a 32-bit float (±3.4e38), which trec_eval"), ("-5e38", "score '-5e38' lies beyond a 32-bit float"),
])
def test_scores_trec_eval_would_read_otherwise_are_refused(tmp_path, score, reason):
    run = tmp_path / "odd.run"
    run.write_text(f"q 0 a 1 2.0 t\nq 0 d 2 {score} t\n")
    with pytest.raises(InputError, match=re.escape(f"odd.run:2: {reason}")):
        read_trec_run(run)


def test_a_rank_written_as_a_whole_float_is_read_but_not_a_fraction(tmp_path):
    path = tmp_path / "floats.run"
    path.write_text("q Q0 a 1.0 2.0 t\nq Q0 b 2.00 1.0 t\n")
    assert read_trec_run(path) == {"q": {"a": 2.0, "b": 1.0}}
    path.write_text("q Q0 a 1.5 2.0 t\n")
    with pytest.raises(InputError, match=r"floats.run:1: rank '1.5' is not an integer"):
        read_trec_run(path)


def test_scores_that_contradict_the_ranks_are_warned_of_per_query_with_their_lines(tmp_path):
    """Ordered by score as trec_eval orders, but each query whose scores do not follow its ranks is named."""
    path = tmp_path / "ranks.run"
    path.write_text(
        "agree Q0 a 1 3.0 t\nagree Q0 c 2 2.0 t\nagree Q0 b 3 2.0 t\n"  # a tie ranked as trec_eval breaks it (doc id descending)
        "reversed Q0 a 1 1 t\nreversed Q0 b 2 2 t\nreversed Q0 c 3 3 t\n"  # the rank written as the score
        "ties Q0 a 1 0 t\nties Q0 b 2 0 t\n"  # every score 0: the order would be the doc ids'
        "single Q0 a 1 0 t\n"
        "samerank Q0 a 1 1.0 t\nsamerank Q0 b 1 2.0 t\nsamerank Q0 c 2 0.5 t\n"  # a shared rank orders nothing between its documents
        "tied Q0 z 1 5 t\ntied Q0 a 2 3 t\ntied Q0 b 3 3 t\n"  # a tie trec_eval breaks against the ranks: b before a
        "f32 Q0 a 1 1.00000001 t\nf32 Q0 b 2 1.0 t\n"  # apart as doubles, one 32-bit float: b before a
    )
    read = read_run_file(path)
    assert read.run["reversed"] == {"a": 1.0, "b": 2.0, "c": 3.0}  # scores kept: the ranks change nothing
    assert [(w.query, w.line) for w in read.order_warnings] == [("reversed", 4), ("ties", 7), ("tied", 14), ("f32", 16)]
    reversed_, ties, tied, f32 = read.order_warnings
    assert reversed_.describe(path) == f"{path}:4: query reversed: rank 1 (a, score 1.0) scores below rank 3 (c, score 3.0, line 6)"
    assert "all 2 documents have score 0.0" in ties.reason and ties.to_json() == {"query": "ties", "line": 7, "reason": ties.reason}
    assert tied.reason == "rank 2 (a, score 3.0) ties with rank 3 (b, score 3.0, line 15), so trec_eval puts b first (ties go by doc id, descending)"
    assert f32.reason.startswith("rank 1 (a, score 1.00000001) equals, as a 32-bit float (trec_eval's precision), rank 2 (b, score 1.0, line 17)")


def test_a_run_written_here_reads_back_without_warnings(tmp_path):
    path = write_trec_run({"q": {"a": 1.0, "b": 1.0, "c": 0.5, "d": 2.0}, "r": {"x": 0.0}}, tmp_path / "ok.run")
    assert read_run_file(path).order_warnings == ()


def test_a_utf8_byte_order_mark_is_skipped(tmp_path):
    path = tmp_path / "bom.run"
    path.write_bytes(b"\xef\xbb\xbfvf-1-1-1 Q0 vergil-1-1 1 1.0 t\n")
    assert read_trec_run(path, QIDS, DOCS) == {"vf-1-1-1": {"vergil-1-1": 1.0}}


@pytest.mark.parametrize("encoding, bom", [("utf-16", "FF FE"), ("utf-16-be", "FE FF")])
def test_a_utf16_file_is_named_as_such_with_the_iconv_that_converts_it(tmp_path, encoding, bom):
    path = tmp_path / "wide.run"
    path.write_bytes(("\ufeff" if encoding.endswith("be") else "").encode(encoding) + "vf-1-1-1 Q0 vergil-1-1 1 1.0 t\n".encode(encoding))
    with pytest.raises(InputError) as err:
        read_trec_run(path, QIDS, DOCS)
    text = str(err.value)
    assert f"wide.run:1: starts with a UTF-16 byte-order mark ({bom})" in text and "`iconv -f UTF-16 -t UTF-8 RUN > RUN.utf8`" in text
    assert "latin1" not in text


def test_a_folder_is_named_as_a_folder_not_as_missing(tmp_path):
    with pytest.raises(InputError, match="is a folder, not a run file") as err:
        read_trec_run(tmp_path)
    assert "not found" not in str(err.value)


def test_a_device_is_named_as_no_regular_file_not_as_missing():
    with pytest.raises(InputError, match="/dev/null: not a regular file") as err:
        read_trec_run("/dev/null")
    assert "not found" not in str(err.value)
