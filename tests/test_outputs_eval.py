"""Outputs of the evaluation commands: checked before the work, written whole or not at all, never clashing;
and run files that are not UTF-8, empty or missing queries are reported, not scored as zeros unnoticed."""

from __future__ import annotations

import dataclasses
import json
from types import SimpleNamespace
from pathlib import Path

import numpy as np
import pytest

from latin_intertext.cli import main
from latin_intertext.errors import InputError
from latin_intertext.evaluate.lexical_evidence import EvidenceClass
from latin_intertext.evaluate.runs import read_trec_run
from latin_intertext.retrieve.base import REGISTRY, Retriever, RetrieverSpec

from conftest import WRITERS, squash


class _Positional(Retriever):
    """Scores lines by corpus position: instant, so a command's outputs can be tested on the real dataset."""

    def _index(self, corpus):
        self._scores = np.arange(len(corpus), 0, -1, dtype=float)

    def score_all(self, text):
        return self._scores


@pytest.fixture
def fast_retriever(monkeypatch):
    monkeypatch.setitem(REGISTRY, "fake-fast", RetrieverSpec("fake-fast", _Positional, "test double"))
    return "fake-fast"


def _never(*_args, **_kwargs):
    raise AssertionError("the long work started before the outputs were checked")


# -- 1. outputs that would overwrite each other -------------------------------


@pytest.mark.parametrize(
    "argv, clash",
    [(["train-ranker", "--out", "m.json"], "m.json"), (["leaderboard", "--out", "lb.png"], "lb.png"), (["ranker-report", "--out", "x.png"], "x.png")],
)
def test_out_whose_sibling_is_itself_is_refused_up_front(tmp_path, capsys, argv, clash):
    argv = [*argv[:-1], str(tmp_path / argv[-1]), "--dataset", str(tmp_path / "nowhere")]
    assert main(argv) == 1
    err = squash(capsys.readouterr().err)
    assert err.startswith("error:") and clash in err and "wouldoverwriteit" in err
    assert list(tmp_path.iterdir()) == []


def test_ranker_save_writes_model_and_sidecar_together_or_neither(tmp_path, monkeypatch):
    from latin_intertext.retrieve.ranker import EvidenceRanker

    class Booster:
        def model_to_string(self):
            return "tree"

    ranker = EvidenceRanker(background="tesserae-la", vectors="default")
    ranker._boosters = [Booster()]
    monkeypatch.setattr(EvidenceRanker, "params", lambda self: _never())
    with pytest.raises(AssertionError):
        ranker.save(tmp_path / "models" / "ranker.txt")
    assert not (tmp_path / "models").exists() or list((tmp_path / "models").iterdir()) == []
    monkeypatch.undo()
    ranker.save(tmp_path / "ranker.txt")
    assert (tmp_path / "ranker.txt").read_text() == "tree" and json.loads((tmp_path / "ranker.json").read_text())["features"] == ranker.feature_names


# -- 2 and 3. checked before the work, written whole or not at all ------------


@pytest.mark.parametrize("argv", WRITERS)
def test_unwritable_outputs_are_refused_before_loading_anything(tmp_path, capsys, argv):
    argv = [arg.format(dir="/dev/null", a="a.run", b="b.run") for arg in argv]
    assert main([*argv, "--dataset", str(tmp_path / "nowhere")]) == 1
    err = squash(capsys.readouterr().err)
    assert "/dev/null" in err and "isafile,notafolder" in err


def test_evaluate_leaves_no_run_when_the_json_fails(dataset_dir, fast_retriever, tmp_path, monkeypatch):
    from latin_intertext.evaluate.report import RunReport

    monkeypatch.setattr(RunReport, "to_json", lambda self, per_query=True: _never())
    with pytest.raises(AssertionError):
        main(["evaluate", "--dataset", str(dataset_dir), "--retriever", fast_retriever, "--k", "10", "--resamples", "100", "--save-run", str(tmp_path / "ok.trec"), "--save-json", str(tmp_path / "r.json")])
    assert list(tmp_path.iterdir()) == []


