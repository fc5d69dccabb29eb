"""The lemmatiser's answers kept on disk between runs: read back unchanged, named by what they depend on, never
read across a change to the lemmatiser, and never in the way of a command."""

from __future__ import annotations

import json
import logging
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES
from fixtures.build.helpers import run_cli
from latin_intertext import latin, lexicon, word_analyses
from latin_intertext.sources.tess import parse_tess

KEPT = (latin._norm, latin._analyse, latin.name_lemma, latin.lemma_candidates, latin.is_known, latin.display_lemma)


@pytest.fixture
def fresh_store(tmp_path, monkeypatch):
    """An empty cache folder and a store that has read nothing yet."""
    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(word_analyses, "_STORE", word_analyses._Store())
    return tmp_path / "home" / word_analyses.FOLDER


def _forget_in_memory(monkeypatch) -> None:
    """A new process, as far as the kept functions know: nothing read, nothing memoised."""
    monkeypatch.setattr(word_analyses, "_STORE", word_analyses._Store())
    for function in KEPT:
        function.cache_clear()


def _table(path_or_folder, name="test_word_analyses.analyse") -> dict:
    """A kept function's file, read as JSON."""
    path = path_or_folder / f"{name}.json" if path_or_folder.is_dir() else path_or_folder
    return json.loads(path.read_text(encoding="utf-8"))


def _counted(monkeypatch):
    calls = []

    @word_analyses.kept_on_disk(list, word_analyses.as_tuple, maxsize=3)
    def analyse(word, flag=False):
        calls.append((word, flag))
        return (word.upper(), str(flag))

    return analyse, calls


def test_an_answer_saved_is_read_back_by_the_next_run_without_computing_it(fresh_store, monkeypatch):
    analyse, calls = _counted(monkeypatch)
    assert analyse("arma", True) == ("ARMA", "True")
    assert analyse("arma") == ("ARMA", "False")
    [path] = word_analyses.save()
    assert path == fresh_store / word_analyses.digest() / "test_word_analyses.analyse.json"
    assert _table(path) == {"arma\x1fTrue": ["ARMA", "True"], "arma\x1fFalse": ["ARMA", "False"]}  # defaults applied: one key
    assert word_analyses.save() == []  # nothing new since: nothing written

    monkeypatch.setattr(word_analyses, "_STORE", word_analyses._Store())
    analyse.cache_clear()
    assert analyse("arma", True) == ("ARMA", "True")  # a tuple again, not JSON's list
    assert analyse("arma", False) == ("ARMA", "False")
    assert calls == [("arma", True), ("arma", False)]
    assert analyse("cano") == ("CANO", "False") and calls[-1] == ("cano", False)


def test_a_full_table_answers_but_keeps_no_more(fresh_store, monkeypatch):
    analyse, calls = _counted(monkeypatch)
    for word in ("a", "b", "c", "d", "e"):
        analyse(word)
    [path] = word_analyses.save()
    assert sorted(_table(path)) == ["a\x1fFalse", "b\x1fFalse", "c\x1fFalse"]  # maxsize=3


def test_the_real_lemmatisers_answers_read_back_equal_fresh_ones(fresh_store, monkeypatch, sources_dir):
    """Every kept answer for the words of a real text (Statius' Thebaid 1, with its names and misread letters)."""
    text = " ".join(line.text for line in parse_tess(sources_dir / "naacl2021" / "texts" / "statius.thebaid.part.1.tess").lines)
    _forget_in_memory(monkeypatch)
    def analyses() -> list:
        tokens = latin.tokenize(text)
        return [tokens, latin.lemmas(text, latin.name_forms([text])), [latin.lemma_candidates(w) for w, _s, _e in latin.words(text)],
                latin.unknown_words(text), [latin.display_lemma(t.lemma) for t in tokens]]

    fresh = analyses()
    saved = word_analyses.save()
    assert sorted(p.name for p in saved) == [f"latin.{f.__name__}.json" for f in sorted(KEPT, key=lambda f: f.__name__)]
    assert len(_table(saved[0].parent, "latin.lemma_candidates")) > 1000

    _forget_in_memory(monkeypatch)
    monkeypatch.setattr(latin, "_lexicon", lambda: pytest.fail("Whitaker's Words was loaded: an answer was not read back"))
    monkeypatch.setattr(latin.simplemma, "is_known", lambda *a, **k: pytest.fail("simplemma was asked: an answer was not read back"))
    assert analyses() == fresh
    assert not word_analyses._STORE.learned


