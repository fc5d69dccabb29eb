"""``evaluate``, ``compare`` and ``leaderboard`` through ``latin_intertext.cli.main`` on the real built dataset."""

from __future__ import annotations

import json
from pathlib import Path
import re

import numpy as np
import pytest
import pytrec_eval

from latin_intertext.cli import main
from latin_intertext.retrieve.base import REGISTRY, REQUIREMENTS, LearnedRetriever, RetrieverSpec

from conftest import FIXTURES, squash

RUNS = FIXTURES / "runs"


def beir_qrels(dataset_dir) -> dict[str, dict[str, int]]:
    """The qrels read straight from the BEIR TSV, independently of our loader."""
    qrels: dict[str, dict[str, int]] = {}
    for line in (dataset_dir / "beir" / "qrels" / "test.tsv").read_text().splitlines()[1:]:
        q, d, r = line.split("\t")
        qrels.setdefault(q, {})[d] = int(float(r))
    return qrels


@pytest.fixture(scope="module")
def external_run(dataset_dir, tmp_path_factory):
    """A run made outside the project: each query's relevant lines hidden among random lines, random scores."""
    rng = np.random.default_rng(7)
    qrels = beir_qrels(dataset_dir)
    doc_ids = [json.loads(line)["_id"] for line in (dataset_dir / "beir" / "corpus.jsonl").read_text().splitlines()]
    path = tmp_path_factory.mktemp("runs") / "external.run"
    lines = []
    for i, (q, rel) in enumerate(sorted(qrels.items())):
        if i % 10 == 0:
            continue  # some queries unanswered: they must score 0, not vanish
        docs = list(dict.fromkeys([*list(rel)[: 1 + i % 2], *rng.choice(doc_ids, 150, replace=False)]))
        scores = rng.random(len(docs)).round(3)  # rounding makes ties, which trec_eval breaks by doc id
        lines += [f"{q} Q0 {d} {r} {s} ext" for r, (d, s) in enumerate(zip(docs, scores), 1)]
    path.write_text("\n".join(lines) + "\n")
    run: dict[str, dict[str, float]] = {}
    for line in lines:
        q, _, d, _, s, _ = line.split()
        run.setdefault(q, {})[d] = float(s)
    return path, run, qrels


def test_evaluate_run_file_equals_pytrec_eval(dataset_dir, external_run, tmp_path, capsys):
    path, run, qrels = external_run
    out = tmp_path / "ext.json"
    assert main(["evaluate", "--dataset", str(dataset_dir), "--run", str(path), "--save-json", str(out), "--resamples", "1000"]) == 0
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10", "map", "recall.100"}).evaluate(run)
    expected = {key: sum(per_query.get(q, {}).get(key, 0.0) for q in qrels) / len(qrels) for key in ("ndcg_cut_10", "map", "recall_100")}
    report = json.loads(out.read_text())
    assert report["metrics"]["ndcg_at_10"] == pytest.approx(expected["ndcg_cut_10"], abs=1e-12)
    assert report["metrics"]["map"] == pytest.approx(expected["map"], abs=1e-12)
    assert report["metrics"]["recall_at_100"] == pytest.approx(expected["recall_100"], abs=1e-12)
    assert report["n_queries"] == 482 and report["n_queries_missing_from_run"] == 49
    assert report["queries_missing_from_run"] == sorted(q for q in qrels if q not in run)  # listed, not only counted
    assert set(report["per_author"]) == {"lucan", "ovid", "statius", "vergil"}
    assert sum(g["n_queries"] for g in report["per_span_length"].values()) == 482
    low, high = report["ci95"]["ndcg_at_10"]
    assert low < report["metrics"]["ndcg_at_10"] < high
    assert report["retriever"] == "external.run" and report["config"]["run_file"] == str(path) and len(report["config"]["run_file_sha256"]) == 64
    captured = capsys.readouterr()
    assert "nDCG@10" in captured.out and "by target author" in captured.out
    assert squash("a query counts under every author of its relevant lines, with its other authors' relevant lines taken out of its run") in squash(captured.out)
    assert "no results for 49 queries" in captured.err
    missing = report["queries_missing_from_run"]  # the terminal names the first ten, the report every one
    assert squash(f"they score 0: {', '.join(missing[:10])} and 39 more (evaluate --save-json lists every one).") in squash(captured.err)
    assert not any(q in squash(captured.err) for q in missing[10:])
    assert set(report["ci95"]) == set(report["ci95_span_groups"]) == set(report["metrics"])  # both intervals for every metric
    assert report["config"]["dataset_version"] == "1.0.0"
    depth = max(len(docs) for docs in run.values())
    assert report["run_depth"] == depth < 1000 and report["metrics_deeper_than_run"] == ["map", "recall_at_1000"]
    assert squash(f"lists at most {depth} documents a query, so MAP, Recall@1000 count no deeper than that") in squash(captured.err)


