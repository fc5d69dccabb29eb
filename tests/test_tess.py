"""parse_tess: citation separators, BOM, blank lines, duplicates and malformed lines."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from fixtures.build.helpers import TINY_MIRROR, run_cli
from latin_intertext.errors import InputError
from latin_intertext.sources.tess import author_key, parse_tess, tess_paths

TEXTS = TINY_MIRROR / "naacl2021" / "texts"


def write_tess(tmp_path, *lines: str, name: str = "x.tess"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_tab_separated_file_with_trailing_blank_lines():
    text = parse_tess(TEXTS / "vergil.aeneid.part.1.tess")
    assert [(t.tess_index, t.locus, t.text, t.lineno) for t in text.lines] == [
        ("<verg. aen. 1.1>", "1.1", "alpha beta gamma", 1),
        ("<verg. aen. 1.2>", "1.2", "delta epsilon", 2),
        ("<verg. aen. 1.3>", "1.3", "zeta eta theta", 3),
    ]
    assert text.separators == {"tab": 3}
    assert [(s.lineno, s.reason) for s in text.skipped] == [(4, "blank line"), (5, "blank line")]


def test_statius_space_separator_is_parsed_and_counted():
    text = parse_tess(TEXTS / "statius.thebaid.part.1.tess")
    assert [t.text for t in text.lines] == ["fraternas acies", "alterna regna", "profanis odiis"]
    assert [t.book_line for t in text.lines] == [(1, 1), (1, 2), (1, 3)]
    assert text.separators == {"space": 3}
    assert text.skipped == []


def test_byte_order_mark_is_not_part_of_the_first_citation():
    assert (TEXTS / "ovid.metamorphoses.part.1.tess").read_bytes().startswith(b"\xef\xbb\xbf")
    first = parse_tess(TEXTS / "ovid.metamorphoses.part.1.tess").lines[0]
    assert (first.tess_index, first.text) == ("<ov. met. 1.1>", "in nova fert animus")


def test_duplicate_citation_keeps_first_and_reports_the_second():
    text = parse_tess(TEXTS / "lucan.bellum_civile.part.1.tess", display="lucan.tess")
    assert [(t.locus, t.text) for t in text.lines] == [("1.1", "bella per campos"), ("1.2", "primus versus iterum"), ("1.3", "populum potentem")]
    (dup,) = text.skipped
    assert (dup.path, dup.lineno, dup.content) == ("lucan.tess", 3, "secundus versus iterum")
    assert dup.reason == "duplicate citation <luc. 1.2> (first at line 2); first kept"
    assert str(dup) == "lucan.tess:3: duplicate citation <luc. 1.2> (first at line 2); first kept"


def test_a_citation_is_its_section_and_locus_in_a_file_of_several_works(tmp_path):
    """Suetonius' Lives share one file: <suet. vit. jul. 1.1> and <suet. vit. aug. 1.1> are two citations, not one twice."""
    path = write_tess(tmp_path, "<suet. vit. jul. 1.1>\tAnnum agens", "<suet. vit. aug. 1.1>\tGentem Octaviam", "<suet.  vit. jul.  1.1>\titerum")
    text = parse_tess(path, display="suet.tess")
    assert [(t.section, t.locus, t.text) for t in text.lines] == [("vit. jul.", "1.1", "Annum agens"), ("vit. aug.", "1.1", "Gentem Octaviam")]
    (dup,) = text.skipped
    assert str(dup) == "suet.tess:3: duplicate citation <suet.  vit. jul. 1.1> (first at line 1); first kept"
    assert parse_tess(write_tess(tmp_path, "<tib. 1.1>\tx", "<1.2>\ty", name="t.tess")).lines[0].section == ""


