"""Data-stage inputs and outputs: build never replaces what it did not write; damaged datasets, bad options and
bad destinations are clear errors (exit 1, no traceback) that name the file and say how to fix it."""

from __future__ import annotations

import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from fixtures.build.helpers import all_files, block_network, run_cli, tiny_mirror  # noqa: F401 (fixture)
from latin_intertext.benchmark import config_path, load_benchmark
from latin_intertext.errors import LatinIntertextError, ValidationError
from latin_intertext.publish.push import check_repo_id
from latin_intertext.publish.validate import validate_dataset
from latin_intertext.benchmark import BUILD_FILES
from latin_intertext.publish.writer import write_checksums
from latin_intertext.sources.manifest import SOURCES_ENV


@pytest.fixture
def copy(dataset_dir, tmp_path):
    dest = tmp_path / "ds"
    shutil.copytree(dataset_dir, dest)
    return dest


def fails_cleanly(monkeypatch, capsys, *args) -> str:
    """Run the command, expect exit 1 with an error and no traceback; return stderr."""
    code, out, err = run_cli(monkeypatch, capsys, *args)
    assert code == 1 and "error:" in err and "Traceback" not in err, err
    return err


# --- 1. build --out never replaces what build did not write ------------------------------------------


def test_build_refuses_a_folder_of_user_files(tiny_mirror, tmp_path, monkeypatch, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("years of work")
    err = fails_cleanly(monkeypatch, capsys, "build", "--sources", tiny_mirror, "--out", out)
    assert f"{out} is not empty and does not hold a built dataset; give a new or empty folder" in err
    assert [p.name for p in out.iterdir()] == ["thesis.tex"] and (out / "thesis.tex").read_text() == "years of work"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "tiny-sources"]  # no half-written sibling


def test_build_refuses_a_file(tiny_mirror, tmp_path, monkeypatch, capsys):
    out = tmp_path / "notes.txt"
    out.write_text("keep me")
    err = fails_cleanly(monkeypatch, capsys, "build", "--sources", tiny_mirror, "--out", out)
    assert f"{out} is a file; give a folder for the built dataset" in err
    assert out.read_text() == "keep me"


def test_build_into_an_empty_folder_then_over_itself(tiny_mirror, tmp_path, monkeypatch, capsys):
    out = tmp_path / "empty"
    out.mkdir()
    for _ in range(2):  # a new build may replace an earlier one
        code, _out, err = run_cli(monkeypatch, capsys, "build", "--sources", tiny_mirror, "--out", out)
        assert code == 0, err
        assert (out / "SHA256SUMS").is_file() and (out / "stats.json").is_file()


def test_build_replaces_a_damaged_build(copy, tiny_mirror, monkeypatch, capsys):
    """The fix every damaged-dataset error suggests (`build --out DIR`) works on a build missing SHA256SUMS, with a truncated parquet."""
    (copy / "SHA256SUMS").unlink()
    truncate(config_path(copy, "qrels"))
    code, _out, err = run_cli(monkeypatch, capsys, "build", "--sources", tiny_mirror, "--out", copy)
    assert code == 0, err
    assert set(all_files(copy)) == BUILD_FILES
    load_benchmark(copy)  # whole again, checksums and all


def readme_only(out, dataset_dir) -> None:
    out.mkdir()
    (out / "README.md").write_text("my project")


def damaged_build_with_notes(out, dataset_dir) -> None:
    shutil.copytree(dataset_dir, out)
    (out / "SHA256SUMS").unlink()
    (out / "beir" / "notes.txt").write_text("years of work")


@pytest.mark.parametrize("make", [readme_only, damaged_build_with_notes])
def test_build_refuses_a_folder_with_anything_of_the_users(make, dataset_dir, tiny_mirror, tmp_path, monkeypatch, capsys):
    out = tmp_path / "mine"
    make(out, dataset_dir)
    before = all_files(out)
    err = fails_cleanly(monkeypatch, capsys, "build", "--sources", tiny_mirror, "--out", out)
    assert f"{out} is not empty and does not hold a built dataset" in err
    assert all_files(out) == before


# --- 2. a damaged dataset folder is a clear error, not a crash -------------------------------------


