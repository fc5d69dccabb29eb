"""build: the card's figures from the real sources, each source quirk, and bad input refused with nothing written."""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from conftest import squash
from fixtures.build.helpers import block_network, real_copy, run_cli, tamper, tiny_mirror, use_manifest_of  # noqa: F401 (fixtures)
from latin_intertext.benchmark import CorpusLine
from latin_intertext.build.dataset import GOLD_FILE, beyond_span_summary, build_benchmark, numbering_gaps, phrases_beyond_spans
from latin_intertext.errors import InputError
from latin_intertext.sources.gold import AUTHORS, GoldParallel, line_ends

TEXTS = "naacl2021/texts"
# (file, line, citation, dropped verse) of the nine duplicate citations, in build order.
DUPLICATES = [
    ("lucan.bellum_civile.part.1.tess", 430, "<luc. 1.430>"),
    ("lucan.bellum_civile.part.5.tess", 595, "<luc. 5.595>"),  # the gold quotes line 596 (turbo rapax): the first is dropped
    *[("lucan.bellum_civile.part.7.tess", 865 + i, f"<luc. 7.{865 + i}>") for i in range(5)],
    ("lucan.bellum_civile.part.9.tess", 411, "<luc. 9.410>"),
    ("ovid.metamorphoses.part.4.tess", 769, "<ov. met. 4.768>"),
]


def raw_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8-sig").splitlines()


def verse_at(path: Path, lineno: int) -> str:
    """The verse on a 1-based line of a .tess file, read without the project's parser."""
    return re.split(r"[\t ]", raw_lines(path)[lineno - 1].split(">", 1)[1], maxsplit=1)[-1].strip()


def gold_groups(sources_dir: Path) -> dict[str, list[dict]]:
    with open(sources_dir / GOLD_FILE, encoding="utf-8", newline="") as fh:
        groups: dict[str, list[dict]] = {}
        for row in csv.DictReader(fh):
            groups.setdefault(f"vf-1-{row['VF: Line Start']}-{row['VF: Line End']}", []).append(row)
    return groups


@pytest.fixture(scope="module")
def report(dataset_dir) -> dict:
    return json.loads((dataset_dir / "build_report.json").read_text())


# --- the card's figures, from the real sources -------------------------------------------------


def test_card_figures(benchmark):
    per_query = [len(docs) for docs in benchmark.qrels.values()]
    assert (len(benchmark.corpus), len(benchmark.queries), sum(per_query)) == (39675, 482, 978)
    assert (round(sum(per_query) / len(per_query), 2), min(per_query), max(per_query)) == (2.03, 1, 10)
    assert Counter(d.author for d in benchmark.corpus) == {"Ovid": 11995, "Vergil": 9896, "Statius": 9731, "Lucan": 8053}
    assert sum(q.n_parallels for q in benchmark.queries) == 945
    assert list(benchmark.qrels) == [q.id for q in benchmark.queries]


def test_ids_and_fields(benchmark):
    assert len({d.id for d in benchmark.corpus}) == 39675
    for d in benchmark.corpus:
        assert d.id == f"{d.author.lower()}-{d.book}-{d.line}"
        assert d.tess_index.endswith(f" {d.book}.{d.line}>")
    works = {d.author: d.work for d in benchmark.corpus}
    assert works == {"Vergil": "Aeneid", "Lucan": "Bellum Civile", "Ovid": "Metamorphoses", "Statius": "Thebaid"}
    first = benchmark.corpus[0]
    assert (first.id, first.tess_index, first.book, first.line) == ("vergil-1-1", "<verg. aen. 1.1>", 1, 1)
    statius = benchmark.corpus[benchmark.doc_index["statius-1-1"]]
    assert (statius.tess_index, statius.text) == ("<stat. theb. 1.1>", "Fraternas acies alternaque regna profanis")
    for q in benchmark.queries:
        assert q.id == f"vf-1-{q.line_start}-{q.line_end}" and q.vf_book == 1 and q.line_start <= q.line_end
    assert {d for docs in benchmark.qrels.values() for d in docs} <= set(benchmark.doc_index)


