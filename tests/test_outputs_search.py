"""Bad input and bad settings in search, index-tesserae and serve: a clear error or a full report, never silence."""

from __future__ import annotations

import json
import shutil
import socket
from pathlib import Path

import pytest

from latin_intertext.cli import main
from latin_intertext.errors import LatinIntertextError
from latin_intertext.serve import searcher as searcher_module
from latin_intertext.serve.index import index_dir
from latin_intertext.serve.searcher import Searcher, build_tesserae_index
from latin_intertext.sources import tesserae_la

USER_TEXTS = Path(__file__).parent / "fixtures" / "user_texts"
LUCRETIUS = USER_TEXTS / "lucretius.sample.tess"
POET = "<poet. 1.1>\tarma virumque cano\n\n<poet. 1.2>\n<poet. 1.3>\tTroiae qui primus ab oris\n"


@pytest.fixture
def poet(tmp_path) -> Path:
    path = tmp_path / "poet.tess"
    path.write_text(POET, encoding="utf-8")
    return path


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A data folder of this test's own, so that the indexes it writes or damages touch no other test."""
    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


# --- 1. lines of the user's files left out are counted and listed ----------------------------------------------
def test_search_tess_lists_skipped_lines_on_stderr(poet, capsys):
    assert main(["search", "arma cano", "--tess", str(poet), "--k", "1", "--retriever", "bm25"]) == 0
    err = capsys.readouterr().err
    assert f"skipped 1 line(s) of {poet}:" in err and f"{poet}:3: citation without text" in err
    assert f"skipped 1 blank line(s) of {poet} (--json lists each in its report)" in err and f"{poet}:2: blank line" not in err