def test_malformed_lines_are_all_listed_with_file_and_line(tmp_path):
    path = write_tess(tmp_path, "<verg. aen. 1.1>\tgood", "no citation here", "<verg. aen. 1.2>\tgood too", "<verg. aen. 1.3 missing bracket")
    with pytest.raises(InputError) as info:
        parse_tess(path, display="bad.tess")
    assert info.value.summary == "bad.tess: 2 malformed line(s)"
    assert [p.split(": no <citation>")[0] for p in info.value.problems] == ["bad.tess:2", "bad.tess:4"]
    assert "'no citation here'" in info.value.problems[0]
    assert "tab or a space" in str(info.value)
    listed: list[str] = []  # read leniently: the same problems listed, the good lines kept, their numbers unchanged
    text = parse_tess(path, display="bad.tess", malformed=listed)
    assert listed == info.value.problems and [(l.lineno, l.text) for l in text.lines] == [(1, "good"), (3, "good too")]
    assert not text.skipped


def test_require_book_line_rejects_non_integer_locus(tmp_path):
    path = write_tess(tmp_path, "<verg. aen. 1.1>\tgood", "<verg. aen. praef.2>\tbad locus")
    assert len(parse_tess(path).lines) == 2  # accepted without the requirement
    with pytest.raises(InputError) as info:
        parse_tess(path, require_book_line=True, display="v.tess")
    assert info.value.problems == ["v.tess:2: citation locus 'praef.2' is not BOOK.LINE (e.g. <verg. aen. 1.1>)"]


def test_citation_without_text_is_skipped_not_kept(tmp_path):
    text = parse_tess(write_tess(tmp_path, "<verg. aen. 1.1>\t", "<verg. aen. 1.2>\tverse"))
    assert [t.locus for t in text.lines] == ["1.2"]
    assert [(s.lineno, s.reason) for s in text.skipped] == [(1, "citation without text")]


