"""The README's prose quotes the figures `latin-intertext figures` generated (docs/results/), not older ones.

The tables between the README's figure markers are written by the command; the sentences around them restate some
of their figures, rounded. Each sentence checked here is rebuilt from docs/results/ranker-report.json and
leaderboard.md, so a regeneration that moves a figure fails here until the prose follows it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from published import RESULTS, leaderboard

from latin_intertext.evaluate.ranker_report import NESTED_LABEL
from latin_intertext.evaluate.stats import format_p

REPO = Path(__file__).resolve().parents[1]


PROSE = ("README.md", "docs/latin.md", "docs/evidence-ranker.md")  # the README and the pages it sends readers to


def _prose() -> str:
    """The README and its pages outside the generated blocks, whitespace collapsed (sentences wrap across lines)."""
    text = "\n".join((REPO / name).read_text(encoding="utf-8") for name in PROSE)
    text = re.sub(r"<!-- figures:(\w+) -->.*?<!-- /figures:\1 -->", "", text, flags=re.S)
    return " ".join(text.split())


NUMBERS = ("None", "One", "Two", "Three", "Four", "Five")


def _intervals_clear(n: int) -> str:
    """How the README counts the variant rows whose interval leaves out 0 ("one interval leaves", "two intervals leave")."""
    if n <= 1:
        return ("no", "one")[n] + " interval leaves"
    return f"{NUMBERS[n].lower() if n < len(NUMBERS) else n} intervals leave"


def _expected() -> list[str]:
    report = json.loads((RESULTS / "ranker-report.json").read_text(encoding="utf-8"))
    rows = {row["variant"]: row for row in report["ablation"]}
    full, board = report["metrics"], leaderboard()
    prior = next(row for label, row in rows.items() if "learned author prior" in label)
    themes = next(row for label, row in rows.items() if "word-vector themes" in label)
    oracle = next(row for label, row in rows.items() if label.startswith("oracle"))
    phrases = rows["without phrases"]["vs_full"]
    best = report["best_baseline"]
    curve = report["learning_curve"]
    nested, nested_row = report["nested"], rows[NESTED_LABEL]
    others = sum(choice["chosen"] != nested["grid"][0] for choice in nested["choices"])
    evidence = report["gold_by_evidence"]
    top10 = sum(g["share"] * g["found_at_10"] for g in evidence)
    tested = [row["vs_full"] for label, row in rows.items() if "vs_full" in row and not label.startswith("oracle")]
    clear = sum(low > 0 or high < 0 for low, high in (test["ci95"] for test in tested))  # rows whose interval leaves out 0
    assert prior["vs_full"]["ci95"][0] > 0, "the README names the author prior first among the rows clear of 0: rewrite that sentence"
    return [
        f"nDCG@10 {full['ndcg_at_10']:.3f} against a goal of 0.45, Recall@100 {full['recall_at_100']:.2f} against 0.85",
        f"The top 10, which nDCG@10 scores, holds {top10:.1%} of the relevant lines: {evidence[0]['found_at_10']:.1%} of those sharing two or more "
        f"of the query's words, {evidence[1]['found_at_10']:.1%} of those sharing one word that under 20 lines hold",
        f"({evidence[2]['found_at_10']:.1%} and {evidence[3]['found_at_10']:.1%} of the two commoner bands)",
        f"hold {100 * report['candidate_recall']:.1f}% of the relevant lines, and {report['candidate_recall_per_query']:.3f} of a query's relevant lines",
        f"best baseline is `{best}` ({board[best]['ndcg_at_10']:.3f})",
        f"`word2vec` scores {board['word2vec']['ndcg_at_10']:.3f} nDCG@10 and `word2vec-tuned` {board['word2vec-tuned']['ndcg_at_10']:.3f}",
        f"(Recall@1000 {board['word2vec']['recall_at_1000']:.3f} against {board['word2vec-tuned']['recall_at_1000']:.3f})",
        f"adds {prior['vs_full']['diff']:+.3f} nDCG@10",
        f"reaches {prior['ndcg_at_10']:.3f}",
        f"(Recall@100 {themes['recall_at_100']:.3f} against {full['recall_at_100']:.3f})",
        f"nDCG@10 ({themes['ndcg_at_10']:.3f} against {full['ndcg_at_10']:.3f}",
        f"It reaches nDCG@10 about {oracle['ndcg_at_10']:.2f}, but Recall@100 only about {oracle['recall_at_100']:.2f}",
        f"nDCG@10 climbs from about {curve[0]['ndcg_at_10']:.3f} ({curve[0]['training_queries']:.0f} training queries)",
        "Recall@100: " + ", ".join(f"{row['recall_at_100']:.3f}" for row in curve) + ",",
        f"span-group p {prior['vs_full']['p_randomization_span_groups']:.4f})",
        "{} out 0: the learned author prior ({:+.3f}, [{:+.3f}, {:+.3f}]".format(_intervals_clear(clear), prior["vs_full"]["diff"], *prior["vs_full"]["ci95"]),
        f"{'survives' if prior['vs_full']['p_holm'] < 0.05 else 'does not survive'} the correction (Holm p {prior['vs_full']['p_holm']:.3f})",
        "Next come the phrase evidence ({:+.3f}, [{:+.3f}, {:+.3f}]".format(phrases["diff"], *phrases["ci95"]),
        "the span-group interval of the nDCG@10 margin is [{:+.3f}, {:+.3f}]".format(*report["paired_tests"][0]["ci95_span_groups"]),
        f"printing {board['dense']['ndcg_at_10']:.4f} and {board['bm25-lemma']['ndcg_at_10']:.4f}, to four places",  # the MTEB example
        f"{'All five folds' if others == 5 else NUMBERS[others] + ' of the five folds'} chose other settings than the shipped ones",
        f"the run so built scores {nested_row['ndcg_at_10']:.3f} nDCG@10 and {nested_row['recall_at_100']:.3f} Recall@100, against the headline's "
        f"{full['ndcg_at_10']:.3f} and {full['recall_at_100']:.3f} ({nested_row['vs_full']['diff']:+.3f} nDCG@10, p = {nested_row['vs_full']['p_randomization']:.2f})",
    ]


def _expected_transfer() -> list[str]:
    report = json.loads((RESULTS / "transfer-report.json").read_text(encoding="utf-8"))
    ranker, best = report["scores"]["evidence-ranker"], report["best_baseline"]
    ndcg, recall = (next(t for t in report["paired_tests"] if t["metric"] == m) for m in ("ndcg_at_10", "recall_at_100"))
    return [
        f"all {report['corpus_lines']:,} lines of Valerius Flaccus' *Argonautica*",
        f"the {len(report['left_out'])} epic lines cited from passages of two folds are left out",
        f"nDCG@10 {ranker['ndcg_at_10']:.3f} against `{best}`'s {report['scores'][best]['ndcg_at_10']:.3f} ({ndcg['diff']:+.3f}, p {format_p(ndcg['p_randomization'])}; "
        f"span-group p {format_p(ndcg['p_randomization_span_groups'])}), Recall@100 {ranker['recall_at_100']:.3f} against {report['scores'][best]['recall_at_100']:.3f}",
    ]


@pytest.mark.parametrize("sentence", _expected() + _expected_transfer())
def test_readme_prose_quotes_the_generated_figures(sentence):
    assert sentence in _prose(), f"README prose should read {sentence!r}, as docs/results now says"


def test_the_published_report_has_the_layout_ranker_report_writes():
    """docs/results/ranker-report.json is what `ranker-report --save-json` writes (RankerReport.to_json): same fields, same order."""
    from dataclasses import fields

    from latin_intertext.evaluate.ranker_report import RankerReport

    from latin_intertext.evaluate.ablation import REPORTED, CurvePoint
    from latin_intertext.evaluate.lexical_evidence import EvidenceClass
    from latin_intertext.evaluate.ranker_report import VariantRow
    from latin_intertext.evaluate.stats import Interval, PairedTest

    published = json.loads((RESULTS / "ranker-report.json").read_text(encoding="utf-8"))
    assert list(published) == [f.name for f in fields(RankerReport) if f.name != "run"]
    # each kind of row, key by key and in order, as its dataclass writes it (a float stands for every figure)
    metrics, interval = dict.fromkeys(REPORTED, 0.5), Interval(0.1, 0.2)
    rows = {
        "gold_by_evidence": EvidenceClass("", 1, 0.5, {10: 0.5, 100: 0.5}, []).to_json(),
        "ablation": VariantRow("", metrics, PairedTest("ndcg_at_10", 0.5, 0.5, 0.0, interval, 0.5, 0.5, interval, 0.5), 0.5).to_json(),
        "learning_curve": CurvePoint(0.5, 1.0, 0.5, metrics, {m: (0.4, 0.6) for m in REPORTED}).to_json(),
    }
    for name, written in rows.items():
        row = published[name][1]  # a tested variant, a drawn point of the curve
        assert list(row) == list(written), name
        for key, value in written.items():
            assert type(row[key]) is type(value) and (list(row[key]) == list(value) if isinstance(value, dict) else True), (name, key)
    assert list(published["ablation"][0]) == list(VariantRow("", metrics).to_json())
    assert list(published["learning_curve"][-1]) == list(CurvePoint(1.0, 1.0, 1.0, metrics).to_json())


def test_the_published_transfer_report_has_the_layout_transfer_report_writes():
    from dataclasses import fields

    from latin_intertext.evaluate.transfer import TransferReport

    published = json.loads((RESULTS / "transfer-report.json").read_text(encoding="utf-8"))
    assert list(published) == [f.name for f in fields(TransferReport) if f.name != "run"]


def test_the_readme_counts_the_lemmatiser_s_corrections_as_the_table_holds_them():
    from latin_intertext import latin

    assert f"and {len(latin.SIMPLEMMA_ERRORS)} frequent forms whose simplemma lemma is none of their readings" in _prose()
    assert f"as do {len(latin.VERSE_READINGS)} forms whose simplemma lemma is a reading verse hardly means" in _prose()
    assert f"; {len(latin.PARADIGM_READINGS)} forms of an adjective that neither lexicon reads as the adjective" in _prose()


def _search_model_home(trained_model, monkeypatch) -> None:
    """Search with the model `train-ranker` writes (the fixture trains it the same way)."""
    monkeypatch.setenv("LATIN_INTERTEXT_HOME", str(trained_model.parents[1]))


def test_the_readme_s_example_of_letter_case_quotes_where_the_search_model_ranks_lucan_6_400(benchmark, trained_model, monkeypatch):
    from latin_intertext.serve.searcher import Searcher

    _search_model_home(trained_model, monkeypatch)
    searcher = Searcher.from_benchmark(benchmark, retriever="best")
    passage = "Prima deum magnis canimus freta pervia natis"
    ranks = [next((i for i, hit in enumerate(searcher.search(text, k=100), 1) if hit.id == "lucan-6-400"), None) for text in (passage, passage.lower())]
    assert ranks[0] is not None and ranks[0] <= 20, "the example should show the parallel in the top 20 it asks for"
    in_small_letters = f"at rank {ranks[1]}" if ranks[1] else "not even in the top 100"
    assert f"puts VF 1.1's parallel Lucan 6.400, *Prima fretum scindens Pagasaeo litore pinus*, which the gold does not list, at rank {ranks[0]}, and the same passage in small letters {in_small_letters}" in _prose()
    assert "lucan-6-400" not in {doc for qrels in benchmark.qrels.values() for doc in qrels}


def test_the_readme_s_example_of_a_faithful_tesserae_v3_ranking_the_quoted_line_low(benchmark):
    from latin_intertext.serve.searcher import Searcher

    hits = Searcher.from_benchmark(benchmark, retriever="tesserae").search("arma virumque", k=100)
    rank = next(hit.rank for hit in hits if hit.id == "vergil-1-1")
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    assert f"*arma virumque* puts Aeneid 1.1 {rank}{suffix}," in _prose()


def test_the_readme_s_example_of_a_short_passage_whose_common_pair_outranks_its_rare_word(benchmark, trained_model, monkeypatch):
    from latin_intertext.serve.searcher import Searcher

    _search_model_home(trained_model, monkeypatch)
    hits = Searcher.from_benchmark(benchmark, retriever="best").search("Emathiis ne quis", k=100)
    rank = next(hit.rank for hit in hits if hit.id == "ovid-5-313")
    above = [{m.lemma for m in hit.matches} for hit in hits[: rank - 1]]
    assert {"ne", "quis"} in above and "*Emathiis ne quis* puts Ovid's *vel nos Emathiis ad Paeonas usque nivosos* below lines of *ne quis*" in _prose()


def test_the_readme_s_scores_of_one_verbatim_line_in_two_corpora_are_the_search_model_s(sources_dir, trained_model, monkeypatch, tmp_path):
    from latin_intertext.serve.searcher import Searcher

    _search_model_home(trained_model, monkeypatch)
    catullus = sources_dir / "tesserae-la" / "catullus.carmina.tess"
    five = tmp_path / "catullus.five.tess"
    five.write_text("".join(catullus.read_text(encoding="utf-8").splitlines(keepends=True)[:5]), encoding="utf-8")
    scores = []
    for path in (catullus, five):
        searcher = Searcher.from_tess(path, retriever="best")
        best = searcher.search("Cui dono lepidum novum libellum", k=1)[0]
        assert best.id.endswith("-1-1")
        scores.append((len(searcher.corpus), best.score))
    (lines, whole), (_, first_five) = scores
    assert f"*Cui dono lepidum novum libellum* scores {whole:.2f} among Catullus' {lines:,} lines and {first_five:.2f} in a file of his first five" in _prose()


def test_the_readme_s_quirk_of_phrases_beyond_their_span_quotes_the_build_report(dataset_dir):
    rows = json.loads((dataset_dir / "build_report.json").read_text(encoding="utf-8"))["phrases_beyond_span"]
    result = [r for r in rows if r["side"] == "result"]
    unheld = [r for r in result if r["none_held"]]
    prose = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    next_line = sum(r["where"] == "the next line" for r in result)
    only_next = sum(r["where"] == "the next line" for r in unheld)
    assert f"{len(result)} result phrases ({next_line} with the words on the next line; {len(unheld)} share no word" in prose
    assert f"{only_next} of them quoting the next line only" in prose
    assert f"and {len(rows) - len(result)} query phrases" in prose
    assert f"in {len(unheld)} parallels the line the qrels mark holds none of the words the gold's result phrase quotes, which stand on the next line in {only_next}" in prose


@pytest.mark.parametrize("page", ["README.md", *sorted(str(p.relative_to(REPO)) for p in (REPO / "docs").glob("*.md"))])
def test_every_relative_link_of_the_readme_and_its_pages_leads_to_a_file_of_the_repository(page):
    """The README sends readers to docs/latin.md and docs/evidence-ranker.md, and they back: a moved page breaks no link."""
    path = REPO / page
    links = re.findall(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)", path.read_text(encoding="utf-8"))
    local = [(target, anchor) for target, anchor in links if "://" not in target]
    assert local or page not in PROSE[:1], "the README links to its pages"
    missing = [target for target, _ in local if target and not (path.parent / target).exists()]
    assert not missing, f"{page} links to {missing}, which do not exist"
    unknown = [f"{target}#{anchor}" for target, anchor in local if anchor and anchor not in _anchors(path.parent / target if target else path)]
    assert not unknown, f"{page} links to {unknown}: no heading of that page gives such an anchor"


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation but hyphens dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def _full_git_history() -> bool:
    import subprocess

    try:
        shallow = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--is-shallow-repository"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return False
    return shallow.strip() == "false"


@pytest.mark.skipif(not _full_git_history(), reason="the table is read from the repository's full git history")
def test_the_record_of_every_regeneration_is_the_table_the_git_history_gives():
    """docs/evidence-ranker.md's table is `python -m latin_intertext.evaluate.history` over every committed ranker
    report, never typed in: a regeneration fails here until the page is written again."""
    from latin_intertext.evaluate import history

    found = history.regenerations(REPO)
    page = (REPO / "docs" / "evidence-ranker.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- figures:history -->\n(.*?)<!-- /figures:history -->", page, re.S)[1]
    assert block == history.to_markdown(found)
    assert found[-1].report == json.loads((RESULTS / "ranker-report.json").read_text(encoding="utf-8")) or _uncommitted_report()
    last = block.splitlines()[-1]
    assert last.startswith(f"| {found[-1].commit} | ") and f"| {found[-1].report['metrics']['ndcg_at_10']:.4f} |" in last


def _uncommitted_report() -> bool:
    """The working tree's report differs from the last committed one only while a regeneration is being committed."""
    import subprocess

    return bool(subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "docs/results/ranker-report.json"], capture_output=True, text=True).stdout.strip())


def test_the_readme_lists_the_ranker_s_feature_families_as_the_ranker_defines_them():
    """Stage 2's list in the README names each family of `ranker.FAMILIES` that the default model uses, and no other."""
    from latin_intertext.retrieve.ranker import FAMILIES, OPTIONAL_FAMILIES

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    stage_2 = readme[readme.index("**Stage 2**"):readme.index("Lemmas are every candidate simplemma")]
    listed = re.findall(r"^- \*\*([\w -]+):\*\*", stage_2, re.M)
    assert sorted(name.lower() for name in listed) == sorted(set(FAMILIES) - set(OPTIONAL_FAMILIES))