def test_search_tess_json_has_the_report(poet, capsys):
    assert main(["search", "arma cano", "--tess", str(poet), "--k", "1", "--retriever", "bm25", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lines"] == 2 and out["hits"]
    report = out["report"]
    assert report["blank"] == [f"{poet}:2: blank line"] and report["without_text"] == [f"{poet}:3: citation without text"]
    assert report["counts"]["blank"] == report["counts"]["without_text"] == 1


def test_search_tess_takes_a_folder_of_tess_files(poet, tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("not a text")
    assert main(["search", "arma cano", "--tess", str(tmp_path), "--k", "1", "--retriever", "bm25", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lines"] == 2 and out["hits"][0]["citation"]["id"] == "poet.text-1-1"  # notes.txt is not read, but listed:
    assert out["report"]["ignored"] == [f"{tmp_path / 'notes.txt'}: not a .tess file"] and out["report"]["counts"]["ignored"] == 1
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["search", "arma", "--tess", str(empty)]) == 1
    assert "afolderwithno.tessfileinit" in "".join(capsys.readouterr().err.split())
    assert main(["search", "arma", "--tess", str(tmp_path / "nowhere")]) == 1
    assert "Nosuchfileorfolder:" in "".join(capsys.readouterr().err.split())


def test_the_same_file_name_twice_is_refused_not_searched_twice(poet, tmp_path, capsys):
    """Two copies once gave every line twice, the second under a ~2 id, and a report of 0 duplicates."""
    copy = tmp_path / "other" / "poet.tess"
    copy.parent.mkdir()
    shutil.copy(poet, copy)
    for argv, said in (([poet, poet], f"{poet}: given 2 times"), ([poet, copy], f"{poet} and {copy}: both give the ids poet.text-LOCUS"), ([tmp_path, copy], f"{poet} and {copy}: both give the ids poet.text-LOCUS")):
        assert main(["search", "arma", "--k", "1", "--retriever", "bm25", *[a for p in argv for a in ("--tess", str(p))]]) == 1
        err = "".join(capsys.readouterr().err.split())
        assert "".join(said.split()) in err and "Lineidsaremadefromafile'sname" in err and "renameoneofthem" in err


# --- 2. a damaged Tesserae-la index ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["corpus.pickle", "meta.json", "data.csc.index.npy", "vocab.index.json", "params.index.json", "names.json"])
def test_truncated_tesserae_index_is_a_clear_error(tmp_path, name):
    folder = tmp_path / "tesserae-la"
    build_tesserae_index(folder, files=[LUCRETIUS])
    data = (folder / name).read_bytes()
    (folder / name).write_bytes(data[: len(data) // 2])
    with pytest.raises(LatinIntertextError, match=r"damaged or incomplete.*latin-intertext index-tesserae") as info:
        Searcher.from_tesserae_la(folder)
    assert str(folder) in str(info.value)


def test_cli_search_on_a_damaged_index_exits_1(home, capsys):
    build_tesserae_index(files=[LUCRETIUS])
    (index_dir() / "corpus.pickle").write_bytes(b"\x80\x05")
    assert main(["search", "arma", "--tesserae-la"]) == 1
    err = capsys.readouterr().err.replace("\n", "")
    assert str(index_dir()) in err and "index-tesserae" in err and "Traceback" not in err


def test_cli_search_of_tesserae_la_says_what_its_index_left_out(home, tmp_path, capsys):
    odd = tmp_path / "poeta.carmina.tess"
    odd.write_text("<poet. 1.1>\tarma virumque cano\n\nno citation here\n<poet. 1.3>\n", encoding="utf-8")
    build_tesserae_index(files=[odd, LUCRETIUS])  # the Lucretius sample has a blank line too
    assert main(["search", "arma", "--tesserae-la", "--k", "1"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"leaves out 1 malformed line(s), 1 citation(s) without text, 2 blank line(s), each listed in {index_dir() / 'report.json'}" in err
    report = json.loads((index_dir() / "report.json").read_text(encoding="utf-8"))
    assert report["malformed"] == ["tesserae-la/poeta.carmina.tess:3: no <citation> followed by a tab or space: 'no citation here'"]


def test_cli_search_of_tesserae_la_names_only_what_its_index_left_out(home, capsys):
    build_tesserae_index(files=[LUCRETIUS])  # one blank line; nothing malformed, no citation without text
    assert main(["search", "arma", "--tesserae-la", "--k", "1"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"the index of Tesserae-la leaves out 1 blank line(s), each listed in {index_dir() / 'report.json'}" in err


@pytest.mark.parametrize("damage", ["truncated", "other lemmatiser", "sidecar"])
def test_a_damaged_search_model_is_a_clear_error_not_an_abort(trained_model, home, capsys, damage):
    """LightGBM aborts the whole process (exit 134) on a truncated model: the sidecar's sha256 is checked first."""
    models = home / "models"
    models.mkdir(parents=True)
    for part in (trained_model, trained_model.with_suffix(".json")):
        shutil.copy(part, models / part.name)
    model, sidecar = models / trained_model.name, models / trained_model.with_suffix(".json").name
    if damage == "truncated":
        model.write_text(model.read_text()[:5000])
        says = "isdamaged(itssha256isnottheoneevidence_ranker.jsonrecords);retrainitwith`latin-intertexttrain-ranker`"
    elif damage == "other lemmatiser":
        sidecar.write_text(json.dumps(json.loads(sidecar.read_text()) | {"lemmatiser": 1}))
        says = "holdslemmasfromanotherlemmatiser(version1"
    else:
        sidecar.write_text("{")
        says = "isdamaged("
    silius = ["--tess", str(Path(__file__).parent / "fixtures" / "user_texts" / "silius.sample.tess")]
    assert main(["search", "arma virumque cano", "--k", "3", *silius]) == 0  # the default search still answers, saying why not with the model
    shown = capsys.readouterr()
    err = "".join(shown.err.split())
    assert "cannotuseitsmodel" in err and says in err and "by bm25-lemma" in shown.out
    assert main(["search", "arma virumque cano", "--k", "3", "--retriever", "best", *silius]) == 1  # asked for by name: an error
    err = "".join(capsys.readouterr().err.split())
    assert says in err and "Traceback" not in err


# --- 3. index-tesserae reads the pinned files only --------------------------------------------------------------
def test_index_tesserae_ignores_and_lists_unpinned_files(sources_dir, tmp_path, home, monkeypatch, capsys):
    pinned = [f for f in tesserae_la.load_manifest("tesserae-la") if f.local_path.endswith(("gerwardus.versus.tess", "smaragdus.epitaphium.tess"))]
    monkeypatch.setattr(tesserae_la, "load_manifest", lambda name: pinned)
    mirror = tmp_path / "mirror"
    (mirror / "tesserae-la").mkdir(parents=True)
    for f in pinned:
        shutil.copy(sources_dir / f.local_path, mirror / f.local_path)
    (mirror / "tesserae-la" / "extra.tess").write_text("<ex. 1.1>\tarma virumque cano\n", encoding="utf-8")
    assert main(["index-tesserae", "--sources", str(mirror)]) == 0
    err = capsys.readouterr().err
    assert "ignored 1 file(s)" in err and "tesserae-la/extra.tess: not in the manifest" in err
    report = json.loads((index_dir() / "report.json").read_text())
    assert report["counts"]["files"] == 2 and report["counts"]["ignored"] == 1 and "tesserae-la/extra.tess" in report["ignored"][0]
    s = Searcher.from_tesserae_la()
    assert s.info.index.files == 2 and not [d for d in s.corpus.lines if d.id.startswith("ex.")]


# --- 4. serve checks its port and host before saying it serves ---------------------------------------------------
def test_serve_port_out_of_range_is_a_usage_error(capsys):
    assert main(["serve", "--port", "99999"]) == 2
    assert "65535" in capsys.readouterr().err


def test_serve_port_in_use_and_bad_host(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
        err = capsys.readouterr().err
        assert f"port {port} is in use; pass --port N" in err and "Serving" not in err
    assert main(["serve", "--host", "no-such-host.invalid"]) == 1
    err = capsys.readouterr().err
    assert "--host no-such-host.invalid" in err and "Serving" not in err


# --- 5. options that would be ignored are refused -----------------------------------------------------------------
@pytest.mark.parametrize(
    "extra, message",
    [
        (["--with-benchmark"], "--with-benchmark adds the benchmark's corpus to your --tess files"),
        (["--corpus", "nosuch", "--tess", str(LUCRETIUS)], "Unknown corpus 'nosuch'"),
        (["--corpus", "benchmark", "--tess", str(LUCRETIUS)], "--corpus and --tess are exclusive"),
        (["--tesserae-la", "--tess", str(LUCRETIUS)], "--tess and --tesserae-la are exclusive"),
        (["--tess", str(LUCRETIUS), "--dataset", "somewhere"], "--dataset and --sources choose the benchmark"),
    ],
)
def test_search_refuses_options_it_would_ignore(capsys, extra, message):
    assert main(["search", "arma", *extra]) == 1
    assert message in capsys.readouterr().err.replace("\n", " ").replace("  ", " ")


def test_search_accepts_the_default_corpus_spelled_out_beside_tess():
    from latin_intertext.cli.search import check_corpus_options

    check_corpus_options("benchmark", [LUCRETIUS], False, True, None, None)  # both corpora, as --with-benchmark asks
    with pytest.raises(LatinIntertextError, match="exclusive"):
        check_corpus_options("benchmark", [LUCRETIUS], False, False, None, None)


# --- 6. LATIN_INTERTEXT_HOME must be a folder ------------------------------------------------------------------
def test_home_that_is_a_file_is_a_clear_error(tmp_path, monkeypatch, capsys):
    from latin_intertext.paths import data_home

    (tmp_path / "file").write_text("")
    for home in (tmp_path / "file", tmp_path / "file" / "sub"):
        monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(home))
        with pytest.raises(LatinIntertextError, match=r"\$LATIN_INTERTEXT_HOME.*must be a folder"):
            data_home()
    assert main(["search", "arma", "--tesserae-la"]) == 1
    assert "must be a folder" in capsys.readouterr().err.replace("\n", " ")


# --- 7. "~" in the paths given to the Python API -------------------------------------------------------------------
def test_python_entry_points_expand_the_tilde(tmp_path, monkeypatch):
    from latin_intertext.serve.app import create_app

    monkeypatch.setenv("HOME", str(tmp_path))
    shutil.copy(LUCRETIUS, tmp_path / "lucretius.sample.tess")
    assert len(Searcher.from_tess(["~/lucretius.sample.tess"], retriever="bm25").corpus) == 7
    with pytest.raises(LatinIntertextError, match=f"No Tesserae-la index at {tmp_path}/idx"):
        Searcher.from_tesserae_la("~/idx")
    seen = []

    def load_benchmark(directory):
        seen.append(directory)
        raise LookupError("only the path matters here")

    monkeypatch.setattr(searcher_module, "load_benchmark", load_benchmark)
    for call in (lambda: Searcher.from_dataset("~/datasets/LatinEpicIntertextualityRetrieval-1.0.0"), lambda: create_app("~/ds")):
        with pytest.raises(LookupError):
            call()
    assert seen == [tmp_path / "datasets" / "LatinEpicIntertextualityRetrieval-1.0.0", tmp_path / "ds"]


def test_search_says_why_it_uses_the_fallback(capsys):
    """No trained model in the test home: the CLI names the fallback and how to train the model, in text and JSON."""
    assert main(["search", "Aeneadum genetrix alma Venus", "--tess", str(LUCRETIUS), "--k", "1"]) == 0
    captured = capsys.readouterr()
    assert "by bm25-lemma" in captured.out and "note: best (the evidence ranker) has no trained model" in captured.err
    assert "latin-intertext train-ranker" in captured.err.replace("\n", "")
    assert main(["search", "Aeneadum genetrix alma Venus", "--tess", str(LUCRETIUS), "--k", "1", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["retriever"] == "bm25-lemma" and "no trained model" in payload["fallback"]


def test_a_fresh_process_without_a_search_model_falls_back_on_the_benchmark(dataset_dir, tmp_path):
    """In a new interpreter nothing has filled the retriever registry yet; the fallback must still index and cache
    the benchmark's corpus (it once raised KeyError: 'bm25-lemma' there), from the CLI and from Python."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "LATIN_INTERTEXT_HOME": str(tmp_path / "home")}  # no trained model in it
    script = "import sys; from latin_intertext.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", script, "search", "arma virumque cano", "--dataset", str(dataset_dir), "--k", "1", "--json"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["retriever"] == "bm25-lemma" and len(payload["hits"]) == 1 and "has no trained model" in payload["fallback"]
    python = f"from latin_intertext.serve.searcher import Searcher; print(Searcher.from_dataset({str(dataset_dir)!r}).search('arma virumque cano', k=1)[0].id)"
    done = subprocess.run([sys.executable, "-c", python], env=env, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == payload["hits"][0]["citation"]["id"], done.stderr


def test_serve_serves_the_tess_files_it_is_given(monkeypatch, capsys):
    """`serve` takes `search`'s corpus options: the page and the API then search the user's files."""
    import uvicorn

    served = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: served.update(app=app, **kwargs))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main(["serve", "--tess", str(LUCRETIUS), "--retriever", "bm25", "--port", str(port)]) == 0
    searcher = served["app"].state.searcher
    assert searcher.benchmark is None and {d.id.split(".")[0] for d in searcher.corpus.lines} == {"lucretius"}
    assert "in the corpus served here (tess: " in served["app"].description and "Valerius Flaccus" not in served["app"].description
    assert "Serving " in capsys.readouterr().err and served["port"] == port
    assert main(["serve", "--with-benchmark", "--port", str(port)]) == 1
    assert "--with-benchmark adds the benchmark's corpus to your --tess files" in capsys.readouterr().err.replace("\n", "")