def test_evaluate_gives_each_author_an_interval_and_draws_the_breakdowns(dataset_dir, external_run, tmp_path, capsys):
    path = external_run[0]
    out, chart = tmp_path / "ext.json", tmp_path / "charts" / "ext.png"
    assert main(["evaluate", "--dataset", str(dataset_dir), "--run", str(path), "--save-json", str(out), "--plot", str(chart), "--resamples", "500"]) == 0
    report = json.loads(out.read_text())
    for kind in ("per_author", "per_span_length"):
        for name, group in report[kind].items():
            if group["n_queries"] < 20:  # VF spans of three lines or more: 3 queries, too few for a bootstrap to say anything
                assert "ci95" not in group and (kind, name) == ("per_span_length", "3+"), (kind, name)
                continue
            low, high = group["ci95"]["ndcg_at_10"]
            assert low <= group["metrics"]["ndcg_at_10"] <= high and high - low > 0, (kind, name)
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and chart.stat().st_size > 10_000
    printed = squash(capsys.readouterr().out)
    assert squash("no 95% CI for a row of fewer than 20 queries") in printed
    low, high = report["per_author"]["ovid"]["ci95"]["ndcg_at_10"]
    assert f"[{low:.4f}," in printed and f"{high:.4f}]" in printed  # the author table prints the interval the JSON holds (rich may wrap it)


def test_compare_draws_the_per_query_differences(dataset_dir, bm25_outputs, external_run, tmp_path, capsys):
    from latin_intertext.evaluate.comparison import compare_evaluations
    from latin_intertext.evaluate.metrics import Evaluation

    _, folder = bm25_outputs
    chart = tmp_path / "diff.png"
    assert main(["compare", str(folder / "bm25.run"), str(external_run[0]), "--dataset", str(dataset_dir), "--plot", str(chart), "--resamples", "200"]) == 0
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and chart.stat().st_size > 10_000
    assert "the same, by 44 span groups" in capsys.readouterr().out
    one, other = Evaluation(("q1", "q2"), {"ndcg_at_10": np.array([1.0, 0.0])}), Evaluation(("q2", "q1"), {"ndcg_at_10": np.array([1.0, 0.0])})
    with pytest.raises(ValueError, match="not over the same queries"):
        compare_evaluations(one, other, [0, 1], ("ndcg_at_10",))


@pytest.mark.parametrize("command", [["evaluate", "--run", str(RUNS / "unknown-doc.run")], ["compare", str(RUNS / "unknown-doc.run"), str(RUNS / "unknown-doc.run")]])
@pytest.mark.parametrize("name", ["chart.pdf", "chart.svg", "chart"])
def test_a_plot_not_named_png_is_refused_before_any_work(dataset_dir, tmp_path, capsys, command, name):
    """Charts are PNG only: a name that promises another format is a usage error, and nothing is written."""
    assert main([*command, "--dataset", str(dataset_dir), "--plot", str(tmp_path / name)]) == 2
    err = squash(capsys.readouterr().err)
    assert f"Invalidvaluefor'--plot':{tmp_path / name}:thechartisdrawnasPNG;giveafilenameendingin.png." in err
    assert "unknowndocid" not in err  # refused before the run was read
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("fixture", "messages"),
    [
        ("malformed.run", ["malformed.run:2:expected6fields", "malformed.run:3:rank'x'isnotaninteger", "qidQ0docidrankscoretag"]),
        ("unknown-query.run", ["1unknownqueryid(s)", "unknown-query.run:2:unknownqueryid'vf-9-1-1'(2line(s))"]),
        ("unknown-doc.run", ["1unknowndocid(s)", "unknown-doc.run:2:unknowndocid'homer-1-1'(1line(s))"]),
    ],
)
def test_bad_run_files_fail_with_their_message(dataset_dir, capsys, fixture, messages):
    for command in (["evaluate", "--run", str(RUNS / fixture)], ["compare", str(RUNS / fixture), str(RUNS / fixture)]):
        assert main([*command, "--dataset", str(dataset_dir)]) == 1
        err = squash(capsys.readouterr().err)
        assert err.startswith("error:")
        for message in messages:
            assert message in err