def test_query_text_is_the_span_joined_by_one_space(benchmark, sources_dir):
    vf = {}
    for line in raw_lines(sources_dir / TEXTS / "valerius_flaccus.argonautica.part.1.tess"):
        if line.strip():
            tag, verse = line.split("\t", 1)
            vf[int(tag.rstrip(">").split(".")[-1])] = verse.strip()
    queries = {q.id: q for q in benchmark.queries}
    assert queries["vf-1-1-1"].text == "Prima deum magnis canimus freta pervia natis"
    assert queries["vf-1-3-4"].text == (
        "ausa sequi mediosque inter iuga concita cursus rumpere flammifero tandem consedit Olympo."
    )
    multi = [q for q in benchmark.queries if q.span_length > 1]
    assert len(multi) == 66 and max(q.span_length for q in multi) >= 3
    for q in benchmark.queries:
        assert q.text == " ".join(vf[n] for n in range(q.line_start, q.line_end + 1))


def test_query_phrases_n_parallels_and_qrels_match_the_gold_file(benchmark, sources_dir):
    groups = gold_groups(sources_dir)
    assert [q.id for q in benchmark.queries] == list(groups)  # order of first appearance
    for q in benchmark.queries:
        rows = groups[q.id]
        assert json.loads(q.query_phrases) == list(dict.fromkeys(r["Query Phrase"].strip() for r in rows))
        assert q.n_parallels == len(rows)
        expected = {
            f"{AUTHORS[r['Intertext: Author']]}-{r['Intertext: Book']}-{n}"
            for r in rows
            for n in range(int(r["Intertext: Line Start"]), int(r["Intertext: Line End"]) + 1)
        }
        assert set(benchmark.qrels[q.id]) == expected
    first = next(q for q in benchmark.queries if q.id == "vf-1-1-1")
    assert json.loads(first.query_phrases) == ["prima canimus", "prima sequi", "prima deum", "prima magnis", "canimus freta"]
    assert first.n_parallels == 7


def test_readme_examples_of_parallels_the_gold_does_not_list(benchmark):
    """The README's examples of close verbal parallels missing from the gold: the cited line is in the qrels, the
    uncited one is not, and both hold the query's phrase."""
    text = {d.id: d.text for d in benchmark.corpus}
    queries = {q.id: q.text for q in benchmark.queries}
    for query, cited, uncited, phrase in (
        ("vf-1-795-795", "vergil-4-372", "vergil-9-209", "aequis"),
        ("vf-1-209-209", "vergil-3-40", "vergil-7-95", "vox reddita"),
    ):
        assert cited in benchmark.qrels[query] and uncited not in benchmark.qrels[query]
        assert phrase in queries[query] and phrase in text[cited] and phrase in text[uncited]


# --- source quirks, on the real sources -------------------------------------------------------


def test_statius_space_separator_counted_in_report(report):
    assert report["citation_separators"] == {
        "lucan": {"tab": 8053},
        "ovid": {"tab": 11995},
        "statius": {"space": 9731},
        "valerius_flaccus": {"tab": 850},
        "vergil": {"tab": 9896},
    }
    assert report["files_read"] == 12 + 10 + 15 + 12 + 1 + 1


def test_duplicate_citations_first_kept_unless_the_gold_quotes_the_other_and_every_drop_listed(benchmark, report, sources_dir, dataset_dir):
    dropped = [s for s in report["skipped"] if s["reason"].startswith("duplicate citation")]
    assert [(Path(s["file"]).name, s["line"]) for s in dropped] == [(f, n) for f, n, _ in DUPLICATES]
    card = (dataset_dir / "README.md").read_text(encoding="utf-8")
    for s, (name, lineno, tag) in zip(dropped, DUPLICATES):
        path = sources_dir / TEXTS / name
        kept_line = int(re.search(r"(?:first|also) at line (\d+)", s["reason"])[1])
        assert raw_lines(path)[kept_line - 1].startswith(tag) and raw_lines(path)[lineno - 1].startswith(tag)
        assert s["text"] == verse_at(path, lineno) != verse_at(path, kept_line)
        author, book, line = tag.strip("<>").split()[0], *tag.strip("<>").split()[-1].split(".")
        doc_id = f"{'lucan' if author == 'luc.' else 'ovid'}-{book}-{line}"
        assert benchmark.corpus[benchmark.doc_index[doc_id]].text == verse_at(path, kept_line)
        assert f"| {s['file']} | {lineno} | {tag} | {s['text'][:60]} |" in card
    lucan_1_430 = benchmark.corpus[benchmark.doc_index["lucan-1-430"]]
    assert lucan_1_430.text == "Nervius, et caesi pollutus sanguine Cottae;"
    # the gold's VF 1.620-621 > Lucan 5.595 quotes "turbo rapax": the second line numbered 5.595 is the one kept
    assert benchmark.corpus[benchmark.doc_index["lucan-5-595"]].text == "Turbo rapax, fragilemque super volitantia malum"
    assert "lucan-5-595" in benchmark.qrels["vf-1-620-621"]
    assert [s["reason"] for s in dropped if s["line"] == 595] == [
        "duplicate citation <luc. 5.595> (also at line 596, whose words the gold quotes: CSV line 801); that one kept"
    ]
    # what the card reads is in fields of its own, never parsed back out of the reason
    assert [(s["kind"], s["citation"], s["quoted_kept"]) for s in dropped] == [("duplicate citation", tag, tag == "<luc. 5.595>") for _, _, tag in DUPLICATES]


