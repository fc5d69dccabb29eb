"""MTEB parity: mteb.evaluate on our task gives the same numbers as our own evaluation."""

from __future__ import annotations

import pytest

from conftest import importorskip_unless_ci

importorskip_unless_ci("mteb")  # skipped without the mteb extra, but a failure under CI
pytestmark = pytest.mark.mteb

import mteb  # noqa: E402

from latin_intertext.benchmark import load_benchmark  # noqa: E402
from latin_intertext.evaluate.execute import run_retriever  # noqa: E402
from latin_intertext.evaluate.metrics import METRICS, evaluate_run  # noqa: E402
from latin_intertext.evaluate.mteb_task import LatinEpicIntertextualityRetrieval, model_meta, search_model  # noqa: E402

# Every metric we report that mteb emits under the same key: all of METRICS but plain "map", which mteb
# does not emit; our runs hold 1000 lines per query, so it must equal mteb's map_at_1000 (checked below).
PARITY = (
    "ndcg_at_1", "ndcg_at_3", "ndcg_at_5", "ndcg_at_10", "ndcg_at_100",
    "map_at_10", "map_at_100",
    "recall_at_1", "recall_at_5", "recall_at_10", "recall_at_100", "recall_at_1000",
    "precision_at_1", "precision_at_10",
    "mrr_at_10",
)  # fmt: skip


@pytest.fixture(scope="module")
def task(dataset_dir):
    return LatinEpicIntertextualityRetrieval(dataset_dir)


def test_task_loads_the_built_folder_offline(task):
    task.load_data()
    split = task.dataset["default"]["test"]
    assert len(split["corpus"]) == 39675 and len(split["queries"]) == 482
    assert sum(len(docs) for docs in split["relevant_docs"].values()) == 978
    assert task.metadata.main_score == "ndcg_at_10" and task.metadata.eval_langs == ["lat-Latn"]


def test_mteb_descriptive_statistics_are_the_card_s(dataset_dir):
    from latin_intertext.evaluate.mteb_task import descriptive_statistics
    from latin_intertext.publish.stats import compute_stats

    card = compute_stats(load_benchmark(dataset_dir))
    test = descriptive_statistics(dataset_dir)["test"]
    relevant = test["relevant_docs_statistics"]
    assert (test["num_queries"], test["num_documents"], relevant["num_relevant_docs"]) == (card["queries"], card["corpus"], card["qrels"])
    assert (relevant["min_relevant_docs_per_query"], relevant["max_relevant_docs_per_query"]) == (card["min_relevant_per_query"], card["max_relevant_per_query"])
    assert round(relevant["average_relevant_docs_per_query"], 2) == card["avg_relevant_per_query"]
    assert relevant["num_missing_corpus_ids"] == relevant["num_missing_query_ids"] == 0


def test_mteb_descriptive_statistics_read_the_folder_given_not_mteb_s_cache(dataset_dir, tmp_path):
    """mteb's own method returns (and writes) a copy cached in its package: for a missing folder too."""
    from latin_intertext.errors import LatinIntertextError
    from latin_intertext.evaluate.mteb_task import descriptive_statistics

    cached = LatinEpicIntertextualityRetrieval().metadata.descriptive_stat_path
    cached.parent.mkdir(parents=True, exist_ok=True)
    before = cached.read_bytes() if cached.exists() else None
    cached.write_text('{"test": {"num_queries": 1}}')  # a stale cache, as a first run leaves
    try:
        with pytest.raises(LatinIntertextError):
            descriptive_statistics(tmp_path / "missing")
        assert descriptive_statistics(dataset_dir)["test"]["num_queries"] == 482
        assert cached.read_text() == '{"test": {"num_queries": 1}}'  # neither read nor rewritten
    finally:
        cached.write_bytes(before) if before is not None else cached.unlink()


@pytest.mark.parametrize("name", ["bm25", "bm25-lemma"])
def test_mteb_scores_equal_ours(task, dataset_dir, name):
    result = mteb.evaluate(search_model(name), task, cache=None, show_progress_bar=False)
    scores = result.task_results[0].scores["test"][0]
    bench = load_benchmark(dataset_dir)
    ours = evaluate_run(run_retriever(name, bench, k=1000).run, bench.qrels).means
    assert set(PARITY) | {"map"} == set(METRICS) == set(ours)  # a new metric must join the parity check
    for key in PARITY:
        assert scores[key] == pytest.approx(ours[key], abs=1e-5), key
    assert scores["map_at_1000"] == pytest.approx(ours["map"], abs=1e-5)
    assert scores["main_score"] == pytest.approx(ours["ndcg_at_10"], abs=1e-5)
    assert result.task_results[0].task_name == "LatinEpicIntertextualityRetrieval"
    assert result.model_name == f"latin-intertext/{name}"


def test_model_meta_for_every_registered_retriever():
    from latin_intertext.retrieve import load_all

    for name, spec in load_all().items():
        meta = model_meta(name)
        assert meta.name == f"latin-intertext/{name}" and meta.languages == ["lat-Latn"]
        assert bool(meta.training_datasets) == spec.learned
