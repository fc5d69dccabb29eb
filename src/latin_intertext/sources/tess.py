"""Reader for Tesserae ``.tess`` files: one ``<abbrev. work book.line>`` citation and its verse per line.

Quirks handled here, never silently:
- the citation is followed by a tab in most files but by a space in Statius; a space may close it
  (``<walahfr. carm. 5.1 >``), and Sallust runs the work's abbreviation into the locus (``<sal.  Cat..20.9>``, read as
  ``<sal. Cat. 20.9>``);
- some files start with a byte-order mark and end with blank lines (counted as skipped);
- a citation may occur twice with different verses: the first is kept and the
  other is reported as a duplicate. A citation is its section and locus: in a file holding several
  works (Suetonius' Lives), ``<suet. vit. jul. 1.1>`` and ``<suet. vit. aug. 1.1>`` are two.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from latin_intertext import EPICS
from latin_intertext.errors import InputError, not_utf8, refuse_other_bom

_CITATION = re.compile(r"^<(?P<tag>[^<>]*?)\s*(?P<locus>[^\s<>]+)\s*>(?P<sep>[\t ]+|$)(?P<text>.*)$")
# A work's abbreviation run into the locus by a double stop, Sallust's ``<sal.  Cat..20.9>``: read as ``<sal. Cat. 20.9>``.
_GLUED_LOCUS = re.compile(r"^(<[^<>]*?)\s*\b([^\W\d_]+\.)\.(\d[^\s<>]*\s*>)")
# Lines end at a line feed, a carriage return or both, and nowhere else: str.splitlines() also breaks at a form feed
# or U+0085 (what a mis-converted "…" becomes), which would cut a verse and misnumber every later line.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BOOK_LINE = re.compile(r"^(\d+)\.(\d+)$")

# Tesserae abbreviations of the authors whose keys the benchmark uses.
AUTHOR_KEYS = {epic.tess_abbreviation: epic.key for epic in EPICS} | {"valerius": "valerius_flaccus"}


@dataclass(frozen=True)
class TessLine:
    """One cited line of a Tesserae text."""

    tess_index: str  # the original tag, e.g. "<verg. aen. 1.1>"
    locus: str  # e.g. "1.1"
    text: str
    path: str
    lineno: int

    @property
    def section(self) -> str:
        """The citation's words between the author's abbreviation and the locus ("vit. jul." in
        ``<suet. vit. jul. 1.1>``): what tells apart the works of a file that holds several."""
        return " ".join(self.work_tag.split()[1:])

    @property
    def work_tag(self) -> str:
        """The citation without its locus ("suet. vit. jul." in ``<suet. vit. jul. 1.1>``; "" in ``<1.1>``)."""
        return self.tess_index.strip("<>").rsplit(" ", 1)[0] if " " in self.tess_index else ""

    def inner_citation(self) -> str | None:
        """A citation of this line's own work inside its verse (``arida modo <catull. 1.3> namque tu``): two lines run
        together where a line break was lost; or None. Angle brackets around words (an editor's supplement) are no citation."""
        m = _own_citation(self.work_tag).search(self.text) if self.work_tag else None
        return m["citation"] if m else None

    @property
    def book_line(self) -> tuple[int, int]:
        if (numbers := book_and_line(self.locus)) is None:
            raise ValueError(f"{self.path}:{self.lineno}: locus {self.locus!r} is not BOOK.LINE")
        return numbers


def book_and_line(locus: str) -> tuple[int, int] | None:
    """The book and line of a ``BOOK.LINE`` locus (``"1.1"``: ``(1, 1)``); None for any other locus."""
    m = _BOOK_LINE.match(locus)
    return (int(m[1]), int(m[2])) if m else None


BLANK, NO_TEXT, DUPLICATE = "blank line", "citation without text", "duplicate citation"  # why a line is left out


@dataclass(frozen=True)
class Skipped:
    """A source line left out of the output, and why: its ``kind`` (what reports count by), and for a duplicate
    citation the citation and where the occurrence kept stands (``note``)."""

    path: str
    lineno: int
    kind: str  # BLANK, NO_TEXT or DUPLICATE
    content: str = ""
    citation: str = ""  # a duplicate's citation, e.g. "<luc. 7.855>"
    note: str = ""  # a duplicate's other occurrence and which of the two was kept
    quoted_kept: bool = False  # a duplicate whose other occurrence was kept because the gold quotes its words

    @property
    def reason(self) -> str:
        return " ".join(filter(None, [self.kind, self.citation, self.note]))

    def __str__(self) -> str:
        return f"{self.path}:{self.lineno}: {self.reason}"

    def to_json(self) -> dict:
        duplicate = {"citation": self.citation, "quoted_kept": self.quoted_kept} if self.kind == DUPLICATE else {}
        return {"file": self.path, "line": self.lineno, "kind": self.kind, "reason": self.reason, "text": self.content, **duplicate}


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
    run_together: list[str] = field(default_factory=list)  # file:line: notes of lines holding several citations, read as the lines they hold (split_run_together)


def parse_tess(
    path: Path | str, *, require_book_line: bool = False, display: str | None = None, split_run_together: bool = False,
    malformed: list[str] | None = None,
) -> TessText:
    """Parse one ``.tess`` file.

    Malformed lines raise :class:`InputError` listing every one as ``file:line: reason``, or, given a ``malformed``
    list (a collection read leniently), are left out and listed there; blank lines and duplicate citations are
    skipped and recorded in ``TessText.skipped``.
    ``require_book_line`` demands integer ``BOOK.LINE`` loci, as the benchmark's epics have.
    ``split_run_together`` reads a line holding a second citation of its work (a lost line break:
    ``<coripp. johann. 1.581> ... facessunt.<coripp. johann. 2.1> Pellitur ...``) as the lines it holds, each
    noted in ``TessText.run_together``; without it, a second citation opening the verse is malformed.
    """
    path = Path(path)
    name = display or str(path)
    result = TessText(name)
    problems: list[str] = []
    seen: dict[tuple[str, str], int] = {}
    data = read_bytes(path, name)
    refuse_other_bom(name, data, "FILE.tess", "FILE.utf8.tess")
    try:
        raw = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(name, data, exc, "Save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8 FILE.tess > FILE.utf8.tess`).") from None
    for lineno, line in enumerate(split_lines(raw), start=1):
        line = line.lstrip("\ufeff") if lineno == 1 else line
        if not line.strip():
            result.skipped.append(Skipped(name, lineno, BLANK))
            continue
        m = _CITATION.match(_GLUED_LOCUS.sub(r"\1 \2 \3", line, count=1))
        if not m:
            problems.append(f"{name}:{lineno}: no <citation> followed by a tab or space: {line[:60]!r}")
            continue
        if not m["tag"] and not any(c.isdigit() for c in m["locus"]):
            problems.append(f"{name}:{lineno}: citation <{m['locus']}> has no locus (e.g. <lucr. 1.1>)")
            continue
        pieces = _run_together(m) if split_run_together else [(m["locus"], m["sep"], m["text"])]
        if len(pieces) > 1:
            loci = " and ".join(f"<{m['tag']} {locus}>" for locus, _, _ in pieces)
            result.run_together.append(f"{name}:{lineno}: {len(pieces)} citations on one line ({loci}): a line break lost, or a citation left in the verse; read as {len(pieces)}")
        elif (inner := _CITATION.match(m["text"])) and inner["tag"] == m["tag"]:
            problems.append(f"{name}:{lineno}: two citations on one line, <{m['tag']} {m['locus']}> and <{inner['tag']} {inner['locus']}>: a line break lost?")
            continue
        for locus, separator, verse in pieces:
            if require_book_line and book_and_line(locus) is None:
                problems.append(f"{name}:{lineno}: citation locus {locus!r} is not BOOK.LINE (e.g. <verg. aen. 1.1>)")
                continue
            text = verse.strip()
            tag = f"<{m['tag']} {locus}>" if m["tag"] else f"<{locus}>"
            if not text:
                result.skipped.append(Skipped(name, lineno, NO_TEXT, line if len(pieces) == 1 else tag))
                continue
            tess_line = TessLine(tag, locus, text, name, lineno)
            citation = (tess_line.section, tess_line.locus)
            if citation in seen:
                result.skipped.append(Skipped(name, lineno, DUPLICATE, text, tag, f"(first at line {seen[citation]}); first kept"))
                result.duplicates.append(Duplicate(tess_line, seen[citation]))
                continue
            seen[citation] = lineno
            sep = "tab" if "\t" in separator else "space"
            result.separators[sep] = result.separators.get(sep, 0) + 1
            result.lines.append(tess_line)
    if problems and malformed is not None:
        malformed.extend(problems)
    elif problems:
        raise InputError(
            f"{name}: {len(problems)} malformed line(s)",
            problems,
            hint="Each line must read '<author. work BOOK.LINE>' then a tab or a space, then the verse.",
        )
    return result


def _own_citation(work_tag: str) -> re.Pattern:
    """A citation of the work ``work_tag`` ("catull.") inside a verse, with the tab or spaces after it."""
    return re.compile(rf"(?P<citation><{re.escape(work_tag)}\s+(?P<locus>[^\s<>]+)>)(?P<sep>[\t ]*)")


def _run_together(m: re.Match) -> list[tuple[str, str, str]]:
    """(locus, separator, verse) of each line a matched line holds: itself, and one more per citation of its own
    work inside its verse (none for a bare locus ``<1.1>``, whose work is unknown)."""
    if not m["tag"]:
        return [(m["locus"], m["sep"], m["text"])]
    pieces, locus, sep, start = [], m["locus"], m["sep"], 0
    for found in _own_citation(m["tag"]).finditer(m["text"]):
        pieces.append((locus, sep, m["text"][start : found.start()]))
        locus, sep, start = found["locus"], found["sep"] or " ", found.end()
    return pieces + [(locus, sep, m["text"][start:])]


@dataclass(frozen=True)
class TessPaths:
    """The files a list of paths names (a folder's ``.tess`` files at any depth, in name order, linked folders
    followed) and each other entry found in those folders, which is not read but listed (``path: reason``) so that
    nothing is left out unsaid."""

    files: list[Path]
    ignored: list[str]


def is_tess_name(name: str) -> bool:
    """A Tesserae file's name, in any case (``.tess``, ``.TESS``)."""
    return name.lower().endswith(".tess") and len(name) > len(".tess")


def tess_stem(name: str) -> str:
    """A ``.tess`` file's name without its suffix, in any case: ``A.TESS`` is ``A`` (its work is not "Tess")."""
    return name[: -len(".tess")] if is_tess_name(name) else name


def tess_paths(given: Path | str | Sequence[Path | str]) -> TessPaths:
    """What each path names: a file, or a folder whose ``.tess`` files (any case: ``.TESS``; in subfolders too, and in
    folders it links to) are read; see :func:`folder_tess_files`."""
    files: list[Path] = []
    ignored: list[str] = []
    missing: list[str] = []
    for path in (Path(p).expanduser() for p in ([given] if isinstance(given, (str, Path)) else given)):
        if path.is_dir():
            found, other = folder_tess_files(path)
            if not found:
                raise InputError(f"{path}: a folder with no .tess file in it", [*other], hint="Give .tess files, or a folder that holds them.")
            files += found
            ignored += other
        elif path.exists() or path.is_symlink():
            files.append(path)
        else:
            missing.append(str(path))
    if missing:
        raise InputError(f"No such file or folder: {', '.join(missing)}", hint="Give the path of a .tess file or of a folder that holds them.")
    return TessPaths(files, ignored)


def folder_tess_files(folder: Path) -> tuple[list[Path], list[str]]:
    """The ``.tess`` files under ``folder`` at any depth, by name, and each other entry as ``path: reason``.

    Subfolders are read, and so are the folders a link leads to, as most tools that walk a tree with links do
    (``find -L``, ``grep -R``); each folder is read once, by its real path, so a link back up the tree (a loop) or a
    second way to one folder is listed, not followed again. The folder's own tree is read before any link, so its
    files keep the paths under which they stand there. A link to nothing, a file not named ``.tess``, anything else
    that is no file or folder (a pipe, a socket) and a folder that cannot be opened are listed. A ``.tess`` name is
    always a file to read: a broken link so named is an error when read (:func:`read_bytes`), not passed over."""
    files: list[Path] = []
    ignored: list[tuple[Path, str]] = []
    seen: dict[Path, Path] = {folder.resolve(): folder}  # real path -> the path it was read under
    folders, links = [folder], []
    while folders or links:
        if not folders:
            link = links.pop(0)
            real = link.resolve()
            if real in seen:
                ignored.append((link, f"a link to {os.readlink(link)}, the folder {seen[real]}, which is read already; not read twice (a loop, or a second way to one folder)"))
            else:
                seen[real] = link
                folders.append(link)
            continue
        current = folders.pop(0)
        try:
            entries = sorted(current.iterdir())
        except OSError as exc:
            ignored.append((current, f"a folder that cannot be opened ({exc.strerror or exc}); nothing in it is read"))
            continue
        for p in entries:
            if p.is_dir():
                if p.is_symlink():
                    links.append(p)  # followed once the tree without links is read
                elif (real := p.resolve()) in seen:  # reached again through a link to one of its parents
                    ignored.append((p, f"the folder {seen[real]}, which is read already; not read twice"))
                else:
                    seen[real] = p
                    folders.append(p)
            elif is_tess_name(p.name):
                files.append(p)
            elif p.is_symlink() and not p.exists():
                ignored.append((p, f"a link to {os.readlink(p)}, which leads to no file or folder (a broken link)"))
            elif p.is_file():
                ignored.append((p, "not a .tess file"))
            else:
                ignored.append((p, "neither a file nor a folder (a pipe, socket or device)"))
    return sorted(files), [f"{p}: {why}" for p, why in sorted(ignored)]


def split_lines(text: str) -> list[str]:
    """The lines of a file's text, broken at line ends only (:data:`_LINE_BREAK`); a final line end makes no empty line."""
    lines = _LINE_BREAK.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def read_bytes(path: Path, name: str) -> bytes:
    """A file's bytes, or an error naming it and the system's reason (a broken link, a folder, no permission)."""
    try:
        return path.read_bytes()
    except IsADirectoryError:
        raise InputError(f"{name}: is a folder, not a .tess file", hint="Give the folder itself to read every .tess file in it, or rename it.") from None
    except FileNotFoundError:
        reason = "a link to a file that does not exist" if path.is_symlink() else "no such file"
        raise InputError(f"{name}: {reason}", hint="Give the path of an existing .tess file, or remove the broken link.") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot be read ({exc.strerror or exc})", hint="Check the file's permissions (e.g. `chmod u+r FILE.tess`).") from None


def author_key(tess_index: str) -> str:
    """The benchmark's author key for a citation tag, e.g. ``<verg. aen. 1.1>`` -> ``vergil``."""
    first = tess_index.strip("<>").split()[0].lower()
    try:
        return AUTHOR_KEYS[first]
    except KeyError:
        raise KeyError(f"unknown author abbreviation {first!r} in {tess_index}") from None
