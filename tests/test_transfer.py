"""The transfer check (`transfer-report`): the gold read backwards, each reversed query kept in its passages' fold,
on invented passages and on the real sources."""

from __future__ import annotations

import pytest

from latin_intertext.benchmark import Benchmark, CorpusLine, Query
from latin_intertext.errors import LatinIntertextError
from latin_intertext.evaluate.cv import Fold, grouped_folds
from latin_intertext.evaluate.transfer import reversed_task

EPIC = [CorpusLine(f"poeta-1-{n}", text, "Poeta", "Carmen", 1, n, f"<poet. 1.{n}>") for n, text in
        enumerate(["arma virumque cano", "fortis nauta ratem ducit", "luna nitet per sidera"], start=1)]
VF = [CorpusLine(f"vf.arg-1-{locus.replace('.', '-')}", f"versus {locus}", "Vates", "Arg", 1, int(locus.split(".")[1].rstrip("a")), f"<val. fl. {locus}>")
      for locus in ("1.1", "1.2", "1.2a", "1.3", "1.10", "1.30")]


def small_bench(qrels) -> Benchmark:
    queries = [Query("vf-1-1-2", "versus 1.1 versus 1.2", 1, 1, 2, "[]", 1), Query("vf-1-10-10", "versus 1.10", 1, 10, 10, "[]", 1),
               Query("vf-1-30-30", "versus 1.30", 1, 30, 30, "[]", 1)]
    return Benchmark(EPIC, queries, qrels)


FOLDS = [Fold(0, ("vf-1-1-2",), 1, 2), Fold(1, ("vf-1-10-10", "vf-1-30-30"), 10, 30)]


def test_each_cited_line_searches_for_the_lines_of_the_passages_that_cite_it():
    bench = small_bench({"vf-1-1-2": {"poeta-1-1": 1}, "vf-1-10-10": {"poeta-1-2": 1, "poeta-1-3": 0}, "vf-1-30-30": {"poeta-1-2": 1}})
    task = reversed_task(bench, FOLDS, VF)
    assert task.queries == {"poeta-1-1": "arma virumque cano", "poeta-1-2": "fortis nauta ratem ducit"}  # a grade of 0 cites nothing
    assert task.qrels == {"poeta-1-1": {"vf.arg-1-1-1": 1, "vf.arg-1-1-2": 1}, "poeta-1-2": {"vf.arg-1-1-10": 1, "vf.arg-1-1-30": 1}}
    assert "vf.arg-1-1-2a" not in task.qrels["poeta-1-1"]  # 1.2a is another line than 1.2
    assert task.fold_of == {"poeta-1-1": 0, "poeta-1-2": 1} and task.left_out == []
    assert task.fold_queries(1) == {"poeta-1-2": "fortis nauta ratem ducit"}
    assert task.corpus == VF


def test_a_line_cited_from_passages_of_two_folds_is_left_out_and_listed():
    """Scored in one fold, it would have been a training pair of another, read the other way."""
    bench = small_bench({"vf-1-1-2": {"poeta-1-1": 1, "poeta-1-3": 1}, "vf-1-10-10": {"poeta-1-1": 1}, "vf-1-30-30": {"poeta-1-2": 1}})
    task = reversed_task(bench, FOLDS, VF)
    assert task.left_out == ["poeta-1-1"]
    assert set(task.queries) == set(task.qrels) == set(task.fold_of) == {"poeta-1-2", "poeta-1-3"}


def test_a_line_cited_from_two_span_groups_of_one_fold_merges_their_clusters():
    """VF 1.10 and 1.30 are two span groups; a line both cite ties their results, so every reversed query of either
    group falls in one cluster of the span-group statistics, and a line cited from 1.1-2 alone keeps its own."""
    bench = small_bench({"vf-1-1-2": {"poeta-1-1": 1}, "vf-1-10-10": {"poeta-1-2": 1}, "vf-1-30-30": {"poeta-1-2": 1, "poeta-1-3": 1}})
    task = reversed_task(bench, FOLDS, VF)
    assert task.cluster_of["poeta-1-2"] == task.cluster_of["poeta-1-3"] != task.cluster_of["poeta-1-1"]
    apart = reversed_task(small_bench({"vf-1-1-2": {"poeta-1-1": 1}, "vf-1-10-10": {"poeta-1-2": 1}, "vf-1-30-30": {"poeta-1-3": 1}}), FOLDS, VF)
    assert len(set(apart.cluster_of.values())) == 3  # no line links them: three groups, three clusters


