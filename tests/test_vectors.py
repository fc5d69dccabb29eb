"""The tesserae-la reader, lemma frequencies, word-vector training, the word2vec retriever and its CLI."""

from __future__ import annotations

import json
import re

import pytest

from latin_intertext.benchmark import CorpusLine
from latin_intertext.errors import LatinIntertextError
from latin_intertext.retrieve import make_retriever
from latin_intertext.sources.tesserae_la import CorpusReport, lemma_frequencies, lemmatised_corpus, read_lines

from conftest import FIXTURES, synonym_vectors
from test_retrievers import load_mini

MINI = FIXTURES / "mini"
SMALL = dict(limit_files=60, dim=50, epochs=3)


@pytest.fixture(scope="session")
def small_vectors(sources_dir, tmp_path_factory):
    """A small model trained on the first 60 texts, in the tests' isolated home."""
    from latin_intertext.vectors import train_vectors

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LATIN_INTERTEXT_HOME", str(tmp_path_factory.getbasetemp() / "home"))
        out = tmp_path_factory.mktemp("vectors") / "small.kv"
        return train_vectors(sources_dir, out=out, **SMALL)


def test_lenient_reader_lists_malformed_lines_and_keeps_the_rest():
    report = CorpusReport()
    lines = read_lines(MINI / "messy.tess", report, "messy.tess")
    assert [l.text for l in lines] == ["fortis nauta ratem ducit", "non est citatio", "mater flet natum"]
    assert report.malformed == ["messy.tess:3: no <citation> followed by a tab or space: 'this line has no citation at all'"]
    assert report.skipped == ["messy.tess:6: duplicate citation <mini. carm. 1.3> (first at line 5)"]
    assert report.blank == ["messy.tess:4: blank line"]  # the genuinely blank line, not the malformed one
    assert report.lines == 3 and report.files == 1


def test_lemmatised_corpus_is_cached_and_counts_frequencies(sources_dir, small_vectors, monkeypatch):
    from latin_intertext import latin
    from latin_intertext.sources import tesserae_la

    files = tesserae_la.source_files(sources_dir, SMALL["limit_files"])[1]
    cache = tesserae_la._cache_path(files, SMALL["limit_files"])
    assert cache.is_file()  # written when training lemmatised the corpus
    monkeypatch.setattr(latin, "lemmas", lambda text: pytest.fail("the corpus was lemmatised again instead of read from its cache"))
    corpus = lemmatised_corpus(sources_dir, limit_files=SMALL["limit_files"])  # the cache from training
    assert corpus.path == cache
    assert len(corpus) == small_vectors.lines and corpus.ids.size == small_vectors.words
    assert corpus.report.files == 60 and corpus.report.malformed  # the first texts do hold malformed lines
    report = corpus.report
    assert report.blank and all(re.fullmatch(r"tesserae-la/\S+\.tess:\d+: blank line", b) for b in report.blank)
    assert all(re.match(r"tesserae-la/\S+\.tess:\d+: ", s) for s in report.skipped + report.malformed)
    sidecar = json.loads(small_vectors.report_path.read_text())  # what training left out, listed beside the vectors
    assert sidecar["corpus"] == report.to_dict() and sidecar["lemmatiser"] == latin.LEMMATISER_VERSION
    assert all(isinstance(w, str) for w in corpus.vocab[:10])
    freqs = lemma_frequencies(str(sources_dir), SMALL["limit_files"])
    assert freqs.n_tokens == corpus.ids.size and freqs.n_lines == len(corpus)
    top = sorted(freqs.token_freq, key=freqs.token_freq.get, reverse=True)[:10]
    assert "et" in top and "sum" in top
    assert all(freqs.doc_freq[l] <= freqs.token_freq[l] for l in top)
    assert freqs.idf("et") < freqs.idf("nauta") < freqs.idf("nonexistentlemma")


def test_trained_vectors_are_plausible(small_vectors):
    from latin_intertext.vectors import load_vectors

    assert small_vectors.path.is_file() and small_vectors.vocabulary > 5000
    kv = load_vectors(small_vectors.path)
    assert kv.vector_size == SMALL["dim"]
    # related lemmas are closer than unrelated ones, even in a small model
    assert kv.similarity("rex", "regina") > kv.similarity("rex", "et")


def test_missing_vectors_say_how_to_train(tmp_path):
    from latin_intertext.vectors import load_vectors

    with pytest.raises(LatinIntertextError, match="train-vectors"):
        load_vectors(tmp_path / "none.kv")
    corpus, _ = load_mini()
    with pytest.raises(LatinIntertextError, match="train-vectors"):
        make_retriever("word2vec").index(corpus)  # default path in the empty test home


