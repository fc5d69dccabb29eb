"""validate: passes on a clean build; each kind of damage is caught on its own, with exit status 1."""

from __future__ import annotations

import json
import re
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from fixtures.build.helpers import run_cli
from latin_intertext.benchmark import config_path, load_benchmark
from latin_intertext.errors import ValidationError
from latin_intertext.publish.validate import validate_dataset
from latin_intertext.publish.writer import schema, write_beir, write_checksums


@pytest.fixture
def copy(dataset_dir, tmp_path):
    dest = tmp_path / "ds"
    shutil.copytree(dataset_dir, dest)
    return dest


def rewrite_parquet(root, config, edit, *, reseal: bool) -> None:
    """Apply ``edit`` to the rows of a config; with ``reseal``, re-record checksums so only the content checks can object."""
    path = config_path(root, config)
    rows = pq.read_table(path).to_pylist()
    edit(rows)
    pq.write_table(pa.Table.from_pylist(rows, schema=schema(config)), path)
    if reseal:
        write_checksums(root)


def problems_via_cli(root, monkeypatch, capsys) -> tuple[list[str], str]:
    """Run `validate ROOT`, expect exit 1, and return the problems it listed (one per indented line) and stderr."""
    code, _out, err = run_cli(monkeypatch, capsys, "validate", root)
    assert code == 1
    head, _, listing = err.partition(" problem(s):\n")
    problems = [line.strip() for line in listing.splitlines() if line.startswith("  ")]
    assert head.endswith(f"{root}: {len(problems)}")
    return problems, err


NOT_V1 = "its records are not those of the v1.0.0 release"


def without_release(problems: list[str], *configs: str) -> list[str]:
    """The problems but the one each named config's records give (asserted there, in order): that check has tests of its own."""
    flagged = [p for p in problems if NOT_V1 in p]
    assert [p.split("/")[0] for p in flagged] == list(configs), flagged
    return [p for p in problems if p not in flagged]


def test_clean_build_is_valid(dataset_dir, monkeypatch, capsys):
    assert validate_dataset(dataset_dir) == []
    code, _out, err = run_cli(monkeypatch, capsys, "validate", dataset_dir)
    assert code == 0 and f"valid {dataset_dir}" in err


def test_a_folder_that_is_not_there_is_one_problem_said_plainly(tmp_path, monkeypatch, capsys):
    (tmp_path / "a-file").write_text("x")
    for path, why in ((tmp_path / "nowhere", "it does not exist"), (tmp_path / "a-file", "it is a file")):
        problems, _err = problems_via_cli(path, monkeypatch, capsys)
        assert problems == [f"{path} is not a folder ({why}); give the folder `latin-intertext build --out DIR` wrote"]


def test_deleted_corpus_row(copy, monkeypatch, capsys):
    rewrite_parquet(copy, "corpus", lambda rows: rows.pop(100), reseal=True)
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert "figures differ from the v1.0.0 card: corpus: card says 39675, data gives 39674" in problems
    assert "stats.json does not match the statistics computed from the data" in problems
    # the CLI lists exactly what validate_dataset finds: the row, every figure it changes, and the BEIR copy it leaves
    assert without_release(problems, "corpus") == without_release(validate_dataset(copy), "corpus") == [
        "figures differ from the v1.0.0 card: corpus: card says 39675, data gives 39674",
        "figures differ from the v1.0.0 card: authors: card says {'Ovid': 11995, 'Vergil': 9896, 'Statius': 9731, 'Lucan': 8053}, "
        "data gives {'Ovid': 11995, 'Vergil': 9895, 'Statius': 9731, 'Lucan': 8053}",
        "stats.json does not match the statistics computed from the data",
        "README.md: the card differs from the one the data and build_report.json give (8 line(s) differ: data gives '| Size | corpus=39674; queries=482; qrels=978 |'; "
        "card has '| Size | corpus=39675; queries=482; qrels=978 |'; data gives '| Vergil | Aeneid | 9,895 |'; card has '| Vergil | Aeneid | 9,896 |'); "
        "rebuild with `latin-intertext build` instead of editing the card",
        "beir/corpus.jsonl does not match the parquet configs (39675 lines, 39674 expected): 1 not in the parquet configs (first: vergil-1-101)",
    ]