def test_blank_lines_counted(report, sources_dir, dataset_dir):
    blanks = [s for s in report["skipped"] if s["reason"] == "blank line"]
    assert report["skipped_counts"] == {"blank line": len(blanks), "duplicate citation": 9}
    for s in blanks:
        assert raw_lines(sources_dir / s["file"])[s["line"] - 1].strip() == ""
    assert len(blanks) == 28
    assert "- 28 blank lines" in (dataset_dir / "README.md").read_text(encoding="utf-8")


def test_build_cli_reports_quirks_without_network(sources_dir, tmp_path, monkeypatch, capsys):
    attempts = block_network(monkeypatch)
    code, _out, err = run_cli(monkeypatch, capsys, "build", "--out", tmp_path / "ds", "--sources", sources_dir)
    assert (code, attempts) == (0, [])
    assert "skipped source lines: 28 blank line, 9 duplicate citation" in err
    assert "'statius': {'space': 9731}" in err
    assert squash("duplicate citations, one line kept of each: <luc. 1.430>, <luc. 5.595>,") in squash(err)
    assert squash("numbering gaps kept as the sources number them: Lucan 1.419, Lucan 7.855-859,") in squash(err)
    assert "gold CSV line ends: 946 CRLF" in err
    beyond = "gold phrases quoting words beyond their span, kept as the gold has them: 90 result phrases (22 sharing no word with their span); the missing words stand on the next line (84)"
    assert squash(beyond) in squash(err)


# --- the tiny mirror: every rule with exact expected values -----------------------------------


def test_tiny_build_exact(tiny_mirror):
    bench, rep = build_benchmark(tiny_mirror)
    assert [d.id for d in bench.corpus] == [
        "vergil-1-1", "vergil-1-2", "vergil-1-3", "vergil-2-1", "vergil-2-2",
        "lucan-1-1", "lucan-1-2", "lucan-1-3", "ovid-1-1", "ovid-1-2", "statius-1-1", "statius-1-2", "statius-1-3",
    ]  # fmt: skip
    assert bench.corpus[bench.doc_index["lucan-1-2"]].text == "primus versus iterum"
    assert [(q.id, q.text, json.loads(q.query_phrases), q.n_parallels) for q in bench.queries] == [
        ("vf-1-1-1", "prima deum canimus", ["prima canimus", "deum canimus"], 3),
        ("vf-1-2-3", "fatidicam ratem ausa sequi cursus", ["fatidicam ratem", "ausa sequi"], 2),
        ("vf-1-3-3", "ausa sequi cursus", ["sequi cursus"], 1),
    ]
    assert bench.qrels == {
        "vf-1-1-1": {"vergil-1-1": 1, "statius-1-1": 1, "lucan-1-1": 1, "lucan-1-2": 1},
        "vf-1-2-3": {"ovid-1-2": 1, "ovid-1-1": 1},
        "vf-1-3-3": {"vergil-2-1": 1, "vergil-2-2": 1},
    }
    assert rep.counts() == {"blank line": 3, "duplicate citation": 1}
    assert {k: dict(v) for k, v in rep.separators.items()}["statius"] == {"space": 3}
    assert rep.files_read == 7  # VF book 2 is not read


def test_a_duplicate_the_gold_quotes_is_kept_instead_of_the_first(tiny_mirror):
    """The second line numbered Lucan 1.2 wins when the gold's result phrase quotes its words (as for Lucan 5.595)."""
    rewrite(tiny_mirror / "naacl2021/vf_intertext_dataset_1_0.csv", "deum canimus,bella primus", "deum canimus,secundus versus")
    bench, rep = build_benchmark(tiny_mirror)
    assert bench.corpus[bench.doc_index["lucan-1-2"]].text == "secundus versus iterum"
    [dropped] = [s for s in rep.skipped if s.reason.startswith("duplicate citation")]
    assert dropped.content == "primus versus iterum" and dropped.reason.endswith("that one kept")
    assert "CSV line 4" in dropped.reason and dropped.quoted_kept and dropped.citation == "<luc. 1.2>"


