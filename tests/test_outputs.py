"""outputs.py: symlinked outputs keep their link, files keep their mode, an output never replaces an input,
a set of files lands whole or the old ones come back, and what killed runs left beside a folder is removed."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from latin_intertext import outputs
from latin_intertext.cli import main
from latin_intertext.outputs import OutputError, atomic_dir, atomic_files, check_command_outputs, check_output_dir, check_outputs

from conftest import WRITERS, squash

NOT_RUNNING = 2**22 + 1  # above the largest pid_max of Linux: no process has it


def _never(*_args, **_kwargs):
    raise AssertionError("the work started before the outputs were checked")


# -- 1. a symlinked output keeps its link --------------------------------------


def test_a_symlinked_output_keeps_its_link_and_its_file_is_replaced(tmp_path):
    (tmp_path / "store").mkdir()
    real = tmp_path / "store" / "r.json"
    real.write_text("old")
    link = tmp_path / "r.json"
    link.symlink_to(real)
    with atomic_files(link) as (tmp,):
        tmp.write_text("new")
    assert link.is_symlink() and link.resolve() == real and real.read_text() == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json", "store"] and [p.name for p in real.parent.iterdir()] == ["r.json"]


# -- 2. modes: kept for an existing file, the umask's for a new one; a read-only file refused ------


def test_an_existing_file_keeps_its_mode_and_a_new_one_follows_the_umask(tmp_path):
    private = tmp_path / "private.txt"
    private.write_text("old")
    private.chmod(0o600)
    old_umask = os.umask(0o027)
    try:
        with atomic_files(private, tmp_path / "new.txt") as (a, b):
            a.write_text("new")
            b.write_text("new")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(private.stat().st_mode) == 0o600 and private.read_text() == "new"
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640


def test_an_output_file_that_is_not_writable_is_refused(tmp_path, monkeypatch):
    locked = tmp_path / "locked.json"
    locked.write_text("keep")
    locked.chmod(0o444)
    if os.geteuid() == 0:  # root may write anything: make os.access answer as it would for a user
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if (Path(p) == locked and mode == os.W_OK) else real_access(p, mode, **kw))
    with pytest.raises(OutputError, match=r"locked\.json is not writable; make it writable \(chmod u\+w\)"):
        check_outputs(locked, option="--save-json")
    assert locked.read_text() == "keep"


# -- 3. an output that is an input of the same command -------------------------


def test_check_outputs_refuses_an_input_even_through_a_link(tmp_path):
    run = tmp_path / "a.run"
    run.write_text("q Q0 d 1 1.0 t\n")
    (tmp_path / "link.run").symlink_to(run)
    for out in (run, tmp_path / "link.run"):
        with pytest.raises(OutputError, match=r"is read by this command; write the output elsewhere"):
            check_outputs(out, inputs=[None, run])
    assert check_outputs(tmp_path / "b.json", inputs=[run]) == [tmp_path / "b.json"]


def test_check_outputs_refuses_a_path_inside_an_input_folder(tmp_path):
    dataset = tmp_path / "ds"
    (dataset / "qrels").mkdir(parents=True)
    with pytest.raises(OutputError, match=r"test\.parquet lies in .*ds, which this command reads; write the --save-json outside it"):
        check_outputs(dataset / "qrels" / "test.parquet", option="--save-json", inputs=[dataset])
    assert check_outputs(tmp_path / "ds.json", inputs=[dataset]) == [tmp_path / "ds.json"]  # beside it is fine


def test_no_output_lands_among_the_cache_s_built_data_models_and_indexes_but_what_makes_them(tmp_path, monkeypatch, capsys):
    """`search --csv HOME/models/evidence_ranker.txt` once replaced the search model with a CSV."""
    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(tmp_path / "home"))
    model = tmp_path / "home" / "models" / "evidence_ranker.txt"
    model.parent.mkdir(parents=True)
    model.write_text("model")
    for kept in ("datasets", "models", "indexes"):
        with pytest.raises(OutputError, match=rf"lies in .*home/{kept}, where the cache keeps the built data, models and indexes"):
            check_command_outputs(tmp_path / "home" / kept / "sub" / "out.csv", option="--csv")
    assert check_outputs(model) == [model]  # what makes them writes there: train-ranker its model, the caches their files
    assert check_command_outputs(tmp_path / "home" / "hits.csv") == [tmp_path / "home" / "hits.csv"]  # the cache's own root is not kept
    assert main(["search", "arma virumque cano", "--csv", str(model)]) == 1
    assert squash("where the cache keeps the built data, models and indexes") in squash(capsys.readouterr().err)
    assert model.read_text() == "model"


@pytest.mark.parametrize("argv", [*WRITERS, ["evaluate", "--retriever", "bm25", "--save-run", "{dir}/test.parquet"]])
def test_commands_refuse_to_write_into_the_dataset_they_read(tmp_path, capsys, argv):
    """`evaluate --save-run DS/qrels/test.parquet` once replaced the qrels with a run file."""
    ds, a, b = tmp_path / "ds", tmp_path / "a.run", tmp_path / "b.run"
    for path in (a, b):
        path.write_text("q Q0 d 1 1.0 t\n")
    (ds / "qrels").mkdir(parents=True)
    (ds / "qrels" / "test.parquet").write_text("qrels")
    assert main([arg.format(a=a, b=b, dir=ds / "qrels") for arg in argv] + ["--dataset", str(ds)]) == 1
    assert "whichthiscommandreads" in squash(capsys.readouterr().err)
    assert [p.name for p in (ds / "qrels").iterdir()] == ["test.parquet"] and (ds / "qrels" / "test.parquet").read_text() == "qrels"


def test_a_folder_where_nothing_can_be_created_is_refused_even_for_root(tmp_path, monkeypatch):
    """os.access says yes to root on /proc; creating a file there is tried instead."""
    import tempfile

    def refuse(*_args, dir=None, **_kwargs):
        raise PermissionError(13, "Permission denied", str(dir))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(OutputError, match=r"the folder .* is not writable; choose another place for the --save-run"):
        check_outputs(tmp_path / "x.run", option="--save-run")
    # an output folder is named as given, with no file of the check's own in the message (once, `DIR/.probe`)
    for out, folder in ((tmp_path / "ds", tmp_path), (tmp_path, tmp_path)):
        with pytest.raises(OutputError) as err:
            check_output_dir(out, None, "built dataset")
        assert str(err.value) == f"{out}: the folder {folder} is not writable; choose another place for the built dataset."
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["compare", "{a}", "{b}", "--save-json", "{a}"],
        ["compare", "{a}", "{b}", "--save-json", "{b}"],
        ["leaderboard", "--run", "{a}", "--out", "{a}"],
        ["evaluate", "--run", "{a}", "--save-json", "{a}"],
    ],
)
def test_commands_refuse_to_write_over_a_run_they_read(tmp_path, capsys, argv):
    a, b = tmp_path / "a.run", tmp_path / "b.run"
    for path in (a, b):
        path.write_text("q Q0 d 1 1.0 t\n")
    assert main([arg.format(a=a, b=b) for arg in argv] + ["--dataset", str(tmp_path / "nowhere")]) == 1
    assert "isreadbythiscommand" in squash(capsys.readouterr().err)
    assert a.read_text() == b.read_text() == "q Q0 d 1 1.0 t\n"


def test_figures_refuses_a_readme_among_its_results_before_the_run(tmp_path, monkeypatch, capsys):
    from latin_intertext.cli.figures import BLOCKS

    monkeypatch.setattr("latin_intertext.cli.figures._run", _never)
    readme = tmp_path / "results" / "leaderboard.md"
    readme.parent.mkdir()
    readme.write_text("".join(f"<!-- figures:{n} -->\nold\n<!-- /figures:{n} -->\n" for n in BLOCKS))
    assert main(["figures", "--readme", str(readme), "--out-dir", str(tmp_path / "results")]) == 1
    assert "leaderboard.mdisreadbythiscommand" in squash(capsys.readouterr().err)


# -- 4. train-ranker --out with ~ ----------------------------------------------


def test_train_ranker_reports_the_size_of_a_model_saved_under_home(tmp_path, monkeypatch, capsys):
    from types import SimpleNamespace

    from latin_intertext.retrieve.ranker import EvidenceRanker

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr("latin_intertext.benchmark.load_benchmark", lambda dataset, **_: SimpleNamespace(corpus=[], queries=[None, None], changed_configs=[]))
    monkeypatch.setattr(EvidenceRanker, "index", lambda self, corpus: self)
    monkeypatch.setattr(EvidenceRanker, "fit", lambda self, bench: setattr(self, "unlearnable_queries_", ["vf-1-5"]) or self)
    monkeypatch.setattr(EvidenceRanker, "save", lambda self, path: Path(path).write_text("tree"))
    assert main(["train-ranker", "--out", "~/m.txt", "--dataset", str(tmp_path / "ds")]) == 0
    said = squash(capsys.readouterr().err)
    assert (tmp_path / "m.txt").read_text() == "tree" and "(4bytes)" in said
    assert "1ofthe2querieshavenorelevantlineamongtheircandidates,sotheyteachtherankernothing:vf-1-5" in said


# -- 5. all or none: the old files come back -----------------------------------


def test_atomic_files_puts_the_old_files_back_when_a_later_one_cannot_be_replaced(tmp_path):
    a, b = tmp_path / "a.md", tmp_path / "b.png"
    a.write_text("old a")
    b.write_text("old b")
    with pytest.raises(OSError):
        with atomic_files(a, b) as (ta, tb):
            ta.write_text("new a")
            tb.write_text("new b")
            b.unlink()
            b.mkdir()  # b can no longer be replaced by a file, after a has been
    assert a.read_text() == "old a" and b.is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md", "b.png"]


def test_atomic_files_removes_a_new_file_when_a_later_one_cannot_be_written(tmp_path):
    """All land or none: a model file that did not exist before is not left without its sidecar."""
    a, b = tmp_path / "model.txt", tmp_path / "model.json"
    with pytest.raises(OSError):
        with atomic_files(a, b) as (ta, tb):
            ta.write_text("new model")
            tb.write_text("new sidecar")
            b.mkdir()  # b can no longer be replaced by a file, after a has been written
    assert not a.exists() and b.is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.json"]


def test_atomic_dir_restores_the_old_folder_when_the_new_one_cannot_take_its_place(tmp_path, monkeypatch):
    out = tmp_path / "idx"
    out.mkdir()
    (out / "meta.json").write_text("old")
    real_replace = os.replace

    def failing_replace(src, dst):
        if ".partial-" in Path(src).name:
            raise OSError("disk full")
        real_replace(src, dst)

    monkeypatch.setattr(outputs.os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        with atomic_dir(out) as tmp:
            (tmp / "meta.json").write_text("new")
    assert (out / "meta.json").read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["idx"]


# -- 6. what killed runs left beside a folder ----------------------------------


def test_atomic_dir_removes_what_killed_runs_left_beside_the_folder(tmp_path):
    stale = [tmp_path / ".idx.partial-k2j3h4", tmp_path / f".idx.old-{NOT_RUNNING}-x9"]
    for folder in stale:
        (folder / "idx").mkdir(parents=True)
        (folder / "idx" / "big.npz").write_bytes(b"x" * 100)
    (tmp_path / ".idx.partial-stale-file").write_text("x")
    kept = [tmp_path / f".idx.partial-{os.getpid()}-live", tmp_path / ".idxx.partial-other", tmp_path / "notes.txt"]
    for path in kept:
        path.write_text("mine")
    with atomic_dir(tmp_path / "idx") as tmp:
        (tmp / "meta.json").write_text("{}")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["idx", *(p.name for p in kept)])
    assert (tmp_path / "idx" / "meta.json").read_text() == "{}"


def test_atomic_files_removes_what_killed_runs_left_beside_the_file(tmp_path):
    """A run killed mid-write leaves ``.r.run.partial-PID-*`` (megabytes of a run) and ``.r.run.old-PID-*``; the next
    write of the same file clears them, and leaves a live run's and other files' alone."""
    stale = [tmp_path / f".r.run.partial-{NOT_RUNNING}-ab", tmp_path / f".r.run.old-{NOT_RUNNING}-cd"]
    kept = [tmp_path / f".r.run.partial-{os.getpid()}-live", tmp_path / f".other.run.partial-{NOT_RUNNING}-x", tmp_path / ".r.run.partial-scratch"]  # no PID: maybe another writer's
    for path in stale + kept:
        path.write_text("x" * 100)
    with atomic_files(tmp_path / "r.run") as (tmp,):
        tmp.write_text("q Q0 d 1 1.0 r\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["r.run", *(p.name for p in kept)])


@pytest.mark.parametrize("special", ["fifo", "device"])
def test_an_output_that_is_a_pipe_or_a_device_is_refused_not_replaced(tmp_path, special):
    """Written whole beside its target and renamed over it, an output would replace /dev/null or a named pipe by a file."""
    target = tmp_path / "out.json"
    if special == "fifo":
        os.mkfifo(target)
    else:
        target = Path("/dev/null")
    with pytest.raises(OutputError, match="is not a regular file \\(a device, a pipe or a socket\\)"):
        check_outputs(target, option="--save-json")
    assert not target.is_file()


# -- 7. Ctrl-C -------------------------------------------------------------------


def test_ctrl_c_during_a_command_exits_130_and_writes_nothing(tmp_path, monkeypatch, capsys):
    """``build && train-ranker`` must stop when the build is interrupted: typer returns 130 without standalone mode."""
    import latin_intertext.publish.writer as writer

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(writer, "build_dataset", interrupted)
    assert main(["build", "--out", str(tmp_path / "ds")]) == 130
    assert "interrupted" in squash(capsys.readouterr().err)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_a_full_standard_output_is_a_one_line_error_not_a_traceback(dataset_dir):
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-c", "import sys; from latin_intertext.cli import main; sys.exit(main(sys.argv[1:]))", "stats", str(dataset_dir), "--json"],
            stdout=full, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == "error: writing the output (a file, or standard output): No space left on device. Free some space, or write elsewhere, and run the command again."