@pytest.mark.parametrize(
    "edit, problem",
    [
        (lambda q: q.update(vf_book=2, id="vf-2-1-1"), "query 'vf-2-1-1': vf_book is 2; the card says it is always 1 in this release"),
        (lambda q: q.update(line_end=5), "query id 'vf-1-1-1' does not match vf_book/line_start/line_end (1, 1, 5)"),
        (lambda q: q.update(query_phrases="not json"), "query 'vf-1-1-1': query_phrases 'not json' is not a JSON list of strings"),
        (lambda q: q.update(query_phrases='{"a": 1}'), "query 'vf-1-1-1': query_phrases '{\"a\": 1}' is not a JSON list of strings"),
    ],
)
def test_a_query_that_breaks_the_card_is_named(copy, edit, problem):
    def first_query(rows):
        edit(rows[0])

    rewrite_parquet(copy, "queries", first_query, reseal=True)
    assert problem in validate_dataset(copy)


def test_a_query_without_qrels_is_named(copy):
    rewrite_parquet(copy, "qrels", lambda rows: rows.__setitem__(slice(None), [r for r in rows if r["query-id"] != "vf-1-1-1"]), reseal=True)
    assert "query 'vf-1-1-1' has no qrels" in validate_dataset(copy)
    with pytest.raises(ValidationError, match="query 'vf-1-1-1' has no qrels"):  # no metric would score it: refused, not dropped
        load_benchmark(copy)


@pytest.mark.parametrize(
    "config, edit, problem",
    [
        ("corpus", lambda rows: rows[1].update(id=rows[0]["id"]), "corpus: id 'vergil-1-1' occurs 2 times"),
        ("queries", lambda rows: rows.append(dict(rows[0], text="arma")), "queries: id 'vf-1-1-1' occurs 2 times"),
        ("corpus", lambda rows: rows[0].update(text="  "), "corpus 'vergil-1-1': its text is empty"),
        ("queries", lambda rows: rows[0].update(text=""), "queries 'vf-1-1-1': its text is empty"),
    ],
)
def test_what_would_be_merged_or_dropped_unsaid_is_refused_by_every_command_that_loads_the_data(copy, monkeypatch, capsys, config, edit, problem):
    """A second row of one id replaced the first as the benchmark was made, and `evaluate` scored the rest."""
    rewrite_parquet(copy, config, edit, reseal=True)
    with pytest.raises(ValidationError, match=re.escape(problem)):
        load_benchmark(copy)
    code, _out, err = run_cli(monkeypatch, capsys, "evaluate", "--dataset", copy, "--retriever", "bm25")
    assert code == 1 and problem in err
    assert problem in validate_dataset(copy)


def test_gold_parallels_and_works_are_checked_against_the_card(copy):
    rewrite_parquet(copy, "queries", lambda rows: rows[0].update(n_parallels=rows[0]["n_parallels"] + 1), reseal=True)
    assert "figures differ from the v1.0.0 card: gold_parallels: card says 945, data gives 946" in validate_dataset(copy)
    rewrite_parquet(copy, "corpus", lambda rows: [r.update(work="Georgics") for r in rows if r["author"] == "Vergil"], reseal=True)
    assert any(p.startswith("figures differ from the v1.0.0 card: works: card says") and "'Vergil': 'Georgics'" in p for p in validate_dataset(copy))


def test_deleted_corpus_row_unsealed_also_fails_checksum(copy, monkeypatch, capsys):
    rewrite_parquet(copy, "corpus", lambda rows: rows.pop(), reseal=False)
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert problems[-1] == "corpus/test.parquet: sha256 differs from the one recorded in SHA256SUMS (the file was altered or damaged)"
    assert "figures differ from the v1.0.0 card: corpus: card says 39675, data gives 39674" in problems


def test_edited_text(copy, monkeypatch, capsys):
    def edit(rows):
        rows[5]["text"] = rows[5]["text"].upper()

    rewrite_parquet(copy, "corpus", edit, reseal=False)
    problems, err = problems_via_cli(copy, monkeypatch, capsys)
    problems = without_release(problems, "corpus")
    assert len(problems) == 2 and problems[1].startswith("corpus/test.parquet: sha256 ")
    assert problems[0] == "beir/corpus.jsonl does not match the parquet configs (39675 lines, 39675 expected): 1 differ (first: vergil-1-6)"
    assert "corpus/test.parquet: sha256" in err


def test_edited_beir_text(copy, monkeypatch, capsys):
    path = copy / "beir" / "corpus.jsonl"
    path.write_bytes(path.read_bytes().replace(b"Arma virumque", b"Arma virique", 1))
    problems, err = problems_via_cli(copy, monkeypatch, capsys)
    assert len(problems) == 2 and problems[1].startswith("beir/corpus.jsonl: sha256 ")
    assert problems[0] == "beir/corpus.jsonl does not match the parquet configs (39675 lines, 39675 expected): 1 differ (first: vergil-1-1)"