def test_a_passage_whose_lines_the_searched_text_lacks_is_an_error_naming_it():
    bench = small_bench({"vf-1-1-2": {"poeta-1-1": 1}, "vf-1-10-10": {}, "vf-1-30-30": {}})
    with pytest.raises(LatinIntertextError, match=r"vf-1-1-2: lines 1\.2 are not in the searched text"):
        reversed_task(bench, FOLDS, [d for d in VF if d.tess_index != "<val. fl. 1.2>"])


@pytest.fixture(scope="module")
def real_task(benchmark, sources_dir):
    from latin_intertext.evaluate.transfer import query_text_files
    from latin_intertext.serve.corpora import tess_corpus

    folds = grouped_folds(benchmark.queries, 5)
    return folds, reversed_task(benchmark, folds, tess_corpus(query_text_files(sources_dir)).lines)


def test_the_real_gold_read_backwards(benchmark, real_task):
    folds, task = real_task
    assert len(task.corpus) == 5592  # all eight books of the Argonautica
    assert (len(task.queries), len(task.left_out), sum(map(len, task.qrels.values()))) == (926, 20, 1037)
    cited = {d for docs in benchmark.qrels.values() for d, grade in docs.items() if grade > 0}
    assert set(task.queries) | set(task.left_out) == cited
    assert all(doc.startswith("valerius_flaccus.argonautica_part_1-1-") for docs in task.qrels.values() for doc in docs)
    fold_of = {q: f.index for f in folds for q in f.test_ids}
    for cited_line, fold in task.fold_of.items():  # every passage citing it sits in its fold
        assert {fold_of[q] for q, docs in benchmark.qrels.items() if docs.get(cited_line, 0) > 0} == {fold}
    # six cited lines link two span groups of their fold, chained in two places (Aen. 10.693 links groups 15 and 16,
    # Aen. 2.596 groups 16 and 19): the 43 groups with a reversed query make 37 clusters
    assert task.cluster_of["vergil-10-693"] == task.cluster_of["vergil-2-596"] != task.cluster_of["vergil-6-196"]
    assert task.cluster_of["vergil-6-401"] == task.cluster_of["vergil-6-264"]
    assert len(set(task.cluster_of.values())) == 37


def test_the_ranker_fitted_on_the_benchmark_beats_bm25_lemma_on_the_reversed_queries(benchmark, real_task):
    """One fold: the model fitted on the other folds' passages over the four epics searches Valerius Flaccus."""
    from latin_intertext.evaluate.cv import training_ids
    from latin_intertext.evaluate.metrics import evaluate_run
    from latin_intertext.retrieve import make_retriever
    from latin_intertext.retrieve.ranker import EvidenceRanker

    folds, task = real_task
    queries = task.fold_queries(0)
    qrels = {q: task.qrels[q] for q in queries}
    trainer = EvidenceRanker(background=None).index(benchmark.corpus).fit(benchmark.subset(training_ids(benchmark, folds[0])))
    ranker = EvidenceRanker(background=None).index(task.corpus).use_model_of(trainer)
    ndcg = evaluate_run(ranker.search(queries, 100), qrels).means["ndcg_at_10"]
    baseline = evaluate_run(make_retriever("bm25-lemma").index(task.corpus).search(queries, 100), qrels).means["ndcg_at_10"]
    assert ndcg > baseline + 0.02, (ndcg, baseline)


def test_a_learned_baseline_is_not_moved_to_another_corpus_and_says_why():
    """`word2vec-tuned` chooses its settings on the benchmark's training folds; the report lists it as not run."""
    from latin_intertext.evaluate.transfer import reversed_run, transfer_baselines

    assert {"bm25-lemma", "tesserae", "word2vec-tuned"} <= set(transfer_baselines())
    bench = small_bench({"vf-1-1-2": {"poeta-1-1": 1}, "vf-1-10-10": {}, "vf-1-30-30": {}})
    with pytest.raises(LatinIntertextError, match="word2vec-tuned chooses its settings .* only the evidence ranker is moved"):
        reversed_run("word2vec-tuned", bench, reversed_task(bench, FOLDS, VF), FOLDS)


def test_transfer_report_names_a_wrong_sources_folder_before_loading_anything(tmp_path, capsys):
    from conftest import squash

    from latin_intertext.cli import main

    assert main(["transfer-report", "--sources", str(tmp_path / "nowhere"), "--dataset", str(tmp_path / "no-dataset")]) == 1
    err = squash(capsys.readouterr().err)
    assert "--sourcespointsto" in err and "nowhere" in err and "no-dataset" not in err
