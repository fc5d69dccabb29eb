"""parse_tess: citation separators, BOM, blank lines, duplicates and malformed lines."""

from __future__ import annotations

import pytest

from fixtures.build.helpers import TINY_MIRROR
from latin_intertext.errors import InputError
from latin_intertext.sources.tess import author_key, parse_tess

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


def test_malformed_lines_are_all_listed_with_file_and_line(tmp_path):
    path = write_tess(tmp_path, "<verg. aen. 1.1>\tgood", "no citation here", "<verg. aen. 1.2>\tgood too", "<verg. aen. 1.3 missing bracket")
    with pytest.raises(InputError) as info:
        parse_tess(path, display="bad.tess")
    assert info.value.summary == "bad.tess: 2 malformed line(s)"
    assert [p.split(": no <citation>")[0] for p in info.value.problems] == ["bad.tess:2", "bad.tess:4"]
    assert "'no citation here'" in info.value.problems[0]
    assert "tab or a space" in str(info.value)


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