def test_vectors_keyed_by_another_lemmatiser_are_refused(tmp_path, monkeypatch):
    """Vectors trained before a change to the lemmatiser would silently miss the lemmas it now gives."""
    from latin_intertext import latin
    from latin_intertext.vectors import load_vectors

    path = tmp_path / "v.kv"
    synonym_vectors(["nauis ratem aequor aequora unda uehit ducit"], path)
    assert load_vectors(path).vector_size == 16
    monkeypatch.setattr(latin, "LEMMATISER_VERSION", latin.LEMMATISER_VERSION + 1)
    with pytest.raises(LatinIntertextError, match=r"another lemmatiser.*train-vectors"):
        load_vectors(path)
    (tmp_path / "v.kv.json").unlink()  # vectors from before the stamp existed
    with pytest.raises(LatinIntertextError, match=r"version None.*train-vectors"):
        load_vectors(path)


def test_lemma_cache_is_keyed_by_the_lemmatiser(monkeypatch):
    from latin_intertext import latin
    from latin_intertext.sources import tesserae_la
    from latin_intertext.sources.manifest import load_manifest

    files = load_manifest("tesserae-la")[:3]
    before = tesserae_la._cache_path(files, 3)
    monkeypatch.setattr(latin, "LEMMATISER_VERSION", latin.LEMMATISER_VERSION + 1)
    assert tesserae_la._cache_path(files, 3) != before


def test_word2vec_ranks_the_parallel_first(small_vectors):
    corpus, queries = load_mini()
    retriever = make_retriever("word2vec", vectors_path=str(small_vectors.path)).index(corpus)
    run = retriever.search({q: t for q, (t, _) in queries.items()}, k=3)
    for qid, (_t, expected) in queries.items():
        assert next(iter(run[qid])) == expected, run[qid]


def test_word2vec_soft_match_scores_similar_lemmas(small_vectors):
    from latin_intertext.vectors import load_vectors

    kv = load_vectors(small_vectors.path)
    corpus = [CorpusLine("a", "rex", "p", "c", 1, 1, "<p. c. 1.1>"), CorpusLine("b", "fortis", "p", "c", 1, 2, "<p. c. 1.2>")]
    sim = float(kv.similarity("rex", "regina"))
    retriever = make_retriever("word2vec", vectors_path=str(small_vectors.path), threshold=min(sim, 0.99) - 0.01, soft_weight=0.5).index(corpus)
    scores = retriever.score_all("regina")
    idf = retriever._max_idf  # "regina" is not in the indexed corpus
    assert scores[0] == pytest.approx(idf * 0.5 * sim, rel=1e-4)
    exact = retriever.score_all("rex")
    assert exact[0] == pytest.approx(retriever._idf[retriever._vocab["rex"]])


def test_train_vectors_cli(sources_dir, tmp_path, small_vectors):
    from latin_intertext.cli import main

    out = tmp_path / "cli.kv"
    code = main(["train-vectors", "--sources", str(sources_dir), "--limit-files", "3", "--dim", "8", "--epochs", "1", "--out", str(out)])
    assert code == 0 and out.is_file()
    assert main(["train-vectors", "--sources", str(tmp_path / "nowhere")]) == 1


def test_vectors_are_the_same_in_every_process(sources_dir, tmp_path):
    """gensim seeds each word's vector from Python's per-process salted hash, and its threads race:
    train_vectors pins both, so figures built on the vectors can be reproduced."""
    import os
    import subprocess
    import sys

    import numpy as np

    from latin_intertext.vectors import load_vectors

    script = "import sys; from latin_intertext.vectors import train_vectors; train_vectors(sys.argv[1], out=sys.argv[2], limit_files=3, dim=8, epochs=1)"
    trained = []
    for salt in ("1", "2"):
        out = tmp_path / f"salt{salt}.kv"
        subprocess.run([sys.executable, "-c", script, str(sources_dir), str(out)], check=True, env={**os.environ, "PYTHONHASHSEED": salt})
        trained.append(load_vectors(out))
    assert trained[0].index_to_key == trained[1].index_to_key
    np.testing.assert_array_equal(trained[0].vectors, trained[1].vectors)