def truncate(path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def drop_score(root) -> None:
    path = config_path(root, "qrels")
    pq.write_table(pq.read_table(path).drop_columns(["score"]), path)


def score_as_strings(root) -> None:
    path = config_path(root, "qrels")
    table = pq.read_table(path)
    pq.write_table(table.set_column(2, "score", pa.array([str(s) for s in table["score"].to_pylist()])), path)


@pytest.mark.parametrize(
    ("damage", "name", "says"),
    [
        (lambda root: truncate(config_path(root, "corpus")), "corpus/test.parquet", "not a readable parquet file"),
        (lambda root: truncate(root / "stats.json"), "stats.json", "not valid JSON"),
        (drop_score, "qrels/test.parquet", "column 'score' is missing"),
        (score_as_strings, "qrels/test.parquet", "column 'score' is string where the build writes double"),
    ],
    ids=["truncated-parquet", "truncated-stats", "qrels-without-score", "score-as-strings"],
)
def test_damaged_dataset_is_a_clear_error(copy, monkeypatch, capsys, damage, name, says):
    damage(copy)
    write_checksums(copy)  # resealed: the damage itself must be caught, not only the checksum
    with pytest.raises(ValidationError, match="latin-intertext build"):
        load_benchmark(copy)
    err = fails_cleanly(monkeypatch, capsys, "stats", copy)
    assert f"{copy / name}: {says}" in err
    assert f"latin-intertext build --out {copy}" in err and f"latin-intertext validate {copy}" in err
    code, _out, err = run_cli(monkeypatch, capsys, "validate", copy)  # validate lists it too, without crashing
    assert code == 1 and f"{copy / name}: " in err and "Traceback" not in err


# --- 3. files that fail their SHA256SUMS are not used ----------------------------------------------


def test_altered_file_is_refused_by_evaluate_and_stats(copy, monkeypatch, capsys):
    path = config_path(copy, "qrels")
    rows = pq.read_table(path)
    pq.write_table(rows.slice(1), path)  # one qrel fewer, checksum not updated
    for args in (("stats", copy), ("evaluate", "--dataset", copy, "--run", copy / "any.run")):
        err = fails_cleanly(monkeypatch, capsys, *args)
        assert f"{path}: sha256 differs from the one recorded in SHA256SUMS" in err
        assert f"latin-intertext build --out {copy}" in err


def test_missing_checksums_are_refused(copy):
    (copy / "SHA256SUMS").unlink()
    with pytest.raises(ValidationError, match=r"SHA256SUMS: missing, so the data cannot be checked\. Rebuild"):
        load_benchmark(copy)
    assert validate_dataset(copy) == ["SHA256SUMS: missing, so the data cannot be checked"]  # the same check, listed


# --- 4 and 8. fetch: unknown collection, --dest that is a file -------------------------------------


def test_fetch_unknown_collection_lists_the_valid_ones(monkeypatch, capsys):
    err = fails_cleanly(monkeypatch, capsys, "fetch", "--collection", "bogus")
    assert "Unknown source collection 'bogus'; choose one of naacl2021, tesserae-la (or all" in err


def test_fetch_dest_must_be_a_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(SOURCES_ENV, raising=False)
    attempts = block_network(monkeypatch)
    afile = tmp_path / "afile"
    afile.write_text("x")
    err = fails_cleanly(monkeypatch, capsys, "fetch", "--dest", afile)
    assert f"{afile} is a file; give --dest a folder" in err
    err = fails_cleanly(monkeypatch, capsys, "fetch", "--dest", afile / "cache")
    assert f"{afile} is a file, not a folder" in err
    assert attempts == [] and afile.read_text() == "x"


def test_fetch_dest_with_a_mirror_is_refused(tmp_path, monkeypatch, capsys, sources_dir):
    """With a mirror nothing is downloaded, so a --dest would be ignored: say so instead."""
    monkeypatch.setenv(SOURCES_ENV, str(sources_dir))
    err = fails_cleanly(monkeypatch, capsys, "fetch", "--dest", tmp_path / "cache")
    assert "--dest" in err and "would be ignored" in err and SOURCES_ENV in err
    assert not (tmp_path / "cache").exists()


# --- 7. push --repo-id ------------------------------------------------------------------------------


def test_push_rejects_a_bad_repo_id(dataset_dir, monkeypatch, capsys):
    err = fails_cleanly(monkeypatch, capsys, "push", dataset_dir, "--dry-run", "--repo-id", "not a repo id")
    assert "--repo-id 'not a repo id' is not a Hugging Face repo id: give owner/name" in err
    assert "would upload" not in err


@pytest.mark.parametrize("repo_id", ["name-only", "a/b/c", "owner/", "-owner/name", "owner/name.", "own--er/name", "owner/na..me", "owner/name.git", "owner/" + "n" * 97, "ówner/name"])
def test_repo_id_format(repo_id):
    with pytest.raises(LatinIntertextError, match="is not a Hugging Face repo id"):
        check_repo_id(repo_id)


def test_good_repo_ids_pass():
    for repo_id in ("PoetryMTEB/LatinEpicIntertextualityRetrieval", "user_1/my.data-set", "a/" + "b" * 96):
        assert check_repo_id(repo_id) == repo_id


def test_stats_prints_the_cards_figures(dataset_dir, capsys):
    """`stats` (the last step of `dev.sh run` before training) as a table and as JSON, read from the built folder."""
    import json

    from latin_intertext.cli import main

    assert main(["stats", str(dataset_dir)]) == 0
    table = capsys.readouterr().out
    assert all(figure in table for figure in ("39,675", "482", "978", "2.03", "9,896", "8,053", "11,995", "9,731"))
    assert main(["stats", str(dataset_dir), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["corpus"], figures["queries"], figures["qrels"], figures["gold_parallels"]) == (39675, 482, 978, 945)


@pytest.mark.parametrize("holds_user_files", [False, True])
def test_a_folder_that_is_no_dataset_gets_advice_that_works(tmp_path, monkeypatch, capsys, holds_user_files):
    """`build --out DIR` is the fix only where build may write: never over a folder holding the user's own files."""
    folder = tmp_path / "somewhere"
    folder.mkdir()
    if holds_user_files:
        (folder / "notes.txt").write_text("mine")
    err = fails_cleanly(monkeypatch, capsys, "stats", "--dataset", folder)
    assert f"{folder} is not a built dataset folder" in err
    if holds_user_files:
        assert "never replaces" in err and "--dataset DIR" in err and f"build --out {folder}" not in err
    else:
        assert f"latin-intertext build --out {folder}" in err