def test_duplicated_id(copy, monkeypatch, capsys):
    def edit(rows):
        rows[1]["id"] = rows[0]["id"]

    rewrite_parquet(copy, "corpus", edit, reseal=True)
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert "corpus: id 'vergil-1-1' occurs 2 times" in problems
    # and exactly what follows from it: the renamed row's id no longer names its line, the BEIR copy differs
    assert without_release(problems, "corpus") == without_release(validate_dataset(copy), "corpus") == [
        "corpus: id 'vergil-1-1' occurs 2 times",
        "corpus id 'vergil-1-1' does not match author/book/line (Vergil, 1, 2)",
        "beir/corpus.jsonl does not match the parquet configs (39675 lines, 39675 expected): 1 missing (first: vergil-1-1); 1 not in the parquet configs (first: vergil-1-2)",
    ]


def test_duplicated_query_id(copy, monkeypatch, capsys):
    rewrite_parquet(copy, "queries", lambda rows: rows.append(dict(rows[0])), reseal=True)
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert "queries: id 'vf-1-1-1' occurs 2 times" in problems


def test_qrel_pointing_nowhere(copy, monkeypatch, capsys):
    def edit(rows):
        rows[0]["corpus-id"] = "vergil-99-1"

    rewrite_parquet(copy, "qrels", edit, reseal=True)
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert "qrels row 1: corpus-id 'vergil-99-1' is not in the corpus" in problems
    # and nothing else but the BEIR qrels that still hold the original row
    assert without_release(problems, "qrels") == without_release(validate_dataset(copy), "qrels") == [
        "qrels row 1: corpus-id 'vergil-99-1' is not in the corpus",
        "beir/qrels/test.tsv does not match the parquet configs (979 lines, 979 expected): 1 missing (first: vf-1-1-1 vergil-99-1); 1 not in the parquet configs (first: vf-1-1-1 vergil-1-1)",
    ]
    # every command that loads the dataset refuses it too, before any work: the row would count as a miss unseen
    with pytest.raises(ValidationError, match=r"qrels/test.parquet: qrels row 1: corpus-id 'vergil-99-1' is not in the corpus"):
        load_benchmark(copy)
    code, _out, err = run_cli(monkeypatch, capsys, "evaluate", "--dataset", copy, "--retriever", "bm25")
    assert code == 1 and "corpus-id 'vergil-99-1' is not in the corpus" in err


def test_qrel_unknown_query_and_bad_score(copy, monkeypatch, capsys):
    def edit(rows):
        rows[2]["query-id"] = "vf-1-999-999"
        rows[3]["score"] = 0.5

    rewrite_parquet(copy, "qrels", edit, reseal=True)
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert "qrels row 3: query-id 'vf-1-999-999' is not a query" in problems
    assert "qrels row 4: score 0.5 should be 1.0" in problems


def test_tampered_checksum(copy, monkeypatch, capsys):
    sums = copy / "SHA256SUMS"
    lines = sums.read_text().splitlines()
    _digest, name = lines[0].split("  ")
    lines[0] = f"{'0' * 64}  {name}"
    sums.write_text("\n".join(lines) + "\n")
    problems, err = problems_via_cli(copy, monkeypatch, capsys)
    assert problems == [f"{name}: sha256 differs from the one recorded in SHA256SUMS (the file was altered or damaged)"]
    assert problems[0] in err


def test_missing_and_extra_files(copy, monkeypatch, capsys):
    (copy / "beir" / "queries.jsonl").unlink()
    (copy / "notes.txt").write_text("hi")
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert sorted(problems) == ["beir/queries.jsonl: listed in SHA256SUMS but missing", "beir/queries.jsonl: missing", "notes.txt: not listed in SHA256SUMS"]


def test_wrong_schema(copy, monkeypatch, capsys):
    path = config_path(copy, "qrels")
    table = pq.read_table(path)
    pq.write_table(table.set_column(2, "score", pa.array([int(s) for s in table["score"].to_pylist()], pa.int64())), path)
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert problems[0] == f"{path}: column 'score' is int64 where the build writes double"