@pytest.mark.parametrize(
    "line, soft_helps",
    [("ratem ducit per undas", True), ("navis clara", False)],
    ids=["only-synonyms-reach-the-parallel", "synonyms-pull-in-a-wrong-line"],
)
def test_tuned_word2vec_chooses_its_settings_on_the_training_queries(tmp_path, line, soft_helps):
    """The parallel of 'navem aequora vexit' either shares no lemma with it, only synonyms (soft matches must count),
    or shares one rare lemma while another line holds three synonyms (soft matches must weigh little)."""
    from latin_intertext.benchmark import Benchmark, Query
    from latin_intertext.retrieve.word2vec import TUNING_GRID

    texts = [line, "miles gladium capit", "luna nitet nocte"] if soft_helps else [line, "rates undis ducit", "miles gladium capit"]
    corpus = [CorpusLine(f"poet-1-{i + 1}", t, "Poet", "Work", 1, i + 1, f"poet 1.{i + 1}") for i, t in enumerate(texts)]
    query = "navem aequora vexit"
    bench = Benchmark(corpus, [Query("q", query, 1, 1, 1, "[]", 1)], {"q": {corpus[0].id: 1}})
    start = 0.0 if soft_helps else 1.0  # the opposite of what the data asks for: only fitting can set it right
    vectors = synonym_vectors(texts + [query], tmp_path / "syn.kv")
    untuned = make_retriever("word2vec", vectors_path=vectors, soft_weight=start).index(corpus)
    assert next(iter(untuned.search({"q": query}, k=3)["q"]), None) != corpus[0].id
    tuned = make_retriever("word2vec-tuned", vectors_path=vectors, soft_weight=start).index(corpus)
    with pytest.raises(LatinIntertextError, match="no settings outside cross-validation"):
        tuned.search({"q": query}, k=3)  # unfitted, it would silently be word2vec
    given = tuned.params()
    tuned.fit(bench)
    chosen = tuned.settings_
    assert chosen.threshold in TUNING_GRID["threshold"] and chosen.soft_weight in TUNING_GRID["soft_weight"] and chosen.neighbours in TUNING_GRID["neighbours"]
    assert (chosen.soft_weight > 0) if soft_helps else (chosen.soft_weight < 0.5)
    assert tuned.params() == given  # fitting keeps what __init__ was given, as in sklearn
    assert next(iter(tuned.search({"q": query}, k=3)["q"])) == corpus[0].id


def test_a_damaged_lemma_cache_is_made_again_not_a_traceback(sources_dir, small_vectors, caplog):
    from latin_intertext.sources import tesserae_la

    limit = 2
    first = lemmatised_corpus(sources_dir, limit_files=limit)
    data = first.path.read_bytes()
    first.path.write_bytes(data[: len(data) // 2])
    again = lemmatised_corpus(sources_dir, limit_files=limit)
    assert "damaged lemma cache" in caplog.text and str(first.path) in caplog.text
    assert again.vocab == first.vocab and (again.ids == first.ids).all() and again.path.read_bytes() == data
    assert tesserae_la.NOT_TEXTS and again.report.ignored == [f"{name}: {why}; ignored" for name, why in tesserae_la.NOT_TEXTS.items()]
    assert again.report.held_out == [f"tesserae-la/valerius_flaccus.argonautica.tess: {tesserae_la.HELD_OUT['tesserae-la/valerius_flaccus.argonautica.tess']}"]
    assert "held out: tesserae-la/valerius_flaccus.argonautica.tess" in again.report.summary()


def test_the_queries_own_text_is_searched_but_never_learned_from(sources_dir):
    """Vectors and corpus-wide lemma frequencies come from Tesserae-la without Valerius Flaccus, whose lines the
    benchmark's queries are; the search index of Tesserae-la still holds it."""
    from latin_intertext.sources import tesserae_la

    held = "tesserae-la/valerius_flaccus.argonautica.tess"
    _, learned = tesserae_la.source_files(sources_dir, learning=True)
    searched, _ = tesserae_la.pinned_files(sources_dir)
    assert held not in [f.local_path for f in learned] and sources_dir / held in searched
    assert len(searched) - len(learned) == len(tesserae_la.HELD_OUT) == 1


@pytest.mark.parametrize("damage", ["truncate", "sidecar"])
def test_damaged_word_vectors_are_a_clear_error(small_vectors, tmp_path, damage):
    import shutil

    from latin_intertext.vectors import load_vectors

    for part in small_vectors.path.parent.glob(small_vectors.path.name + "*"):
        shutil.copy(part, tmp_path / part.name)
    copy = tmp_path / small_vectors.path.name
    if damage == "truncate":
        copy.write_bytes(copy.read_bytes()[:100])
        message = r"small\.kv are damaged \(UnpicklingError.*retrain them with `latin-intertext train-vectors`"
    else:
        (tmp_path / (copy.name + ".json")).write_text("{not json")
        message = r"small\.kv\.json \(the provenance of small\.kv\) is damaged .*retrain the vectors"
    with pytest.raises(LatinIntertextError, match=message):
        load_vectors(copy)


def test_lemma_caches_of_another_lemmatiser_or_cache_version_are_removed_and_this_one_s_kept(tmp_path, monkeypatch):
    from latin_intertext import latin
    from latin_intertext.sources import tesserae_la

    current = tmp_path / f"{tesserae_la._cache_prefix()}0123456789abcdef.npz"
    older = [tmp_path / "lemmas-2168632546248e79.npz", tmp_path / "lemmas-2168632546248e79.txt", tmp_path / "lemmas-v4-l25-0123456789abcdef.npz"]
    other = tmp_path / "report.json"
    for path in [current, current.with_suffix(".txt"), *older, other]:
        path.write_text("x")
    assert sorted(tesserae_la.drop_stale_caches(tmp_path)) == sorted(older)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([current.name, current.with_suffix(".txt").name, other.name])
    monkeypatch.setattr(latin, "LEMMATISER_VERSION", latin.LEMMATISER_VERSION + 1)  # the lemmatiser moves on: this cache is stale too
    assert sorted(tesserae_la.drop_stale_caches(tmp_path)) == sorted([current, current.with_suffix(".txt")])