def test_evaluate_needs_exactly_one_source(dataset_dir, capsys):
    assert main(["evaluate", "--dataset", str(dataset_dir)]) == 1
    assert "Giveexactlyoneof--runFILEor--retrieverNAME" in squash(capsys.readouterr().err)
    assert main(["evaluate", "--dataset", str(dataset_dir), "--retriever", "no-such-retriever"]) == 1
    assert "Unknownretriever'no-such-retriever'" in squash(capsys.readouterr().err)


def test_missing_dataset_folder_is_an_error(tmp_path, capsys):
    assert main(["evaluate", "--dataset", str(tmp_path / "nowhere"), "--retriever", "bm25"]) == 1
    assert "isnotabuiltdatasetfolder" in squash(capsys.readouterr().err)


@pytest.fixture(scope="module")
def bm25_outputs(dataset_dir, tmp_path_factory):
    folder = tmp_path_factory.mktemp("bm25")
    code = main(["evaluate", "--dataset", str(dataset_dir), "--retriever", "bm25", "--save-run", str(folder / "bm25.run"), "--save-json", str(folder / "bm25.json"), "--resamples", "1000"])
    return code, folder


def test_evaluate_retriever_saves_a_run_that_scores_the_same(dataset_dir, bm25_outputs, tmp_path):
    code, folder = bm25_outputs
    assert code == 0
    report = json.loads((folder / "bm25.json").read_text())
    assert report["retriever"] == "bm25" and report["config"]["k"] == 1000
    assert report["run_depth"] == 1000 and report["metrics_deeper_than_run"] == []  # as deep as MTEB's runs: no metric is cut short
    assert report["n_queries_score_order_differs_from_rank"] == 0 and report["queries_score_order_differs_from_rank"] == []
    assert 0.15 < report["metrics"]["ndcg_at_10"] < 0.5
    assert main(["evaluate", "--dataset", str(dataset_dir), "--run", str(folder / "bm25.run"), "--save-json", str(tmp_path / "again.json"), "--resamples", "1000"]) == 0
    again = json.loads((tmp_path / "again.json").read_text())
    assert again["metrics"] == pytest.approx(report["metrics"], abs=1e-9)
    assert "k" not in again["config"] and again["n_queries_score_order_differs_from_rank"] == 0  # its ranks follow its scores
    assert again["ci95"] == report["ci95"]