def test_of_two_duplicates_the_gold_quotes_alike_the_first_is_kept(tiny_mirror):
    rewrite(tiny_mirror / "naacl2021/vf_intertext_dataset_1_0.csv", "deum canimus,bella primus", "deum canimus,versus iterum")
    bench, rep = build_benchmark(tiny_mirror)
    assert bench.corpus[bench.doc_index["lucan-1-2"]].text == "primus versus iterum"
    [dropped] = [s for s in rep.skipped if s.reason.startswith("duplicate citation")]
    assert dropped.content == "secundus versus iterum" and not dropped.reason.endswith("that one kept") and not dropped.quoted_kept


def test_numbering_gaps_are_reported_not_renumbered():
    def lines(author, book, numbers):
        return [CorpusLine(f"{author.lower()}-{book}-{n}", "x", author, "W", book, n, f"<{n}>") for n in numbers]

    corpus = lines("Lucan", 7, [1, 2, 5, 6, 9, 3, 4]) + lines("Ovid", 1, [1, 2, 3])
    assert [str(g) for g in numbering_gaps(corpus)] == ["Lucan 7.7-8", "Lucan 7.3 (the numbering goes back from 7.9 to 7.3)"]
    assert numbering_gaps(lines("Ovid", 1, [1, 2, 3])) == []


def test_the_real_sources_numbering_gaps_and_gold_line_ends_are_in_the_report(benchmark, report):
    assert [str(g) for g in numbering_gaps(benchmark.corpus)] == [
        "Lucan 1.419", "Lucan 7.855-859", "Lucan 7.860 (the numbering goes back from 7.869 to 7.860)", "Lucan 9.414",
        "Ovid 4.769", "Statius 6.184", "Statius 6.227-233", "Statius 9.760",
    ]  # fmt: skip
    assert report["gold_line_ends"] == {"CRLF": 946}
    assert len(report["numbering_gaps"]) == 8
    assert report["numbering_gaps"][1] == {"author": "Lucan", "book": 7, "first": 855, "last": 859, "steps_back_after": None}


def test_gold_phrases_quoting_words_beyond_their_span_are_found_and_placed():
    vf = {1: "arma virumque cano", 2: "Troiae qui primus ab oris", 3: "Italiam fato profugus", 4: "Laviniaque venit litora", 5: "et terris iactatus"}
    corpus = [CorpusLine(f"vergil-1-{n}", t, "Vergil", "Aeneis", 1, n, f"<verg. aen. 1.{n}>") for n, t in vf.items()]

    def beyond(query_phrase, vf_span, result_phrase="arma", target=(1, 1)):
        parallel = GoldParallel(7, *vf_span, "vergil", 1, *target, query_phrase, result_phrase)
        found = phrases_beyond_spans([parallel], vf, corpus)
        assert all(f.offset is None or f.found_on == (f.offset + vf_span[1] if f.offset > 0 else vf_span[0] + f.offset) for f in found if f.side == "query")
        return [(f.side, f.span, f.absent, f.found_on, f.where, f.none_held) for f in found]

    assert beyond("armis virumque", (1, 1)) == []  # another form of a word the span holds is held
    assert beyond("oris italiam", (2, 2)) == [("query", "VF 1.2", ("italiam",), 3, "the next line", False)]
    assert beyond("arma cano", (2, 3)) == [("query", "VF 1.2-3", ("arma", "cano"), 1, "the line before", True)]
    assert beyond("oris litora", (2, 2)) == [("query", "VF 1.2", ("litora",), 4, "2 lines after", False)]
    assert beyond("italiam terris", (1, 1)) == [("query", "VF 1.1", ("italiam", "terris"), None, "spread over the lines within 5", True)]
    [(*_, where, _held)] = beyond("attolllens arma", (1, 1))
    assert where.startswith("no line within 5")
    assert beyond("arma", (1, 1), "fato profugus", (2, 2)) == [("result", "Vergil 1.2", ("fato", "profugus"), 3, "the next line", True)]
    # the summary's buckets, from the places: next line, line before, 2 to 5 lines away (one line or spread), none
    spans = [("oris italiam", (2, 2)), ("arma cano", (2, 3)), ("oris litora", (2, 2)), ("italiam terris", (1, 1)), ("attolllens arma", (1, 1))]
    found = [f for phrase, span in spans for f in phrases_beyond_spans([GoldParallel(7, *span, "vergil", 1, 1, 1, phrase, "arma")], vf, corpus)]
    assert [(f.offset, f.spread) for f in found] == [(1, False), (-1, False), (2, False), (None, True), (None, False)]
    assert beyond_span_summary(found, "query") == (
        "5 query phrases (2 sharing no word with their span); the missing words stand on lines 2 to 5 away (2), "
        "on the next line (1), on the line before (1), on no line within 5 (1)")