def test_leaderboard_leaves_no_table_when_the_chart_fails(dataset_dir, fast_retriever, tmp_path, monkeypatch):
    monkeypatch.setattr("latin_intertext.evaluate.leaderboard.plot", _never)
    with pytest.raises(AssertionError):
        main(["leaderboard", "--dataset", str(dataset_dir), "--retriever", fast_retriever, "--k", "10", "--resamples", "100", "--out", str(tmp_path / "lb.md")])
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def fake_ranker_report(monkeypatch):
    """ranker-report without the benchmark or the cross-validation: a canned result."""
    from latin_intertext.evaluate import ranker_report

    calls = []
    queries = [SimpleNamespace(id="q"), SimpleNamespace(id="silent")]
    monkeypatch.setattr("latin_intertext.benchmark.load_benchmark", lambda dataset, **_: SimpleNamespace(queries=queries, changed_configs=[]))
    monkeypatch.setattr(ranker_report, "variants", lambda: [])
    monkeypatch.setattr(ranker_report, "registered_baselines", lambda: [])
    canned = dataclasses.replace(_report(ranker_report), run={"q": {"d": 1.0}})
    monkeypatch.setattr(ranker_report, "build_ranker_report", lambda bench, cv, on_step, nested_grid: calls.append((cv, len(nested_grid))) or canned)
    monkeypatch.setattr(ranker_report, "to_markdown", lambda result: "| report |\n")
    monkeypatch.setattr(ranker_report, "plot", lambda result, path: Path(path).write_bytes(b"png"))
    return calls


def test_ranker_report_makes_missing_folders_and_writes_every_output(fake_ranker_report, tmp_path):
    md, js, run = tmp_path / "a" / "r.md", tmp_path / "b" / "c" / "r.json", tmp_path / "d" / "r.run"
    assert main(["ranker-report", "--out", str(md), "--save-json", str(js), "--save-run", str(run)]) == 0
    assert md.read_text() == "| report |\n" and md.with_suffix(".png").read_bytes() == b"png"
    written = json.loads(js.read_text())
    assert "run" not in written and written["ci95"]["map"] == [0.4, 0.6] and written["n_span_groups"] == 44  # the run goes to its own file
    assert run.read_text().split() == ["q", "Q0", "d", "1", "1.0", "evidence-ranker-cv"]


def test_ranker_report_runs_the_nested_cross_validation_unless_told_not_to(fake_ranker_report):
    from latin_intertext.evaluate.nested import settings_grid

    assert main(["ranker-report", "--cv", "3"]) == 0 and main(["ranker-report", "--no-nested"]) == 0
    assert fake_ranker_report == [(3, len(settings_grid())), (5, 0)]


def test_ranker_report_names_the_queries_its_saved_run_cannot_list(fake_ranker_report, tmp_path, capsys):
    assert main(["ranker-report", "--save-run", str(tmp_path / "r.run")]) == 0
    assert squash("note: 1 queries have no results (silent)") in squash(capsys.readouterr().err)


def test_ranker_report_checks_outputs_before_the_cv_and_writes_none_on_failure(fake_ranker_report, tmp_path, monkeypatch, capsys):
    assert main(["ranker-report", "--out", str(tmp_path / "r.md"), "--save-json", str(tmp_path)]) == 1
    assert "isafolder" in squash(capsys.readouterr().err) and fake_ranker_report == []
    monkeypatch.setattr("latin_intertext.evaluate.ranker_report.plot", _never)
    with pytest.raises(AssertionError):
        main(["ranker-report", "--out", str(tmp_path / "r.md"), "--save-json", str(tmp_path / "r.json")])
    assert list(tmp_path.iterdir()) == []