def test_compare_same_run_and_different_runs(dataset_dir, bm25_outputs, external_run, tmp_path, capsys):
    _, folder = bm25_outputs
    same = tmp_path / "same.json"
    assert main(["compare", str(folder / "bm25.run"), str(folder / "bm25.run"), "--dataset", str(dataset_dir), "--save-json", str(same), "--resamples", "1000"]) == 0
    assert "bm25.runandbm25.runscorethesameoneveryquerybyeverymetric:nothingtocompare" in squash(capsys.readouterr().err)
    tests = json.loads(same.read_text())["tests"]
    assert all(t["diff"] == 0 and t["p_randomization"] == 1.0 and t["n_queries_differing"] == 0 for t in tests.values())
    from latin_intertext.sources.manifest import sha256_of

    written = json.loads(same.read_text())  # what the figures came from: the package, the dataset's checksums, the runs
    assert written["a_sha256"] == written["b_sha256"] == sha256_of(folder / "bm25.run") and written["dataset_version"] == "1.0.0"
    assert written["dataset_sha256sums"] == sha256_of(Path(dataset_dir) / "SHA256SUMS") and written["latin_intertext"]
    diff = tmp_path / "diff.json"
    assert main(["compare", str(folder / "bm25.run"), str(external_run[0]), "--dataset", str(dataset_dir), "--save-json", str(diff), "--resamples", "1000"]) == 0
    tests = json.loads(diff.read_text())["tests"]
    per_query = json.loads(diff.read_text())["per_query"]  # each query's figures, to find where the runs differ or redraw the chart
    a_evaluated = json.loads((folder / "bm25.json").read_text())["per_query"]
    assert per_query["a"].keys() == a_evaluated.keys() and len(per_query["b"]) == 482
    assert all(per_query["a"][q] == pytest.approx(a_evaluated[q], abs=1e-9) for q in a_evaluated)
    assert np.mean([row["ndcg_at_10"] for row in per_query["b"].values()]) == pytest.approx(tests["ndcg_at_10"]["b"])
    assert len(set(json.loads(diff.read_text())["span_group"].values())) == 44
    ndcg = tests["ndcg_at_10"]
    assert ndcg["diff"] == pytest.approx(ndcg["a"] - ndcg["b"]) and ndcg["diff"] > 0.1  # BM25 beats random scores
    # so clearly that no sign flip of the 1000 reaches it: p is the smallest a 1000-resample test gives, 1/1001
    assert ndcg["p_randomization"] == pytest.approx(1 / 1001) and ndcg["p_bootstrap"] < 0.01
    assert ndcg["ci95"][0] > 0  # the whole interval of A - B above 0
    # span groups: fewer units, so a wider interval, yet still clear of 0
    low, high = ndcg["ci95_span_groups"]
    assert 0 < low and high - low > ndcg["ci95"][1] - ndcg["ci95"][0] and json.loads(diff.read_text())["n_span_groups"] == 44
    assert ndcg["p_randomization_span_groups"] < 0.01
    printed = capsys.readouterr().out
    assert "A = bm25.run, B = external.run" in printed and "MRR@10" in printed
    assert "…" not in printed and f"{ndcg['ci95'][0]:+.4f}, {ndcg['ci95'][1]:+.4f}]" in printed  # piped, no figure is cut short
    assert "≤0.0010" in squash(printed)  # p at the floor of 1000 resamples is a bound, printed as the ranker report prints it
    err = squash(capsys.readouterr().err)
    assert ndcg["n_queries_differing"] > 100 and "fewer than 20 queries differ" not in err and "nothingtocompare" not in err


def test_compare_warns_that_an_interval_from_few_differing_queries_is_too_narrow(dataset_dir, bm25_outputs, tmp_path, capsys):
    """Runs that differ on 4 queries: the percentile interval left out 0 while the randomization p was 0.125."""
    _, folder = bm25_outputs
    lines = (folder / "bm25.run").read_text().splitlines(keepends=True)
    changed = sorted({line.split()[0] for line in lines})[:4]
    fewer = tmp_path / "fewer.run"  # four queries answered with nothing relevant at the top
    fewer.write_text("".join(line for line in lines if line.split()[0] not in changed))
    json_path = tmp_path / "c.json"
    assert main(["compare", str(fewer), str(folder / "bm25.run"), "--dataset", str(dataset_dir), "--save-json", str(json_path), "--resamples", "1000"]) == 0
    from latin_intertext.evaluate.metrics import HEADLINE, METRICS

    tests = json.loads(json_path.read_text())["tests"]
    ndcg = tests["ndcg_at_10"]
    assert 0 < ndcg["n_queries_differing"] <= 4 and ndcg["p_randomization"] > 0.05
    assert all(0 < tests[m]["n_queries_differing"] <= 4 for m in HEADLINE)  # so every metric is named in the warning
    printed = capsys.readouterr()
    labels = ", ".join(METRICS[m].label for m in HEADLINE)
    assert squash(f"warning: on {labels}, fewer than 20 queries differ: a percentile bootstrap interval of so few is too narrow "
                  "(it can leave out 0 where the difference is no more than chance); read the randomization p.") in squash(printed.err)
    # the table's last column counts, metric by metric, the queries differing that the JSON gives
    paired = printed.out.split("the same, by ")[0]
    rows = [cells for line in paired.splitlines() if (cells := [c.strip() for c in line.split("\u2502")[1:-1]]) and cells[0]]
    assert [cells[-1] for cells in rows] == [str(tests[m]["n_queries_differing"]) for m in HEADLINE]


