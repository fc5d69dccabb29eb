"""Reader for Tesserae ``.tess`` files: one ``<abbrev. work book.line>`` citation and its verse per line.

Quirks handled here, never silently:
- the citation is followed by a tab in most files but by a space in Statius;
- some files start with a byte-order mark and end with blank lines (counted as skipped);
- a citation may occur twice with different verses: the first is kept and the
  other is reported as a duplicate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from latin_intertext.errors import InputError, not_utf8

_CITATION = re.compile(r"^<(?P<tag>[^<>]*?)\s*(?P<locus>[^\s<>]+)>(?P<sep>[\t ]+|$)(?P<text>.*)$")
_BOOK_LINE = re.compile(r"^(\d+)\.(\d+)$")

# Tesserae abbreviations of the authors whose keys the benchmark uses.
AUTHOR_KEYS = {
    "verg.": "vergil",
    "luc.": "lucan",
    "ov.": "ovid",
    "stat.": "statius",
    "valerius": "valerius_flaccus",
}


@dataclass(frozen=True)
class TessLine:
    """One cited line of a Tesserae text."""

    tess_index: str  # the original tag, e.g. "<verg. aen. 1.1>"
    locus: str  # e.g. "1.1"
    text: str
    path: str
    lineno: int

    @property
    def book_line(self) -> tuple[int, int]:
        m = _BOOK_LINE.match(self.locus)
        if not m:
            raise ValueError(f"{self.path}:{self.lineno}: locus {self.locus!r} is not BOOK.LINE")
        return int(m.group(1)), int(m.group(2))


@dataclass(frozen=True)
class Skipped:
    """A source line left out of the output, and why."""

    path: str
    lineno: int
    reason: str
    content: str = ""

    def __str__(self) -> str:
        return f"{self.path}:{self.lineno}: {self.reason}"


@dataclass(frozen=True)
class Duplicate:
    """A later occurrence of a citation, left out (it is also in ``TessText.skipped``), and where the kept one stands."""

    line: TessLine
    first_lineno: int


@dataclass
class TessText:
    path: str
    lines: list[TessLine] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    separators: dict[str, int] = field(default_factory=dict)  # "tab"/"space" -> count
    duplicates: list[Duplicate] = field(default_factory=list)


def parse_tess(path: Path | str, *, require_book_line: bool = False, display: str | None = None) -> TessText:
    """Parse one ``.tess`` file.

    Malformed lines raise :class:`InputError` listing every one as ``file:line: reason``;
    blank lines and duplicate citations are skipped and recorded in ``TessText.skipped``.
    ``require_book_line`` demands integer ``BOOK.LINE`` loci, as the benchmark's epics have.
    """
    path = Path(path)
    name = display or str(path)
    result = TessText(name)
    problems: list[str] = []
    seen: dict[str, int] = {}
    data = path.read_bytes()
    try:
        raw = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(name, data, exc, "Save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8 FILE.tess > FILE.utf8.tess`).") from None
    for lineno, line in enumerate(raw.splitlines(), start=1):
        line = line.lstrip("\ufeff") if lineno == 1 else line
        if not line.strip():
            result.skipped.append(Skipped(name, lineno, "blank line"))
            continue
        m = _CITATION.match(line)
        if not m:
            problems.append(f"{name}:{lineno}: no <citation> followed by a tab or space: {line[:60]!r}")
            continue
        if require_book_line and not _BOOK_LINE.match(m["locus"]):
            problems.append(f"{name}:{lineno}: citation locus {m['locus']!r} is not BOOK.LINE (e.g. <verg. aen. 1.1>)")
            continue
        text = m["text"].strip()
        if not text:
            result.skipped.append(Skipped(name, lineno, "citation without text", line))
            continue
        tag = f"<{m['tag']} {m['locus']}>" if m["tag"] else f"<{m['locus']}>"
        if m["locus"] in seen:
            result.skipped.append(
                Skipped(name, lineno, f"duplicate citation {tag} (first at line {seen[m['locus']]}); first kept", text)
            )
            result.duplicates.append(Duplicate(TessLine(tag, m["locus"], text, name, lineno), seen[m["locus"]]))
            continue
        seen[m["locus"]] = lineno
        sep = "tab" if "\t" in m["sep"] else "space"
        result.separators[sep] = result.separators.get(sep, 0) + 1
        result.lines.append(TessLine(tag, m["locus"], text, name, lineno))
    if problems:
        raise InputError(
            f"{name}: {len(problems)} malformed line(s)",
            problems,
            hint="Each line must read '<author. work BOOK.LINE>' then a tab or a space, then the verse.",
        )
    return result


def author_key(tess_index: str) -> str:
    """The benchmark's author key for a citation tag, e.g. ``<verg. aen. 1.1>`` -> ``vergil``."""
    first = tess_index.strip("<>").split()[0].lower()
    try:
        return AUTHOR_KEYS[first]
    except KeyError:
        raise KeyError(f"unknown author abbreviation {first!r} in {tess_index}") from None