def test_the_real_gold_phrases_beyond_their_span_are_reported(benchmark, report, dataset_dir):
    rows = report["phrases_beyond_span"]
    result = [r for r in rows if r["side"] == "result"]
    assert (len(result), sum(r["none_held"] for r in result), sum(r["where"] == "the next line" for r in result)) == (90, 22, 84)
    assert len(rows) - len(result) == 107
    # The gold's Vergil 8.85 quotes two words of the next line only; the qrels mark 8.85, as the card's method says.
    nocte = {"csv_line": 156, "side": "result", "span": "Vergil 8.85", "phrase": "nocte tumentem", "absent": ["nocte", "tumentem"], "found_on": 86, "where": "the next line", "none_held": True, "offset": 1, "spread": False}
    assert nocte in rows
    text = {n: benchmark.corpus[benchmark.doc_index[f"vergil-8-{n}"]].text.lower() for n in (85, 86)}
    assert "nocte" not in text[85] and "tumentem" not in text[85] and "nocte" in text[86] and "tumentem" in text[86]
    assert "vergil-8-85" in benchmark.qrels["vf-1-83-83"] and "vergil-8-86" not in benchmark.qrels["vf-1-83-83"]
    # The gold's VF 1.11 and 1.13 quote each other's words (its edition orders those lines otherwise).
    assert [(r["span"], r["found_on"]) for r in rows if r["csv_line"] in (36, 42)] == [("VF 1.11", 13), ("VF 1.13", 11)]
    assert "| 156 | Vergil 8.85 | nocte tumentem | the next line |" in (dataset_dir / "README.md").read_text(encoding="utf-8")


def test_line_ends_are_counted_by_kind():
    assert line_ends(b"a\r\nb\r\nc\n") == {"CRLF": 2, "LF": 1}
    assert line_ends(b"a\rb") == {"CR": 1} and line_ends(b"") == {}


def rewrite(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    "file, old, new, message",
    [
        (f"{TEXTS}/vergil.aeneid.part.2.tess", "<verg. aen. 2.2>\t", "verg. aen. 2.2 ", f"{TEXTS}/vergil.aeneid.part.2.tess:2: no <citation> followed by a tab or space"),
        (f"{TEXTS}/statius.thebaid.part.1.tess", "<stat. theb. 1.3>", "<stat. theb. 1.x>", f"{TEXTS}/statius.thebaid.part.1.tess:3: citation locus '1.x' is not BOOK.LINE"),
        (f"{TEXTS}/ovid.metamorphoses.part.1.tess", "<ov. met. 1.2>", "<verg. aen. 1.2>", f"{TEXTS}/ovid.metamorphoses.part.1.tess:2: citation <verg. aen. 1.2> is not by ovid"),
        (GOLD_FILE, "Vergil,Aeneid,2,1,2", "Vergil,Aeneid,2,1,3", "vf_intertext_dataset_1_0.csv:7: target vergil 2.3 is not in the corpus"),
        (GOLD_FILE, "3,3,z", "3,4,z", "gold CSV line 7: VF 1.4 is not in the Valerius Flaccus text"),
    ],
)
def test_bad_input_fails_with_file_line_and_writes_nothing(tiny_mirror, monkeypatch, capsys, tmp_path, file, old, new, message):
    rewrite(tiny_mirror / file, old, new)
    use_manifest_of(monkeypatch, tiny_mirror)  # pinned as edited: the parser, not the checksum, must catch it
    with pytest.raises(InputError, match=re.escape(message)):
        build_benchmark(tiny_mirror)
    out = tmp_path / "out"
    code, _out, err = run_cli(monkeypatch, capsys, "build", "--out", out, "--sources", tiny_mirror)
    assert code == 1 and message in err and "Traceback" not in err
    assert not out.exists() and not list(tmp_path.glob(".out.*"))