@pytest.fixture(scope="module")
def reranked_runs(bm25_outputs, tmp_path_factory):
    """BM25's top 10 per query as saved, and as a run whose scores contradict its ranks: the rank in the score
    column, or every score 0 (both silently scored in score order before)."""
    _, folder = bm25_outputs
    top = [line.split() for line in (folder / "bm25.run").read_text().splitlines() if int(line.split()[3]) <= 10]
    out = tmp_path_factory.mktemp("reranked")
    paths = {}
    for name, score in (("good", lambda f: f[4]), ("rank-as-score", lambda f: f[3]), ("zeros", lambda f: "0")):
        paths[name] = out / f"{name}.run"
        paths[name].write_text("".join(f"{f[0]} Q0 {f[2]} {f[3]} {score(f)} t\n" for f in top))
    return paths


@pytest.mark.parametrize("name, reason", [("rank-as-score", "rank1(vergil-"), ("zeros", "all10documentshavescore0.0")])
def test_scores_that_contradict_ranks_are_warned_of_and_listed_in_evaluate_and_compare(dataset_dir, reranked_runs, tmp_path, capsys, name, reason):
    bad, good = reranked_runs[name], reranked_runs["good"]
    report_path = tmp_path / "bad.json"
    assert main(["evaluate", "--dataset", str(dataset_dir), "--run", str(bad), "--save-json", str(report_path), "--resamples", "100"]) == 0
    err = squash(capsys.readouterr().err)
    assert f"warning:in{squash(str(bad))},thescoresof482queriesdonotfollowtheirranks" in err and reason in err
    assert "rankedbyscorealone,astrec_evaldoes" in err
    report = json.loads(report_path.read_text())
    listed = report["queries_score_order_differs_from_rank"]
    assert report["n_queries_score_order_differs_from_rank"] == len(listed) == 482
    assert listed[0]["line"] == 1 and squash(listed[0]["reason"]).startswith(reason)
    compared = tmp_path / "cmp.json"
    assert main(["compare", str(bad), str(good), "--dataset", str(dataset_dir), "--save-json", str(compared), "--resamples", "100"]) == 0
    data = json.loads(compared.read_text())
    ndcg, notes = data["tests"]["ndcg_at_10"], data["run_notes"]
    assert ndcg["a"] == pytest.approx(report["metrics"]["ndcg_at_10"]) and ndcg["a"] < ndcg["b"] - 0.05  # ranked by score, as trec_eval ranks
    assert notes["a"]["n_queries_score_order_differs_from_rank"] == 482 and notes["b"]["n_queries_score_order_differs_from_rank"] == 0
    assert notes["a"]["queries_score_order_differs_from_rank"] == listed
    assert "thescoresof482queriesdonotfollowtheirranks" in squash(capsys.readouterr().err)


def test_evaluate_refuses_k_with_a_run_file(dataset_dir, reranked_runs, tmp_path, capsys):
    """--k cuts what a retriever retrieves; a run file is scored whole, so --k there would be recorded but ignored."""
    out = tmp_path / "k.json"
    assert main(["evaluate", "--dataset", str(dataset_dir), "--run", str(reranked_runs["good"]), "--k", "10", "--save-json", str(out)]) == 1
    assert "--kappliesto--retrieveronly" in squash(capsys.readouterr().err)
    assert not out.exists()


def test_evaluate_names_a_folder_given_as_run_file(dataset_dir, tmp_path, capsys):
    assert main(["evaluate", "--dataset", str(dataset_dir), "--run", str(tmp_path)]) == 1
    err = squash(capsys.readouterr().err)
    assert "isafolder,notarunfile" in err and "notfound" not in err


class _FakeLearned(LearnedRetriever):
    """Scores lines by corpus position; records what each fit saw so leakage would show."""

    fitted: list[set[str]] = []

    def _index(self, corpus):
        self._scores = np.arange(len(corpus), 0, -1, dtype=float)

    def fit(self, train):
        _FakeLearned.fitted.append({q.id for q in train.queries})
        return self

    def score_all(self, text):
        return self._scores


def _broken():
    raise ImportError("No module named 'imaginary_extra'")