def test_a_change_to_the_lemmatiser_starts_a_new_folder(fresh_store, monkeypatch):
    analyse, _calls = _counted(monkeypatch)
    analyse("arma")
    [old] = word_analyses.save()
    for change in ("version", "code"):
        word_analyses.digest.cache_clear()
        if change == "version":
            monkeypatch.setattr(latin, "LEMMATISER_VERSION", latin.LEMMATISER_VERSION + 1)
        else:
            monkeypatch.setattr(word_analyses, "_SOURCES", word_analyses._sources_sha256((*word_analyses.DIGESTED_MODULES, "latin_intertext.errors")))
        monkeypatch.setattr(word_analyses, "_STORE", word_analyses._Store())
        analyse.cache_clear()
        analyse("arma")
        [new] = word_analyses.save()
        assert new.parent != old.parent and new.is_file() and old.is_file()  # the old one kept, with the latest few (below)
        old = new
    word_analyses.digest.cache_clear()


def test_a_damaged_file_is_a_miss_said_in_a_warning_and_written_anew(fresh_store, monkeypatch, caplog):
    analyse, calls = _counted(monkeypatch)
    path = word_analyses.table_path("test_word_analyses.analyse")
    path.parent.mkdir(parents=True)
    path.write_text('{"arma\x1fFalse": [1, 2', encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert analyse("arma") == ("ARMA", "False")
    assert calls == [("arma", False)]
    assert f"{path}: damaged cache of word analyses" in caplog.text
    assert word_analyses.save() == [path] and _table(path) == {"arma\x1fFalse": ["ARMA", "False"]}


def test_an_unusable_cache_folder_never_fails_the_analysis_nor_the_save(tmp_path, monkeypatch, caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(blocker / "home"))  # a file in the way
    monkeypatch.setattr(word_analyses, "_STORE", word_analyses._Store())
    analyse, _calls = _counted(monkeypatch)
    assert analyse("arma") == ("ARMA", "False")
    with caplog.at_level(logging.WARNING):
        assert word_analyses.save() == []
    assert "word analyses not kept for the next run" in caplog.text


def test_a_command_keeps_what_it_learned_for_the_next(fresh_store, monkeypatch, capsys):
    """``main`` saves when a command ends, and the next command reads the file instead of analysing again."""
    argv = ("search", "rerum natura deum", "--tess", FIXTURES / "user_texts" / "lucretius.sample.tess", "-k", "2")
    _forget_in_memory(monkeypatch)
    code, first, _err = run_cli(monkeypatch, capsys, *argv)
    assert code == 0 and "«deum»" in first
    assert "natura" in _table(fresh_store / word_analyses.digest(), "latin._norm")

    _forget_in_memory(monkeypatch)
    monkeypatch.setattr(latin, "_lexicon", lambda: pytest.fail("Whitaker's Words was loaded: an answer was not read back"))
    code, again, _err = run_cli(monkeypatch, capsys, *argv)
    assert code == 0 and again == first


def test_answers_found_inside_not_kept_are_read_but_not_added(fresh_store, monkeypatch):
    analyse, calls = _counted(monkeypatch)
    analyse("arma")
    with pytest.raises(RuntimeError), word_analyses.not_kept():
        assert analyse("virum") == ("VIRUM", "False")
        raise RuntimeError("the flag is restored however the block ends")
    analyse("cano")
    [path] = word_analyses.save()
    assert sorted(_table(path)) == ["arma\x1fFalse", "cano\x1fFalse"]


def test_indexing_tesserae_texts_keeps_no_word_analyses(fresh_store, monkeypatch, tmp_path):
    """The Tesserae-la index is the cache of its lines' lemmas: its 466,000 forms would bloat the file every command reads."""
    from latin_intertext.serve.searcher import build_tesserae_index

    _forget_in_memory(monkeypatch)
    build_tesserae_index(tmp_path / "index", files=sorted((FIXTURES / "user_texts").glob("[ls]*.sample.tess")))
    assert not word_analyses._STORE.learned


def test_lemmatising_tesserae_la_keeps_no_word_analyses(fresh_store, monkeypatch, sources_dir):
    """Its lemma cache is the cache of those lines' lemmas, as the index is."""
    from latin_intertext.sources.tesserae_la import lemmatised_corpus

    _forget_in_memory(monkeypatch)
    assert len(lemmatised_corpus(sources_dir, limit_files=2)) > 100
    assert not word_analyses._STORE.learned


def test_reading_the_lemmatiser_s_code_does_not_import_it():
    """The CLI imports this module on every start, ``--help`` too: hashing the Latin package's files must not load the
    lemmatiser (and simplemma) with it, nor import ``latin`` while ``latin`` is importing this module."""
    code = "import sys, latin_intertext.word_analyses; print(sorted(m for m in ('latin_intertext.latin', 'simplemma') if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "[]"


def test_the_code_is_read_when_imported_not_when_a_word_is_first_analysed(monkeypatch):
    """An edit or a checkout between the import and the first word must not file the old code's answers under the new."""
    assert word_analyses._SOURCES == word_analyses._sources_sha256(word_analyses.DIGESTED_MODULES)
    package = {Path(m.module_finder.path) / f"{m.name}.py" for m in pkgutil.iter_modules(latin.__path__)} | {Path(latin.__file__)}
    assert {p.name for p in package} >= {"__init__.py", "text.py", "tables.py"}  # every module of the Latin package
    assert package | {Path(lexicon.__file__), Path(word_analyses.__file__)} <= set(word_analyses.digested_files(word_analyses.DIGESTED_MODULES))
    word_analyses.digest.cache_clear()
    monkeypatch.setattr(word_analyses.Path, "read_bytes", lambda self: pytest.fail(f"{self} read after the import"))
    try:
        assert len(word_analyses.digest()) == 16
    finally:
        word_analyses.digest.cache_clear()


def test_without_a_lexicons_version_nothing_is_kept_and_nothing_said(fresh_store, monkeypatch, caplog):
    def unknown(package):
        raise word_analyses.metadata.PackageNotFoundError(package)

    word_analyses.digest.cache_clear()
    monkeypatch.setattr(word_analyses.metadata, "version", unknown)
    try:
        analyse, _calls = _counted(monkeypatch)
        with caplog.at_level(logging.WARNING):
            assert analyse("arma") == ("ARMA", "False") and word_analyses.save() == []
        assert not caplog.text and not fresh_store.exists()
    finally:
        word_analyses.digest.cache_clear()


def test_other_digests_folders_are_kept_but_the_latest_few(fresh_store, monkeypatch):
    """An older lemmatiser's answers are never read again; another version sharing the home still reads its own."""
    import os

    others = [fresh_store / f"{n:016x}" for n in range(word_analyses.KEPT_DIGESTS + 2)]
    for age, folder in enumerate(others):
        folder.mkdir(parents=True)
        os.utime(folder, (1_000_000 - age, 1_000_000 - age))  # others[0] written last
    (fresh_store / "not-a-digest").mkdir()
    analyse, _calls = _counted(monkeypatch)
    analyse("arma")
    [path] = word_analyses.save()
    assert sorted(p.name for p in fresh_store.iterdir()) == sorted([path.parent.name, "not-a-digest", *(p.name for p in others[: word_analyses.KEPT_DIGESTS])])


def test_a_users_files_keep_no_word_analyses_but_the_passage_searched_does(fresh_store, monkeypatch):
    """Any number of files, uploads among them, would fill the kept analyses: only the passage's words are kept."""
    from latin_intertext.serve.searcher import Searcher

    _forget_in_memory(monkeypatch)
    searcher = Searcher.from_tess(FIXTURES / "user_texts" / "lucretius.sample.tess", retriever="bm25-lemma")
    assert not word_analyses._STORE.learned
    searcher.search("rerum natura deum", k=2)
    assert "rerum" in word_analyses._STORE.table("latin._norm") and "Aeneadum" not in word_analyses._STORE.table("latin._norm")


def test_not_keeping_in_one_thread_leaves_another_threads_words_kept(fresh_store, monkeypatch):
    """A server indexing an upload (not kept) while it answers a search on the benchmark (kept)."""
    import threading

    analyse, _calls = _counted(monkeypatch)
    inside, done = threading.Event(), threading.Event()

    def upload():
        with word_analyses.not_kept():
            analyse("uploaded")
            inside.set()
            done.wait(5)

    worker = threading.Thread(target=upload)
    worker.start()
    assert inside.wait(5)
    analyse("searched")
    done.set()
    worker.join()
    [path] = word_analyses.save()
    assert sorted(_table(path)) == ["searched\x1fFalse"]


def test_forget_removes_this_lemmatisers_answers_and_says_so_when_it_cannot(fresh_store, monkeypatch):
    analyse, _calls = _counted(monkeypatch)
    analyse("arma")
    [path] = word_analyses.save()
    word_analyses.forget()
    assert not path.parent.exists() and fresh_store.exists()
    word_analyses.forget()  # nothing to remove: no error
    path.parent.mkdir()
    monkeypatch.setattr(word_analyses.shutil, "rmtree", lambda folder: (_ for _ in ()).throw(PermissionError(13, "Permission denied", str(folder))))
    with pytest.raises(PermissionError):
        word_analyses.forget()  # a cold run that is not cold would be timed as one