def test_score_as_strings_resealed_is_named_alike_by_validate_and_load(copy, monkeypatch, capsys):
    """One schema check serves both: validate lists the column, load (hence stats, evaluate) refuses with the same words."""
    path = config_path(copy, "qrels")
    table = pq.read_table(path)
    pq.write_table(table.set_column(2, "score", pa.array([str(s) for s in table["score"].to_pylist()])), path)
    write_checksums(copy)
    problem = f"{path}: column 'score' is string where the build writes double"
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert problems == [problem]
    with pytest.raises(ValidationError, match=re.escape(problem)):
        load_benchmark(copy)


def test_malformed_checksum_line_is_named(copy, monkeypatch, capsys):
    sums = copy / "SHA256SUMS"
    lines = sums.read_text().splitlines()
    sums.write_text("\n".join(lines[:2] + ["garbage"] + lines[2:]) + "\n")
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert problems == ["SHA256SUMS:3: malformed line 'garbage' (expected '<64 hex digits>  <path>')"]


def test_beir_qrels_line_deleted_and_resealed(copy, monkeypatch, capsys):
    tsv = copy / "beir" / "qrels" / "test.tsv"
    lines = tsv.read_text().splitlines()
    deleted = lines.pop(5)
    tsv.write_text("\n".join(lines) + "\n")
    write_checksums(copy)
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    query_id, corpus_id, _score = deleted.split("\t")
    assert problems == [f"beir/qrels/test.tsv does not match the parquet configs (978 lines, 979 expected): 1 missing (first: {query_id} {corpus_id})"]


def test_beir_records_added_and_dropped_are_listed(copy, monkeypatch, capsys):
    queries = copy / "beir" / "queries.jsonl"
    lines = queries.read_text().splitlines()
    queries.write_text("\n".join(lines[1:] + [lines[1].replace('"vf-1-', '"vf-9-', 1)]) + "\n")
    corpus = copy / "beir" / "corpus.jsonl"
    corpus.write_text(corpus.read_text().replace("\n", "\n\n", 1))
    write_checksums(copy)
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    added = json.loads(lines[1])["_id"].replace("vf-1-", "vf-9-", 1)
    assert problems == [
        "beir/corpus.jsonl does not match the parquet configs (39676 lines, 39675 expected): 1 not in the parquet configs (first: (blank line))",
        f"beir/queries.jsonl does not match the parquet configs (482 lines, 482 expected): 1 missing (first: vf-1-1-1); 1 not in the parquet configs (first: {added})",
    ]


def test_a_visible_figure_edited_in_the_card_is_caught(copy, monkeypatch, capsys):
    """The card is checked word for word against the one the data renders, not only its hidden stats comment."""
    card = copy / "README.md"
    text = card.read_text(encoding="utf-8")
    assert "| Ovid | Metamorphoses | 11,995 |" in text
    card.write_text(text.replace("| Ovid | Metamorphoses | 11,995 |", "| Ovid | Metamorphoses | 99 |"), encoding="utf-8")
    write_checksums(copy)
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert len(problems) == 1 and problems[0].startswith("README.md: the card differs") and "'| Ovid | Metamorphoses | 99 |'" in problems[0]
    assert "'| Ovid | Metamorphoses | 11,995 |'" in problems[0] and "(2 line(s) differ" in problems[0]  # both sides of the one changed line


def test_a_missing_build_report_is_named(copy, monkeypatch, capsys):
    (copy / "build_report.json").unlink()
    write_checksums(copy)
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert problems == [problems[0]] and problems[0].startswith("build_report.json: unreadable or incomplete")


@pytest.mark.parametrize(
    "config, edit, problem",
    [
        ("qrels", lambda rows: rows[0].update(score=float("nan")), "qrels row 1: score nan is not a number"),
        ("queries", lambda rows: rows[2].update(query_phrases=None), "queries row 3: query_phrases is null"),
        ("corpus", lambda rows: rows[9].update(text=None), "corpus row 10: text is null"),
    ],
)
def test_nulls_and_nan_resealed_are_named_by_validate_and_load_not_a_traceback(copy, monkeypatch, capsys, config, edit, problem):
    rewrite_parquet(copy, config, edit, reseal=True)
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert problem in problems[0]
    with pytest.raises(ValidationError, match=re.escape(problem)):
        load_benchmark(copy)


def test_a_score_that_is_no_grade_is_refused_by_load_not_read_as_0(copy):
    rewrite_parquet(copy, "qrels", lambda rows: rows[3].update(score=0.5), reseal=True)
    with pytest.raises(ValidationError, match=re.escape("qrels row 4: score 0.5 is not a whole number (a relevance grade)")):
        load_benchmark(copy)
    assert "qrels row 4: score 0.5 should be 1.0" in validate_dataset(copy)