def test_files_the_manifest_does_not_pin_are_listed_as_ignored_and_never_read(real_copy, tmp_path, monkeypatch, capsys):
    """The audit's case: a 13th book of the Aeneid (one valid line) and a part named 1b dropped into a mirror's texts."""
    texts = real_copy / TEXTS
    (texts / "vergil.aeneid.part.13.tess").write_text("<verg. aen. 13.1>\tarma virumque cano\n", encoding="utf-8")
    (texts / "vergil.aeneid.part.1b.tess").write_text("<verg. aen. 1.1>\tnot pinned\n", encoding="utf-8")
    (texts / "notes").mkdir()
    (texts / "broken.tess").symlink_to("gone.tess")
    (real_copy / "naacl2021" / "README.txt").write_text("a note")
    out = tmp_path / "out"
    code, _out, err = run_cli(monkeypatch, capsys, "build", "--out", out, "--sources", real_copy)
    assert code == 0 and "Traceback" not in err, err
    assert "corpus=39,675 queries=482 qrels=978" in err
    assert "skipped source lines: 28 blank line, 9 duplicate citation (listed in" in err
    assert "ignored 5 file(s) the manifest does not pin, none read: naacl2021/README.txt: not in the manifest" in err
    report = json.loads((out / "build_report.json").read_text(encoding="utf-8"))
    unpinned = "not in the manifest (its sha256 is not pinned); ignored, never read"
    assert report["ignored_files"] == [
        {"file": "naacl2021/README.txt", "reason": unpinned},
        {"file": f"{TEXTS}/broken.tess", "reason": "a link to gone.tess, which does not exist; ignored"},
        {"file": f"{TEXTS}/notes", "reason": "a folder not in the manifest; ignored, nothing in it is read"},
        {"file": f"{TEXTS}/vergil.aeneid.part.13.tess", "reason": unpinned},
        {"file": f"{TEXTS}/vergil.aeneid.part.1b.tess", "reason": unpinned},
    ]
    assert report["skipped_counts"] == {"blank line": 28, "duplicate citation": 9} and report["files_read"] == 51  # 49 epic books, VF 1, the gold
    assert not {s["file"] for s in report["skipped"]} & {f["file"] for f in report["ignored_files"]}
    code, _out, err = run_cli(monkeypatch, capsys, "validate", out)
    assert code == 0, err  # the same records, and a card that renders as before


def test_the_tiny_build_reads_the_manifest_s_books_only(tiny_mirror):
    """Book files come from the manifest, in book order, never from a glob of the folder."""
    (tiny_mirror / TEXTS / "vergil.aeneid.part.3.tess").write_text("<verg. aen. 3.1>\tnon lectus\n", encoding="utf-8")
    (tiny_mirror / TEXTS / "lucan.bellum_civile.part.x.tess").write_text("<luc. 9.1>\tnon lectus\n", encoding="utf-8")
    bench, rep = build_benchmark(tiny_mirror)
    assert not [d.id for d in bench.corpus if d.id in ("vergil-3-1", "lucan-9-1")] and len(bench.corpus) == 13
    assert [f.path for f in rep.ignored] == [f"{TEXTS}/lucan.bellum_civile.part.x.tess", f"{TEXTS}/vergil.aeneid.part.3.tess"]
    assert rep.counts() == {"blank line": 3, "duplicate citation": 1}  # lines; the files are listed apart
    assert rep.files_read == 7


def test_a_clean_build_ignores_nothing(report, dataset_dir):
    assert report["ignored_files"] == []
    assert "ignored" not in (dataset_dir / "README.md").read_text(encoding="utf-8").lower()


def test_corrupted_real_tess_refused_before_anything_is_written(real_copy, tmp_path, monkeypatch, capsys):
    name = f"{TEXTS}/statius.thebaid.part.3.tess"
    before, after = tamper(real_copy / name)
    attempts = block_network(monkeypatch)
    out = tmp_path / "out"
    code, _out, err = run_cli(monkeypatch, capsys, "build", "--out", out, "--sources", real_copy)
    assert code == 1 and attempts == []
    assert f"{real_copy / name}: sha256 mismatch: expected {before}, actual {after}" in err
    assert not out.exists() and not list(tmp_path.glob(".out.*"))


def test_missing_real_file_refused(real_copy, tmp_path, monkeypatch, capsys):
    name = f"{TEXTS}/vergil.aeneid.part.12.tess"
    (real_copy / name).unlink()
    code, _out, err = run_cli(monkeypatch, capsys, "build", "--out", tmp_path / "out", "--sources", real_copy)
    assert code == 1
    assert f"{real_copy / name}: missing (expected sha256 " in err
    assert not (tmp_path / "out").exists()