def test_non_utf8_file_is_an_input_error(tmp_path):
    path = tmp_path / "latin1.tess"
    path.write_bytes("<verg. aen. 1.1>\tarma\n<verg. aen. 1.2>\tcaf\u00e9\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"latin1\.tess:2: byte 21 of the line \(0xe9\) is not UTF-8") as info:
        parse_tess(path)
    assert "iconv -f latin1 -t utf-8" in str(info.value)


@pytest.mark.parametrize("encoding, bom", [("utf-16", "FF FE"), ("utf-32", "FF FE 00 00")])
def test_a_utf16_or_utf32_file_is_named_as_such_with_the_iconv_that_converts_it(tmp_path, encoding, bom):
    path = tmp_path / "wide.tess"
    path.write_bytes("<verg. aen. 1.1>\tarma\n".encode(encoding))
    with pytest.raises(InputError) as info:
        parse_tess(path)
    assert f"starts with a {encoding.upper()} byte-order mark ({bom})" in str(info.value)
    assert f"iconv -f {encoding.upper()} -t UTF-8 FILE.tess > FILE.utf8.tess" in str(info.value) and "latin1" not in str(info.value)


@pytest.mark.parametrize("inside", ["\x85", "\x0c", "\u2028", "\x1e"])
def test_only_line_ends_end_a_line(tmp_path, inside):
    """A form feed or U+0085 (a mis-converted ellipsis) inside a verse neither cuts it nor shifts later line numbers."""
    path = tmp_path / "x.tess"
    path.write_text(f"<p. 1.1>\tarma\r\n<p. 1.2>\tTroiae qui{inside} primus\r<p. 1.3>\tItaliam\n<p. 1.4 missing\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        parse_tess(path, display="x.tess")
    assert [p.split(": ")[0] for p in info.value.problems] == ["x.tess:4"]


def test_two_citations_on_one_line_and_a_citation_with_no_locus_are_malformed(tmp_path):
    path = write_tess(tmp_path, "<x. 1.4>\tarma", "<x. 1.5>\t<x. 1.6>\tlitora multum", "<mypoet.>\tarma virumque", "<lucr. 4.346>\t<ATER>, continuo", "<1.7>\tcano")
    with pytest.raises(InputError) as info:
        parse_tess(path, display="t.tess")
    assert info.value.problems == [
        "t.tess:2: two citations on one line, <x. 1.5> and <x. 1.6>: a line break lost?",
        "t.tess:3: citation <mypoet.> has no locus (e.g. <lucr. 1.1>)",
    ]  # an editor's <ATER> is text, and a bare locus <1.7> a citation


def test_a_folder_gives_its_tess_files_at_any_depth_and_lists_the_rest(tmp_path):
    (tmp_path / "sub").mkdir()
    for name in ("a.tess", "B.TESS", "sub/c.tess"):
        (tmp_path / name).write_text("<p. 1.1>\tarma\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "dir.tess").mkdir()
    given = tess_paths(str(tmp_path))
    assert [p.relative_to(tmp_path).as_posix() for p in given.files] == ["B.TESS", "a.tess", "sub/c.tess"]
    assert given.ignored == [f"{tmp_path / 'notes.txt'}: not a .tess file"]
    with pytest.raises(InputError, match="No such file or folder"):
        tess_paths([tmp_path / "nowhere.tess"])


def linked_texts(tmp_path):
    """The audit's folder: ``texts/`` holding Catullus, a link to a sibling folder holding Lucretius, and a broken link."""
    texts, other = tmp_path / "texts", tmp_path / "other_texts"
    texts.mkdir(), other.mkdir()
    (texts / "catullus.carmina.tess").write_text("<catull. 1.1>\tcui dono lepidum novum libellum\n", encoding="utf-8")
    (other / "lucretius.drn.tess").write_text("<lucr. 1.1>\tAeneadum genetrix\n", encoding="utf-8")
    (texts / "linked").symlink_to("../other_texts")
    (texts / "broken").symlink_to("../gone")
    return texts


def test_a_folder_s_linked_folders_are_read_and_a_broken_link_is_listed(tmp_path):
    texts = linked_texts(tmp_path)
    given = tess_paths(texts)
    assert [p.relative_to(texts).as_posix() for p in given.files] == ["catullus.carmina.tess", "linked/lucretius.drn.tess"]
    assert given.ignored == [f"{texts / 'broken'}: a link to ../gone, which leads to no file or folder (a broken link)"]


def test_a_link_loop_or_a_second_way_to_a_folder_is_listed_and_each_folder_read_once(tmp_path):
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "a.tess").write_text("<p. 1.1>\tarma\n", encoding="utf-8")
    (tmp_path / "sub" / "deeper" / "c.tess").write_text("<p. 1.1>\tarma\n", encoding="utf-8")
    (tmp_path / "sub" / "deeper" / "up").symlink_to("../..")  # a loop back to the folder given
    (tmp_path / "another_way").symlink_to("sub")  # named before sub/: the folder's own path is kept all the same
    given = tess_paths(tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in given.files] == ["a.tess", "sub/deeper/c.tess"]
    assert given.ignored == [
        f"{tmp_path / 'another_way'}: a link to sub, the folder {tmp_path / 'sub'}, which is read already; not read twice (a loop, or a second way to one folder)",
        f"{tmp_path / 'sub/deeper/up'}: a link to ../.., the folder {tmp_path}, which is read already; not read twice (a loop, or a second way to one folder)",
    ]


def test_a_pipe_is_listed_and_a_broken_link_named_tess_is_an_error_when_read(tmp_path):
    (tmp_path / "a.tess").write_text("<p. 1.1>\tarma\n", encoding="utf-8")
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "gone.tess").symlink_to("nowhere.tess")
    given = tess_paths(tmp_path)
    assert given.ignored == [f"{tmp_path / 'pipe'}: neither a file nor a folder (a pipe, socket or device)"]
    assert [p.name for p in given.files] == ["a.tess", "gone.tess"]  # a .tess name is to be read: not passed over
    with pytest.raises(InputError, match=r"gone\.tess: a link to a file that does not exist"):
        parse_tess(given.files[1])


def test_a_folder_that_cannot_be_opened_is_listed(tmp_path, monkeypatch):
    (tmp_path / "a.tess").write_text("<p. 1.1>\tarma\n", encoding="utf-8")
    locked = tmp_path / "locked"
    locked.mkdir()
    real_iterdir = Path.iterdir

    def iterdir(self):  # as a folder without read permission answers a user (root opens any, so chmod cannot show it)
        if self == locked:
            raise PermissionError(13, "Permission denied", str(self))
        return real_iterdir(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    assert tess_paths(tmp_path).ignored == [f"{locked}: a folder that cannot be opened (Permission denied); nothing in it is read"]


def test_a_folder_without_tess_files_names_what_it_holds(tmp_path):
    (tmp_path / "broken").symlink_to("gone")
    with pytest.raises(InputError, match="a folder with no .tess file in it") as exc:
        tess_paths(tmp_path)
    assert exc.value.problems == [f"{tmp_path / 'broken'}: a link to gone, which leads to no file or folder (a broken link)"]


def test_search_reads_a_linked_folder_and_lists_the_broken_link(tmp_path, monkeypatch, capsys):
    texts = linked_texts(tmp_path)
    code, out, err = run_cli(monkeypatch, capsys, "search", "Aeneadum genetrix", "--tess", texts, "--retriever", "bm25", "--json")
    assert code == 0, err
    report = json.loads(out)["report"]
    assert (report["counts"]["files"], report["counts"]["ignored"]) == (2, 1)
    assert report["ignored"] == [f"{texts / 'broken'}: a link to ../gone, which leads to no file or folder (a broken link)"]


def test_a_broken_link_or_a_folder_given_as_a_file_names_the_file_and_the_reason(tmp_path):
    (tmp_path / "broken.tess").symlink_to(tmp_path / "gone.tess")
    with pytest.raises(InputError, match=r"broken\.tess: a link to a file that does not exist"):
        parse_tess(tmp_path / "broken.tess")
    (tmp_path / "dir.tess").mkdir()
    with pytest.raises(InputError, match=r"dir\.tess: is a folder, not a \.tess file"):
        parse_tess(tmp_path / "dir.tess")


def test_book_line_of_a_non_numeric_locus_names_file_and_line(tmp_path):
    line = parse_tess(write_tess(tmp_path, "<verg. aen. a.b>\tverse")).lines[0]
    with pytest.raises(ValueError, match=r"x\.tess:1: locus 'a\.b' is not BOOK\.LINE"):
        line.book_line


@pytest.mark.parametrize(
    "tag, key",
    [("<verg. aen. 1.1>", "vergil"), ("<luc. 1.1>", "lucan"), ("<ov. met. 4.768>", "ovid"), ("<stat. theb. 1.1>", "statius"), ("<valerius flaccus 1.1>", "valerius_flaccus")],
)
def test_author_key(tag, key):
    assert author_key(tag) == key


def test_author_key_unknown_abbreviation():
    with pytest.raises(KeyError, match="unknown author abbreviation 'hor.'"):
        author_key("<hor. carm. 1.1>")


def test_lines_run_together_are_read_as_two_when_reading_leniently(tmp_path):
    """A lost line break (``... facessunt.<coripp. johann. 2.1> Pellitur ...`` in Tesserae-la's Corippus) holds two
    cited lines: the lenient reader of Tesserae-la reads both and notes it; the strict reader calls it malformed."""
    path = write_tess(
        tmp_path,
        "<x. 1.4>\tarma",
        "<x. 1.5>\tlitora multum.<x. 2.1>\tille et terris <x. 2.2> iactatus",
        "<x. 2.3>\t<x. 2.4>\tvi superum",
        "<y. 1.1>\tciting <x. 1.1> is no break",
    )
    text = parse_tess(path, display="t.tess", split_run_together=True)
    assert [(line.tess_index, line.text, line.lineno) for line in text.lines] == [
        ("<x. 1.4>", "arma", 1), ("<x. 1.5>", "litora multum.", 2), ("<x. 2.1>", "ille et terris", 2),
        ("<x. 2.2>", "iactatus", 2), ("<x. 2.4>", "vi superum", 3), ("<y. 1.1>", "citing <x. 1.1> is no break", 4),
    ]
    assert text.run_together == [
        "t.tess:2: 3 citations on one line (<x. 1.5> and <x. 2.1> and <x. 2.2>): a line break lost, or a citation left in the verse; read as 3",
        "t.tess:3: 2 citations on one line (<x. 2.3> and <x. 2.4>): a line break lost, or a citation left in the verse; read as 2",
    ]
    assert [str(s) for s in text.skipped] == ["t.tess:3: citation without text"]
    with pytest.raises(InputError, match="two citations on one line, <x. 2.3> and <x. 2.4>"):
        parse_tess(path, display="t.tess")


def test_tesserae_la_lines_run_together_are_read_as_two(sources_dir):
    from latin_intertext.sources.tesserae_la import read_tess

    read = read_tess(sources_dir / "tesserae-la" / "corippus.johannis.tess", "corippus.johannis.tess")
    by_citation = {line.tess_index: line for line in read.text.lines}
    assert by_citation["<coripp. johann. 1.581>"].text == "exultantque animis et laeti iussa facessunt."
    assert by_citation["<coripp. johann. 2.1>"].text.startswith("Pellitur interea cunctis") and by_citation["<coripp. johann. 2.1>"].lineno == 581
    assert len(read.text.run_together) == 4 and not any(line.inner_citation() for line in read.text.lines)


def test_a_line_holding_a_duplicate_and_a_citation_without_text_reports_both(tmp_path):
    """Split, one physical line can give a duplicate and a citation with no text: each is reported, neither dropped."""
    from latin_intertext.sources.tesserae_la import read_tess

    path = write_tess(tmp_path, "<x. 1.1>\tarma", "<x. 1.2>\tvirum <x. 1.1> cano <x. 1.3>")
    read = read_tess(path, "t.tess", lenient=True)
    assert [line.tess_index for line in read.text.lines] == ["<x. 1.1>", "<x. 1.2>"]
    assert [note for _, note in read.duplicates] == ["t.tess:2: duplicate citation <x. 1.1> (first at line 1)"]
    assert [str(s) for s in read.without_text] == ["t.tess:2: citation without text"] and read.without_text[0].content == "<x. 1.3>"


def test_a_space_closing_a_citation_and_a_work_run_into_the_locus_are_read_as_their_citations(tmp_path):
    """Walahfrid's ``<walahfr. carm. 5.1 >`` (a space before the ``>``: 384 lines of 19 Tesserae-la texts) and Sallust's
    ``<sal.  Cat..20.9>`` (the work's abbreviation run into the locus by a double stop: every line of both his files)."""
    path = write_tess(
        tmp_path, "<walahfr. carm. 5.1 >\tIudicii secreta dei", "<sal.  Cat..20.9>\tSed ego quae mente agitavi", "<sal.  Cat..20.10 >\tnam"
    )
    text = parse_tess(path)
    assert [(t.tess_index, t.work_tag, t.locus, t.text) for t in text.lines] == [
        ("<walahfr. carm. 5.1>", "walahfr. carm.", "5.1", "Iudicii secreta dei"),
        ("<sal. Cat. 20.9>", "sal. Cat.", "20.9", "Sed ego quae mente agitavi"),
        ("<sal. Cat. 20.10>", "sal. Cat.", "20.10", "nam"),  # both quirks in one citation
    ]


def test_the_real_sallust_is_cited_by_chapter_and_section(sources_dir):
    first = parse_tess(sources_dir / "tesserae-la" / "sallust.catilina.tess").lines[0]
    assert (first.section, first.locus) == ("Cat.", "1.1")
    from latin_intertext.serve.searcher import Searcher

    hit = Searcher.from_tess([sources_dir / "tesserae-la" / "sallust.catilina.tess"], retriever="bm25").search("omnis homines qui sese student praestare", k=1)[0]
    assert (hit.id, str(hit.citation)) == ("sallust.catilina-1-1", "Sallust, Catilina 1.1")