@pytest.fixture
def fake_retrievers(monkeypatch):
    _FakeLearned.fitted = []
    monkeypatch.setitem(REGISTRY, "fake-learned", RetrieverSpec("fake-learned", _FakeLearned, "test double", learned=True, caveat="grid from a test"))
    monkeypatch.setitem(REGISTRY, "fake-broken", RetrieverSpec("fake-broken", _FakeLearned, "needs an extra", needs=("imaginary extra",)))
    monkeypatch.setitem(REQUIREMENTS, "imaginary extra", _broken)


def test_learned_retriever_requires_cv_and_never_fits_on_test_queries(dataset_dir, fake_retrievers, tmp_path, capsys, monkeypatch):
    from latin_intertext.retrieve.base import ALIASES

    assert main(["evaluate", "--dataset", str(dataset_dir), "--retriever", "fake-learned"]) == 1
    assert "--cvN" in squash(capsys.readouterr().err)
    out = tmp_path / "cv.json"
    monkeypatch.setitem(ALIASES, "fake-best", "fake-learned")  # as `best` names evidence-ranker
    assert main(["evaluate", "--dataset", str(dataset_dir), "--retriever", "fake-best", "--cv", "3", "--k", "10", "--save-json", str(out), "--resamples", "200"]) == 0
    report = json.loads(out.read_text())
    assert report["config"]["cv_folds"] == 3 and len(report["config"]["folds"]) == 3 and report["retriever"] == "fake-learned"
    err = capsys.readouterr().err
    assert "fake-learned fold 0: VF 1." in err and "fake-best" not in err  # each fold under the name the table gives
    assert len(_FakeLearned.fitted) == 3
    all_ids = set().union(*_FakeLearned.fitted)
    assert len(all_ids) == 482 and all(len(seen) < 482 for seen in _FakeLearned.fitted)


def test_leaderboard_writes_markdown_and_plot_and_reports_skips(dataset_dir, bm25_outputs, fake_retrievers, tmp_path, capsys, monkeypatch):
    """Every registered retriever by default, one that cannot run here skipped and listed; named, it is an error."""
    import latin_intertext.retrieve as retrieve

    _, folder = bm25_outputs
    md = tmp_path / "board" / "leaderboard.md"
    named = ["leaderboard", "--dataset", str(dataset_dir), "--retriever", "bm25", "--retriever", "fake-broken", "--k", "10", "--out", str(md)]
    assert main(named) == 1
    err = squash(capsys.readouterr().err)
    assert squash("--retriever fake-broken cannot run here (needs imaginary extra): No module named 'imaginary_extra'") in err
    assert "bm25:nDCG@10" not in err, "refused before any retriever ran, not after bm25"
    assert not md.exists()
    everything = retrieve.load_all()
    monkeypatch.setattr(retrieve, "load_all", lambda: {n: everything[n] for n in ("bm25", "fake-broken", "fake-learned")})
    args = ["leaderboard", "--dataset", str(dataset_dir), "--cv", "3", "--k", "100"]
    assert main([*args, "--run", str(folder / "bm25.run"), "--out", str(md), "--resamples", "500"]) == 0
    text = md.read_text()
    assert text.startswith("# LatinEpicIntertextualityRetrieval leaderboard (dataset 1.0.0)\n")  # the data's version, not a path of this machine
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert {r.split("|")[1].strip() for r in rows[:2]} == {"`bm25.run (run)`", "`bm25`"}  # the same run twice, told apart
    assert any("`fake-learned`" in r and "| 3-fold CV; grid from a test |" in r for r in rows)  # the registry's caveat, in Notes
    assert "- `fake-broken`: No module named 'imaginary_extra' (needs imaginary extra)" in text
    assert re.search(r"\| `bm25` \| 0\.\d{4} \[0\.\d{4}, 0\.\d{4}\] \|", text)
    png = md.with_suffix(".png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "skipped" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, message",
    [(["search", "arma virumque", "--top", "3"], "No such option: --top"), (["search"], "Missing argument"), (["evaluate", "--cv", "many"], "Invalid value for '--cv'"),
     (["evaluate", "--resamples", "1000000000"], "Invalid value for '--resamples'")],
)
def test_usage_errors_are_one_line_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and "Usage: latin-intertext" in err