def test_train_vectors_checks_out_before_lemmatising(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("latin_intertext.sources.tesserae_la.lemmatised_corpus", _never)
    assert main(["train-vectors", "--limit-files", "1", "--out", str(tmp_path)]) == 1
    assert "isafolder" in squash(capsys.readouterr().err)


def _vectors(n_words: int, dim: int):
    from gensim.models import KeyedVectors

    kv = KeyedVectors(dim)
    kv.add_vectors([f"w{i}" for i in range(n_words)], np.random.default_rng(0).normal(size=(n_words, dim)).astype(np.float32))
    return kv


def test_save_vectors_lands_whole_or_not_at_all(tmp_path, monkeypatch):
    from functools import partialmethod

    from gensim.models import KeyedVectors

    from latin_intertext import vectors

    # gensim puts arrays over sep_limit values (10M by default) in files of their own: v.kv.vectors.npy, even for a small one
    monkeypatch.setattr(KeyedVectors, "save", partialmethod(KeyedVectors.save, sep_limit=1))
    kv = _vectors(20, 4)
    with monkeypatch.context() as failing:
        failing.setattr(vectors, "_provenance", _never)  # fails after both parts are written
        with pytest.raises(AssertionError):
            vectors.save_vectors(kv, tmp_path / "v.kv")
    assert list(tmp_path.iterdir()) == []
    vectors.save_vectors(kv, tmp_path / "v.kv")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v.kv", "v.kv.json", "v.kv.vectors.npy"]
    np.testing.assert_array_equal(vectors.load_vectors(tmp_path / "v.kv")["w7"], kv["w7"])


README = "# R\n\n" + "".join(f"<!-- figures:{name} -->\nold\n<!-- /figures:{name} -->\n" for name in ("dataset", "leaderboard", "ranker", "transfer"))


@pytest.mark.parametrize("readme, message", [(None, "READMEnotfound"), ("# no blocks\n", "figures:dataset-->")])
def test_figures_checks_the_readme_before_the_run(tmp_path, monkeypatch, capsys, readme, message):
    monkeypatch.setattr("latin_intertext.cli.figures._run", _never)
    if readme is not None:
        (tmp_path / "README.md").write_text(readme)
    assert main(["figures", "--readme", str(tmp_path / "README.md"), "--out-dir", str(tmp_path / "results")]) == 1
    assert message in squash(capsys.readouterr().err)
    assert not (tmp_path / "results").exists()


def test_failed_figures_run_leaves_no_results_folder_and_the_readme_untouched(tmp_path, capsys):
    (tmp_path / "README.md").write_text(README)
    assert main(["figures", "--dataset", str(tmp_path / "nowhere"), "--readme", str(tmp_path / "README.md"), "--out-dir", str(tmp_path / "results")]) == 1
    assert "failedwithexitcode" in squash(capsys.readouterr().err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md"] and (tmp_path / "README.md").read_text() == README


# -- 4. runs missing queries: a warning in compare and leaderboard too ---------


@pytest.fixture
def partial_run(dataset_dir, tmp_path):
    """A run answering only the first two queries, its scores falling with its ranks."""
    qrels = (dataset_dir / "beir" / "qrels" / "test.tsv").read_text().splitlines()[1:]
    first = list(dict.fromkeys(line.split("\t")[0] for line in qrels))[:2]
    path = tmp_path / "partial.run"
    docs = {q: [line.split("\t")[1] for line in qrels if line.startswith(q + "\t")] for q in first}
    path.write_text("".join(f"{q} Q0 {d} {r} {1 / r} t\n" for q in first for r, d in enumerate(docs[q], 1)))
    return path


def test_compare_and_leaderboard_warn_of_queries_missing_from_a_run(dataset_dir, partial_run, fast_retriever, tmp_path, capsys):
    assert main(["compare", str(partial_run), str(partial_run), "--dataset", str(dataset_dir), "--resamples", "100"]) == 0
    err = squash(capsys.readouterr().err)
    assert err.count("noresultsfor480queriesof482in" + squash(str(partial_run))) == 2 and "vf-1-" in err
    answered = set(line.split()[0] for line in partial_run.read_text().splitlines())
    unanswered = [q.split("\t")[0] for q in (dataset_dir / "beir" / "qrels" / "test.tsv").read_text().splitlines()[1:] if q.split("\t")[0] not in answered]
    # the first ten named, and where every one is listed: one line of 480 ids would bury the warning
    assert squash(f"they score 0: {', '.join(sorted(set(unanswered))[:10])} and 470 more (evaluate --save-json lists every one).") in err
    table = tmp_path / "lb.md"
    assert main(["leaderboard", "--dataset", str(dataset_dir), "--retriever", fast_retriever, "--run", str(partial_run), "--k", "10", "--resamples", "100", "--out", str(table)]) == 0
    assert "noresultsfor480queriesof482in" + squash(str(partial_run)) in squash(capsys.readouterr().err)
    row = next(line for line in table.read_text().splitlines() if line.startswith(f"| `{partial_run.name} (run)`"))
    assert row.endswith("| run file; no results for 480 of 482 queries, scored 0 |")  # the table says it too, not only stderr
    assert main(["leaderboard", "--dataset", str(dataset_dir), "--run", str(partial_run), "--run", str(partial_run), "--retriever", fast_retriever]) == 1
    assert "isgiventwice;giveeachrunfileonce" in squash(capsys.readouterr().err)


def test_leaderboard_rows_of_run_files_are_told_apart_and_keep_the_table_whole(dataset_dir, partial_run, fast_retriever, tmp_path, capsys):
    """Two my.run in two folders, a run file named like a retriever, a `|` and a backtick in a name: each row its own."""
    paths = [tmp_path / "a" / "my.run", tmp_path / "b" / "my.run", tmp_path / fast_retriever, tmp_path / "odd|na`me.run"]
    for path in paths:
        path.parent.mkdir(exist_ok=True)
        path.write_text(partial_run.read_text())
    paths[1].write_text("".join(f"{q} Q0 {d} {r} 0 t\n" for q, _, d, r, _, _ in map(str.split, partial_run.read_text().splitlines())))
    table = tmp_path / "lb.md"
    argv = ["leaderboard", "--dataset", str(dataset_dir), "--retriever", fast_retriever, "--k", "10", "--resamples", "100", "--out", str(table)]
    assert main([*argv, *(arg for path in paths for arg in ("--run", str(path)))]) == 0
    rows = [line for line in table.read_text().splitlines() if line.startswith("| `")]
    assert all(row.count(" | ") == 8 for row in rows), rows  # 9 cells: no `|` of a name splits one
    names = sorted(row[2 : row.index(" | ", 2)] for row in rows)
    assert names == sorted(["`a/my.run (run)`", "`b/my.run (run)`", f"`{fast_retriever} (run)`", f"`{fast_retriever}`", "``odd\\|na`me.run (run)``"])
    b_row = next(row for row in rows if row.startswith("| `b/my.run (run)`"))
    assert b_row.endswith("scores contradict ranks in 2 queries, ranked by score |")  # all its scores tie
    assert "thescoresof2queriesdonotfollowtheirranks" in squash(capsys.readouterr().err)


class _SilentOnS(_Positional):
    """No result for a query whose text starts with *s*, as a retriever that finds nothing (Tesserae) has."""

    def score_all(self, text):
        return np.full(len(self._scores), -np.inf) if text.startswith("s") else self._scores


def test_evaluate_save_run_names_the_queries_a_run_file_cannot_list(dataset_dir, monkeypatch, tmp_path, capsys):
    """A query with no result gets no line: `evaluate --run` scores it 0, but MTEB would average without it."""
    from latin_intertext.benchmark import load_benchmark

    monkeypatch.setitem(REGISTRY, "fake-silent", RetrieverSpec("fake-silent", _SilentOnS, "test double"))
    silent = sorted(q.id for q in load_benchmark(dataset_dir).queries if q.text.startswith("s"))
    assert silent
    saved = tmp_path / "silent.run"
    assert main(["evaluate", "--dataset", str(dataset_dir), "--retriever", "fake-silent", "--k", "10", "--resamples", "100", "--save-run", str(saved)]) == 0
    err = squash(capsys.readouterr().err)
    assert len(silent) > 10
    assert squash(f"note: {len(silent)} queries have no results ({', '.join(silent[:10])} and {len(silent) - 10} more (evaluate --save-json lists every one)); a TREC run file cannot list them") in err
    assert squash("(MTEB) would leave them out; `latin-intertext evaluate --run` scores them 0.") in err
    assert not set(silent) & {line.split()[0] for line in saved.read_text().splitlines()}
    assert main(["evaluate", "--dataset", str(dataset_dir), "--retriever", "fake-silent", "--k", "10", "--resamples", "100"]) == 0
    assert "note:" not in capsys.readouterr().err  # nothing saved, nothing to note


# -- 5 and 8. run files that are not UTF-8, or empty ---------------------------


def test_run_file_not_utf8_names_file_line_and_byte(tmp_path):
    path = tmp_path / "latin1.run"
    path.write_bytes(b"q Q0 d 1 1.0 t\nq Q0 d\xe6 2 0.5 t\n")
    with pytest.raises(InputError, match=r"latin1.run:2: byte 7 of the line \(0xe6\) is not UTF-8") as info:
        read_trec_run(path)
    assert "Save the run file as UTF-8" in str(info.value)


def test_run_file_not_utf8_is_an_error_in_evaluate_and_compare(dataset_dir, tmp_path, capsys):
    path = tmp_path / "latin1.run"
    path.write_bytes("vf-1-1-1 Q0 vergil-1-1 1 1.0 tag\xe6\n".encode("latin-1"))
    for argv in (["evaluate", "--run", str(path)], ["compare", str(path), str(path)]):
        assert main([*argv, "--dataset", str(dataset_dir)]) == 1
        assert "latin1.run:1:byte" in squash(capsys.readouterr().err)


@pytest.mark.parametrize("content", ["", "\n  \n"])
def test_empty_run_file_is_an_error(tmp_path, content):
    path = tmp_path / "empty.run"
    path.write_text(content)
    with pytest.raises(InputError, match=r"empty.run: the run file holds no results"):
        read_trec_run(path)


# -- 6 and 7. options that make no sense ---------------------------------------


@pytest.mark.parametrize("cv", ["0", "1", "-2"])
def test_ranker_report_cv_below_two_is_a_usage_error(cv, capsys):
    assert main(["ranker-report", "--cv", cv]) == 2
    assert "Invalid value for '--cv'" in capsys.readouterr().err


def test_evaluate_run_with_save_run_is_refused(tmp_path, capsys):
    run = tmp_path / "given.run"
    run.write_text("q Q0 d 1 1.0 t\n")
    assert main(["evaluate", "--run", str(run), "--save-run", str(tmp_path / "x.run"), "--dataset", str(tmp_path / "nowhere")]) == 1
    err = squash(capsys.readouterr().err)
    assert "--save-runappliesto--retrieveronly" in err and squash(str(run)) in err
    assert not (tmp_path / "x.run").exists()


# -- 9. the ranker report says what each of its figures is ---------------------


def _report(ranker_report):
    """A ranker report by hand: three rows tested against the full model, the oracle's at the resampling floor."""
    from latin_intertext.evaluate.ablation import CurvePoint
    from latin_intertext.evaluate.stats import Interval, PairedTest, holm

    floor = 1 / 10_001
    tested = [("without phrases", -0.02, 0.04), ("settings: 75 trees", 0.001, 0.8), (ranker_report.ORACLE_LABEL, 0.1, floor)]
    figures = {m: 0.5 for m in ranker_report.REPORTED}
    rows = [ranker_report.VariantRow("full model (no author prior)", figures)]
    rows += [ranker_report.VariantRow(v, figures, PairedTest("ndcg_at_10", 0.5 + d, 0.5, d, Interval(d - 0.01, d + 0.01), p, 0.5, Interval(d - 0.02, d + 0.02), min(1.0, 3 * p)), h)
             for (v, d, p), h in zip(tested, holm([p for _, _, p in tested]))]
    return ranker_report.RankerReport(**{
        "folds": ["fold 0", "fold 1"], "metrics": figures, "ci95": {m: (0.4, 0.6) for m in ranker_report.REPORTED},
        "ci95_span_groups": {m: (0.35, 0.65) for m in ranker_report.REPORTED}, "n_queries": 482, "n_span_groups": 44,
        "candidate_recall": 0.8252, "candidate_recall_per_query": 0.8469,
        "gold_by_evidence": [EvidenceClass("shares two or more of the query's words", 10, 1.0, {10: 0.6, 100: 0.9}, [])],
        "ablation": rows,
        "learning_curve": [CurvePoint(0.25, 112.0, 112 / 385.6, figures, {m: (0.4, 0.6) for m in ranker_report.REPORTED}), CurvePoint(1.0, 385.6, 1.0, figures)],
        "baselines": {"bm25": figures}, "best_baseline": "bm25",
        "paired_tests": [PairedTest("ndcg_at_10", 0.5, 0.3, 0.2, Interval(0.1, 0.3), floor, 0.0329, Interval(0.05, 0.35), 0.0012)],
        "skipped": [],
    })


def test_ranker_report_corrects_the_variants_p_for_the_rows_tested_and_bounds_p_at_the_floor():
    from latin_intertext.evaluate import ranker_report

    markdown = ranker_report.to_markdown(_report(ranker_report))
    assert "| variant | nDCG@10 | difference [95% CI], paired p | Holm p | span-group p | Recall@100 | MAP | Recall@1000 |" in markdown
    assert "| without phrases | 0.5000 | -0.0200 [-0.0300, -0.0100], p = 0.0400 | 0.0800 | 0.1200 | 0.5000 |" in markdown  # 0.04 x 2; span groups 0.04 x 3
    assert "| settings: 75 trees | 0.5000 | +0.0010 [-0.0090, +0.0110], p = 0.8000 | 0.8000 | 1.0000 |" in markdown
    assert f"| {ranker_report.ORACLE_LABEL} | 0.5000 | +0.1000 [+0.0900, +0.1100], p ≤ 0.0001 | ≤ 0.0003 | 0.0003 |" in markdown  # 3 / 10,001, a bound
    assert "| full model (no author prior) | 0.5000 |  |  |  | 0.5000 |" in markdown
    assert "Holm p: the paired p corrected for the 3 rows tested against the first (Holm-Bonferroni)" in markdown
    assert "| ≤ 0.0001 | 0.0329 | [+0.0500, +0.3500] | 0.0012 |" in markdown and "< 0.0001" not in markdown  # as `compare` prints it
    assert "| ndcg_at_10 | 0.5000 | [0.4000, 0.6000] | [0.3500, 0.6500] |" in markdown
    assert "the 482 queries one by one, or the 44 span groups whole" in markdown


def test_ranker_report_gives_the_candidate_recall_of_lines_and_of_queries():
    from latin_intertext.benchmark import Benchmark, Query
    from latin_intertext.evaluate import ranker_report
    from latin_intertext.evaluate.lexical_evidence import candidate_recall

    class Stage1:
        doc_ids = ["a", "b", "c", "d"]

        def _features(self, text):
            return (np.array([0, 1]) if text == "one" else np.array([2])), None

    queries = [Query("q1", "one", 1, 1, 1, "[]", 3), Query("q2", "two", 1, 5, 5, "[]", 1)]
    bench = Benchmark([], queries, {"q1": {"a": 1, "c": 1, "d": 1}, "q2": {"c": 1}})
    assert candidate_recall(Stage1(), bench) == pytest.approx((2 / 4, (1 / 3 + 1) / 2))  # lines pooled; per query, as Recall@k
    markdown = ranker_report.to_markdown(_report(ranker_report))
    assert ("Candidate recall (stage 1 ceiling): 0.8252 of the relevant lines; 0.8469 as a mean over queries, "
            "the ceiling of Recall@100 and Recall@1000 from the reranked candidates.") in markdown
    assert "| relevant lines by lexical evidence | lines | share | in the top 10 | in the top 100 | commonest shared words |\n|---|---|---|---|---|---|" in markdown
    assert "| shares two or more of the query's words | 10 | 100.0% | 60.0% | 90.0% |  |" in markdown
    assert "Relevant lines in the top 10: 60.0%; in the top 100: 90.0%; with every line that shares a query word there (the rest as now): 100.0%." in markdown


def test_learning_curve_gives_the_share_drawn_beside_its_target(benchmark, monkeypatch):
    """Whole span groups overshoot the target share: the table shows the share the model learned from."""
    from latin_intertext.evaluate import ablation, ranker_report
    from latin_intertext.evaluate.cv import grouped_folds, training_ids

    monkeypatch.setattr(ablation, "out_of_fold", lambda *args, **kwargs: {})  # the figures do not matter here, the sizes do
    folds = grouped_folds(benchmark.queries, 5)
    curve = ablation.learning_curve(None, benchmark, folds, {m: 0.5 for m in ablation.REPORTED}, (0.25, 0.5))
    whole = np.mean([len(training_ids(benchmark, fold)) for fold in folds])
    assert [point.fraction for point in curve] == [0.25, 0.5, 1.0] and curve[-1].share == 1.0
    for point in curve[:-1]:
        assert point.share == pytest.approx(point.training_queries / whole) and point.share > point.fraction
    markdown = ranker_report.to_markdown(dataclasses.replace(_report(ranker_report), learning_curve=curve))
    assert f"| {curve[0].training_queries:.0f} | {curve[0].share:.0%} |" in markdown and "| 25% |" not in markdown
    assert "whole span groups can overshoot the targets of 25%, 50%" in markdown