def test_checksums_of_files_outside_the_folder_are_refused(copy, monkeypatch, capsys):
    sums = copy / "SHA256SUMS"
    sums.write_text(sums.read_text() + f"{'0' * 64}  ../../etc/passwd\n{'0' * 64}  /etc/hostname\n")
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    n = len(sums.read_text().splitlines())
    assert problems == [
        f"SHA256SUMS:{n - 1}: '../../etc/passwd' lies outside the dataset folder (absolute, or through ..); it lists only the folder's own files",
        f"SHA256SUMS:{n}: '/etc/hostname' lies outside the dataset folder (absolute, or through ..); it lists only the folder's own files",
    ]


def test_load_refuses_a_folder_whose_listed_stats_json_is_gone(copy):
    (copy / "stats.json").unlink()
    with pytest.raises(ValidationError, match=re.escape(f"{copy / 'stats.json'}: listed in SHA256SUMS but missing")):
        load_benchmark(copy)


@pytest.mark.parametrize(
    "config, edit",
    [
        ("corpus", lambda rows: rows[0].update(text=rows[0]["text"].replace("oris", "ORIS"))),
        ("queries", lambda rows: rows[0].update(text=rows[0]["text"] + " x")),
        ("qrels", lambda rows: rows[0].update({"corpus-id": "vergil-1-2"})),  # a parallel moved to the next line
    ],
)
def test_an_edit_made_alike_in_both_layouts_and_resealed_is_still_not_v1_0_0(copy, monkeypatch, capsys, config, edit):
    """The folder agrees with itself (parquet, BEIR, card and checksums), yet its records are not the release's."""
    rewrite_parquet(copy, config, edit, reseal=False)
    write_beir(load_benchmark(copy, verify=False), copy / "beir")
    write_checksums(copy)
    problems, _err = problems_via_cli(copy, monkeypatch, capsys)
    assert len(problems) == 1 and problems[0].startswith(f"{config}/test.parquet: {NOT_V1} (records sha256 ")
    assert problems[0].endswith("rebuild it from the pinned sources with `latin-intertext build`")


def test_a_folder_whose_records_are_not_the_release_s_is_scored_but_never_called_v1_0_0(copy, dataset_dir, tmp_path, monkeypatch, capsys):
    """One qrels row dropped and the checksums resealed: the folder still loads and scores (a user may mean to), but
    no report calls its figures v1.0.0's, and MTEB files its results under another revision than the release's."""
    from latin_intertext.evaluate.mteb_task import MODIFIED_REVISION, LatinEpicIntertextualityRetrieval

    assert load_benchmark(dataset_dir, release_check=True).version_label == "1.0.0" and load_benchmark(dataset_dir, release_check=True).changed_configs == []
    assert load_benchmark(dataset_dir).records == {}  # hashed only where a report needs it, not on every load (search)
    rows = pq.read_table(config_path(copy, "qrels")).to_pylist()
    twice = next(i for i, row in enumerate(rows) if sum(r["query-id"] == row["query-id"] for r in rows) > 1)  # its query keeps a qrel
    rewrite_parquet(copy, "qrels", lambda rows: rows.pop(twice), reseal=True)
    bench = load_benchmark(copy, release_check=True)
    assert bench.changed_configs == ["qrels"] and bench.version_label == "not 1.0.0: its qrels records differ from the release's"
    run = tmp_path / "one.run"
    run.write_text(f"{rows[twice]['query-id']} Q0 {rows[twice]['corpus-id']} 1 1.0 mine\n")
    code, _out, err = run_cli(monkeypatch, capsys, "evaluate", "--dataset", copy, "--run", run, "--save-json", tmp_path / "r.json", "--resamples", "100")
    assert code == 0
    assert f"warning: {copy}: its qrels records are not those of the v1.0.0 release, so its figures are not v1.0.0's" in " ".join(err.split())
    assert json.loads((tmp_path / "r.json").read_text())["config"]["dataset_version"] == bench.version_label
    code, out, _err = run_cli(monkeypatch, capsys, "stats", copy)
    assert code == 0 and "(dataset not 1.0.0: its qrels records differ from the release's)" in " ".join(out.split())
    task = LatinEpicIntertextualityRetrieval(copy)
    with pytest.warns(UserWarning, match="its qrels records are not those of v1.0.0"):
        task.load_data()
    assert task.metadata.revision == MODIFIED_REVISION == "v1.0.0-modified"
    release = LatinEpicIntertextualityRetrieval(dataset_dir)
    release.load_data()
    assert release.metadata.revision == "v1.0.0"
