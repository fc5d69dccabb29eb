"""The lemmatiser's answers kept on disk between runs: read back unchanged, named by what they depend on, never
read across a change to the lemmatiser, and never in the way of a command."""

from __future__ import annotations

import json
import logging

import pytest

from conftest import FIXTURES
from fixtures.build.helpers import run_cli
from latin_intertext import latin, word_analyses
from latin_intertext.sources.tess import parse_tess

KEPT = (latin._norm, latin._analyse, latin.name_lemma, latin.lemma_candidates)


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
    path = word_analyses.save()
    assert path is not None and path.parent == fresh_store and path.name == f"words-{word_analyses.digest()}.json"
    assert word_analyses.save() is None  # nothing new since: nothing written

    monkeypatch.setattr(word_analyses, "_STORE", word_analyses._Store())
    analyse.cache_clear()
    assert analyse("arma", True) == ("ARMA", "True")  # a tuple again, not JSON's list
    assert calls == [("arma", True)]
    assert analyse("arma", False) == ("ARMA", "False") and calls[-1] == ("arma", False)  # another key


def test_a_full_table_answers_but_keeps_no_more(fresh_store, monkeypatch):
    analyse, calls = _counted(monkeypatch)
    for word in ("a", "b", "c", "d", "e"):
        analyse(word)
    tables = json.loads(word_analyses.save().read_text(encoding="utf-8"))
    (table,) = [t for name, t in tables.items() if name.endswith("analyse")]
    assert sorted(table) == ["a", "b", "c"]  # maxsize=3


def test_the_real_lemmatisers_answers_read_back_equal_fresh_ones(fresh_store, monkeypatch, sources_dir):
    """Every kept answer for the words of a real text (Statius' Thebaid 1, with its names and misread letters)."""
    text = " ".join(line.text for line in parse_tess(sources_dir / "naacl2021" / "texts" / "statius.thebaid.part.1.tess").lines)
    _forget_in_memory(monkeypatch)
    fresh = [latin.tokenize(text), latin.lemmas(text, latin.name_forms([text])), [latin.lemma_candidates(w) for w, _s, _e in latin.words(text)]]
    saved = json.loads(word_analyses.save().read_text(encoding="utf-8"))
    assert {name.rsplit(".", 1)[-1] for name in saved} == {"_norm", "_analyse", "name_lemma", "lemma_candidates"}
    assert len(saved["lemma_candidates"]) > 1000

    _forget_in_memory(monkeypatch)
    monkeypatch.setattr(latin, "_lexicon", lambda: pytest.fail("Whitaker's Words was loaded: an answer was not read back"))
    again = [latin.tokenize(text), latin.lemmas(text, latin.name_forms([text])), [latin.lemma_candidates(w) for w, _s, _e in latin.words(text)]]
    assert again == fresh
    assert word_analyses._STORE.learned == 0


def test_a_change_to_the_lemmatiser_starts_a_new_file_and_removes_the_old(fresh_store, monkeypatch):
    analyse, _calls = _counted(monkeypatch)
    analyse("arma")
    old = word_analyses.save()
    for change in ("version", "code"):
        word_analyses.digest.cache_clear()
        if change == "version":
            monkeypatch.setattr(latin, "LEMMATISER_VERSION", latin.LEMMATISER_VERSION + 1)
        else:
            monkeypatch.setattr(word_analyses, "DIGESTED_MODULES", (*word_analyses.DIGESTED_MODULES, "latin_intertext.errors"))
        monkeypatch.setattr(word_analyses, "_STORE", word_analyses._Store())
        analyse.cache_clear()
        analyse("arma")
        new = word_analyses.save()
        assert new != old and new.is_file() and not old.exists()
        old = new
    word_analyses.digest.cache_clear()


def test_a_damaged_file_is_a_miss_said_in_a_warning_and_written_anew(fresh_store, monkeypatch, caplog):
    analyse, calls = _counted(monkeypatch)
    path = word_analyses.store_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"analyse": [1, 2', encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert analyse("arma") == ("ARMA", "False")
    assert calls == [("arma", False)]
    assert f"{path}: damaged cache of word analyses" in caplog.text
    assert json.loads(word_analyses.save().read_text(encoding="utf-8"))


def test_an_unusable_cache_folder_never_fails_the_analysis_nor_the_save(tmp_path, monkeypatch, caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(blocker / "home"))  # a file in the way
    monkeypatch.setattr(word_analyses, "_STORE", word_analyses._Store())
    analyse, _calls = _counted(monkeypatch)
    assert analyse("arma") == ("ARMA", "False")
    with caplog.at_level(logging.WARNING):
        assert word_analyses.save() is None
    assert "word analyses not kept for the next run" in caplog.text


def test_a_command_keeps_what_it_learned_for_the_next(fresh_store, monkeypatch, capsys):
    """``main`` saves when a command ends, and the next command reads the file instead of analysing again."""
    argv = ("search", "rerum natura deum", "--tess", FIXTURES / "user_texts" / "lucretius.sample.tess", "-k", "2")
    _forget_in_memory(monkeypatch)
    code, first, _err = run_cli(monkeypatch, capsys, *argv)
    assert code == 0 and "«deum»" in first
    (path,) = fresh_store.glob("words-*.json")
    assert "natura" in json.loads(path.read_text(encoding="utf-8"))["_norm"]

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
    tables = json.loads(word_analyses.save().read_text(encoding="utf-8"))
    (table,) = [t for name, t in tables.items() if name.endswith("analyse")]
    assert sorted(table) == ["arma", "cano"]


def test_indexing_tesserae_texts_keeps_no_word_analyses(fresh_store, monkeypatch, tmp_path):
    """The Tesserae-la index is the cache of its lines' lemmas: its 466,000 forms would bloat the file every command reads."""
    from latin_intertext.serve.searcher import build_tesserae_index

    _forget_in_memory(monkeypatch)
    build_tesserae_index(tmp_path / "index", files=sorted((FIXTURES / "user_texts").glob("[ls]*.sample.tess")))
    assert word_analyses._STORE.learned == 0


def test_lemmatising_tesserae_la_keeps_no_word_analyses(fresh_store, monkeypatch, sources_dir):
    """Its lemma cache is the cache of those lines' lemmas, as the index is."""
    from latin_intertext.sources.tesserae_la import lemmatised_corpus

    _forget_in_memory(monkeypatch)
    assert len(lemmatised_corpus(sources_dir, limit_files=2)) > 100
    assert word_analyses._STORE.learned == 0
