"""Searchable corpora: the benchmark's four epics, users' own ``.tess`` files, or all of Tesserae-la.

Line ids
--------
Lines of the benchmark's four epics keep the benchmark's ids, ``{author}-{book}-{line}``
(``vergil-1-1``), also when they are read from Tesserae-la. Every other line gets::

    {author_key}.{work_key}[-{section}]-{locus_key}[~N]

- ``author_key`` and ``work_key`` come from the file name ``author.work.tess``
  (``lucretius.de_rerum_natura.tess`` -> ``lucretius`` / ``de_rerum_natura``), lower-cased, without
  diacritics, any character outside ``[a-z0-9_]`` written ``_``; a file name without a dot gives ``work_key`` ``text``.
- ``locus_key`` is the citation's locus with ``.`` written ``-`` and any other character
  outside ``[a-z0-9_-]`` written ``_`` (``1.1`` -> ``1-1``, ``pr.1`` -> ``pr-1``, ``9`` -> ``9``).
- ``section`` appears only in files whose citations carry more than one work tag
  (Suetonius' lives): the tag minus its author abbreviation (``<suet. vit. jul. 1.1>`` -> ``vit_jul``).
- ``~N`` (N = 2, 3, ...) is appended when the id is already taken: a citation that occurs
  twice in a file, or two loci that fold to the same key (``1.1`` and ``1-1``). Base ids never
  contain ``~``, so the first free ``~N`` makes every id unique across all files of a corpus.

A line of more than LONG_LINE_WORDS words (a prose section, or a whole poem where Tesserae gives one per line; no
line of the benchmark's epics has over 15) is searched as its phrases (:func:`latin.phrases`, after Tesserae v3's phrase
delimiters, and a phrase still over MAX_PHRASE_WORDS words after its commas; words as :func:`latin.word_count` counts them), each a unit of its own whose
id is the line's with ``.pK`` appended (``cicero.de_officiis-2-69.p3``, ``...-17-3~2.p1``) and whose locus reads
``2.69, phrase 3``: a match spread over a section of hundreds of words is no parallel, and a hit should show the
phrase that makes it. Line ids never contain ``.`` after the locus, so a phrase's id names its line.

See ``docs/ids.md``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from latin_intertext import EPICS
from latin_intertext.benchmark import Benchmark, CorpusLine
from latin_intertext.build.dataset import doc_id
from latin_intertext.errors import InputError, LatinIntertextError
from latin_intertext.latin import MAX_PHRASE_WORDS, has_latin_words, phrases, strip_diacritics, word_count
from latin_intertext.sources.gold import AUTHOR_NAMES, WORKS
from latin_intertext.sources.tess import TessLine, TessText, book_and_line, tess_stem
from latin_intertext.sources.tesserae_la import TessRead, read_tess

# File stems of the benchmark's four epics, as named in naacl2021/ and tesserae-la/.
EPIC_STEMS = {epic.file_stem: epic.key for epic in EPICS}
_KEY_BAD = re.compile(r"[^a-z0-9_]+")
_LOCUS_BAD = re.compile(r"[^a-z0-9_-]+")
LONG_LINE_WORDS = MAX_PHRASE_WORDS  # a prose section (or a whole poem); the benchmark's epics have at most 15 words a line


def key(text: str) -> str:
    """A name lower-cased to ``[a-z0-9_]`` for ids and author filters (``v`` stays ``v``: ``ovid``)."""
    return _KEY_BAD.sub("_", strip_diacritics(text).lower()).strip("_") or "x"


def locus_key(locus: str) -> str:
    return _LOCUS_BAD.sub("_", strip_diacritics(locus).lower().replace(".", "-")).strip("-") or "0"


_ROMAN = re.compile(r"m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")
_ROMAN_LOOKING_WORDS = frozenset({"di", "dii", "mi", "vi"})  # Latin words a title may hold: *quod idola dii non sint*


_SMALL_WORDS = frozenset({"of", "the"})  # of the English in Tesserae's file names: *Avitus of Vienne*, *Pliny the Elder*


def display_name(name_key: str) -> str:
    """A file name's author or work as a title: each word capitalised but *of* and *the*, a Roman numeral in capitals
    (*Expositio De Psalmo CXVIII*, *Carmina De Ludovico II*), and an author the file names ``…_pseudo`` as
    *Pseudo-…* (*vergil_pseudo*: *Pseudo-Vergil*)."""
    parts = [part for part in name_key.split("_") if part]
    pseudo = len(parts) > 1 and parts[-1] == "pseudo"
    words = [
        part.upper() if _is_numeral(part) else part if i and part in _SMALL_WORDS else part.capitalize()
        for i, part in enumerate(parts[:-1] if pseudo else parts)
    ]
    return ("Pseudo-" if pseudo else "") + " ".join(words)


def _is_numeral(part: str) -> bool:
    return len(part) > 1 and part not in _ROMAN_LOOKING_WORDS and _ROMAN.fullmatch(part) is not None


def split_stem(stem: str) -> tuple[str, str]:
    author, _, work = stem.partition(".")
    return key(author), key(work) if work else "text"


def describe_lines(counts: dict[str, int]) -> str:
    """How many lines a corpus searches, and as how many phrases its long ones ("12 lines", or "9,001 lines, 30 of
    them prose sections searched as their 410 phrases")."""
    text = f"{counts['lines']:,} lines"
    if counts.get("long_lines"):
        text += f", {counts['long_lines']:,} of them prose sections searched as their {counts['phrases']:,} phrases"
    return text


@dataclass
class IndexReport:
    """What was read into a corpus and what was left out or renamed, file:line by file:line."""

    files: int = 0
    lines: int = 0  # lines read and searched, whole or as their phrases
    long_lines: int = 0  # of them, lines searched as their phrases
    phrases: int = 0  # the search units those long lines were cut into
    blank: list[str] = field(default_factory=list)  # left out: file:line: blank line
    without_text: list[str] = field(default_factory=list)  # left out: file:line: citation without text
    malformed: list[str] = field(default_factory=list)  # left out: file:line: reason
    duplicates: list[str] = field(default_factory=list)  # kept under a ~N id: file:line: ...
    ignored: list[str] = field(default_factory=list)  # files not read: file: reason
    run_together: list[str] = field(default_factory=list)  # read as the two (or more) cited lines it holds: file:line: ...

    def add(self, read: TessRead) -> None:
        """Count one file as read by :func:`sources.tesserae_la.read_tess` (its duplicates are noted as they get ids)."""
        self.files += 1
        self.malformed.extend(read.malformed)
        self.run_together.extend(read.text.run_together)
        self.blank.extend(map(str, read.blank_lines))
        self.without_text.extend(map(str, read.without_text))

    def left_out(self) -> list[str]:
        """Every line read but not searched, as ``file:line: reason``."""
        return [*self.malformed, *self.blank, *self.without_text]

    LISTS = ("blank", "without_text", "malformed", "duplicates", "ignored", "run_together")  # the fields that list file:line notes

    def counts(self) -> dict[str, int]:
        return {
            "files": self.files, "lines": self.lines, "long_lines": self.long_lines, "phrases": self.phrases,
            **{name: len(getattr(self, name)) for name in self.LISTS},
        }

    def to_dict(self) -> dict:
        return {"counts": self.counts(), **{name: getattr(self, name) for name in self.LISTS}}


@dataclass
class Corpus:
    """Lines to search, with what a citation and a context view need beside each ``CorpusLine``."""

    name: str
    lines: list[CorpusLine]
    loci: list[str]
    author_keys: list[str]  # distinct author keys
    author_of: np.ndarray  # int32: index into author_keys, per line
    group_of: np.ndarray  # int32: lines of one work (and book, for the epics) share a group
    report: IndexReport = field(default_factory=IndexReport)
    author_names: dict[str, str] = field(default_factory=dict)
    phrase_of: list[int] = field(default_factory=list)  # per unit: K of a phrase (id ``.pK``), 0 for a whole line

    def phrase(self, i: int) -> int:
        return self.phrase_of[i] if self.phrase_of else 0

    def __len__(self) -> int:
        return len(self.lines)

    def author_key_of(self, i: int) -> str:
        return self.author_keys[int(self.author_of[i])]

    def neighbours(self, i: int, before: int = 2, after: int = 2) -> range:
        lo, hi = max(0, i - before), min(len(self.lines), i + after + 1)
        g = self.group_of[i]
        while self.group_of[lo] != g:
            lo += 1
        while self.group_of[hi - 1] != g:
            hi -= 1
        return range(lo, hi)

    def author_mask(self, authors: Sequence[str] | None) -> np.ndarray | None:
        """A boolean mask of the lines by ``authors`` (keys or names, any case); None for all."""
        if not authors:
            return None
        return np.isin(self.author_of, np.fromiter(self.author_indices(authors), dtype=np.int32))

    def author_display_names(self, authors: Sequence[str]) -> list[str]:
        """The display names of ``authors`` (keys or names, any case), in the corpus's order."""
        return [self.author_names.get(self.author_keys[i], self.author_keys[i]) for i in sorted(self.author_indices(authors))]

    def author_indices(self, authors: Sequence[str]) -> set[int]:
        """Which of ``author_keys`` ``authors`` (keys or names, any case) name; an error naming any that names none."""
        wanted, unknown = set(), []
        lookup = {key(self.author_names.get(k, k)): i for i, k in enumerate(self.author_keys)} | {k: i for i, k in enumerate(self.author_keys)}
        for name in authors:
            k = key(name)
            if k in lookup:
                wanted.add(lookup[k])
            else:
                unknown.append(name)
        if unknown:
            raise UnknownAuthorError(f"Unknown author(s): {', '.join(map(repr, unknown))}. {self._author_hint(unknown)}")
        return wanted

    def _author_hint(self, unknown: list[str], shown: int = 40) -> str:
        """The keys the unknown names may mean (those they begin, or close spellings: *silius* for *silius_italicus*),
        else the corpus's first ``shown`` authors."""
        close = [
            k for name in unknown
            for k in ([a for a in self.author_keys if a.startswith(key(name))] or difflib.get_close_matches(key(name), self.author_keys, 3))
        ]
        if close:
            return f"Did you mean: {', '.join(dict.fromkeys(close))}?"
        listed = ", ".join(self.author_keys[:shown]) + (f" ... ({len(self.author_keys)} in all)" if len(self.author_keys) > shown else "")
        return f"Authors in corpus {self.name!r}: {listed}."

    def __contains__(self, doc_id: object) -> bool:
        try:
            self.index_of(doc_id)
        except KeyError:
            return False
        return True

    def unit_of(self, doc_id: str) -> int:
        """The unit ``doc_id`` names: a line, a phrase, or a line searched as its phrases, which answers with its first
        (a line's id stays valid when its line is cut: docs/ids.md)."""
        try:
            return self.index_of(doc_id)
        except KeyError:
            return self.index_of(f"{doc_id}.p1")

    def index_of(self, doc_id: str) -> int:
        try:
            return self._ids[doc_id]
        except AttributeError:
            self._ids = {d.id: i for i, d in enumerate(self.lines)}
            return self.index_of(doc_id)


class UnknownAuthorError(LatinIntertextError):
    status_code = 400


class _Builder:
    """Accumulates lines from several sources into one :class:`Corpus` with unique ids."""

    def __init__(self, name: str):
        self.name = name
        self.lines: list[CorpusLine] = []
        self.loci: list[str] = []
        self.phrase_of: list[int] = []
        self.authors: dict[str, int] = {}
        self.author_names: dict[str, str] = {}
        self.author_of: list[int] = []
        self.group_of: list[int] = []
        self.groups: dict[tuple, int] = {}
        self.taken: set[str] = set()
        self.report = IndexReport()

    def unique(self, base: str) -> tuple[str, int]:
        """``base``, or ``base~N`` for the N-th line of that citation (N = 2, 3, ...), and N."""
        doc_id, n = base, 1
        while doc_id in self.taken:
            n += 1
            doc_id = f"{base}~{n}"
        self.taken.add(doc_id)
        return doc_id, n

    def add(self, line: CorpusLine, locus: str, author_key: str, group: tuple, phrase: int = 0) -> None:
        self.lines.append(line)
        self.loci.append(locus)
        self.phrase_of.append(phrase)
        self.author_names.setdefault(author_key, line.author)
        self.author_of.append(self.authors.setdefault(author_key, len(self.authors)))
        self.group_of.append(self.groups.setdefault(group, len(self.groups)))

    def add_benchmark(self, bench: Benchmark) -> None:
        for d in bench.corpus:
            author = d.id.split("-")[0]
            self.taken.add(d.id)
            self.add(d, f"{d.book}.{d.line}", author, ("epic", author, d.book))
        self.report.lines += len(bench.corpus)

    def add_tess(self, text: TessText, stem: str, duplicates: list[tuple[TessLine, str]], *, apart_from: str | None = None) -> None:
        """``apart_from``: the benchmark epic a user's file is a copy of, kept apart from it (ids and author key
        ``user_...``) and cited as that epic's author and work, marked "your file"."""
        author_key, work_key = split_stem(stem)
        epic = EPIC_STEMS.get(stem)
        author = AUTHOR_NAMES[epic] if epic else display_name(author_key)
        work = WORKS[epic] if epic else display_name(work_key)
        if apart_from:
            author, work = f"{AUTHOR_NAMES[EPIC_STEMS[apart_from]]} (your file)", WORKS[EPIC_STEMS[apart_from]]
        sections = len({tl.work_tag for tl in text.lines}) > 1  # (ids key on the whole tag, as always)
        shown_sections = _distinct_parts({tl.section for tl in text.lines})  # several works in one file: "jul. 49.4"
        dup_notes = {tl.lineno: note for tl, note in duplicates}
        all_lines = sorted([*text.lines, *(tl for tl, _ in duplicates)], key=lambda tl: tl.lineno)
        for tl in all_lines:
            numbered = book_and_line(tl.locus)
            if epic and numbered:
                base = doc_id(epic, *numbered)
                group = ("epic", epic, numbered[0])
            else:
                section = key(tl.section) if sections and tl.section else ""  # a line whose tag names no work has no section
                base = f"{author_key}.{work_key}-" + (f"{section}-" if section else "") + locus_key(tl.locus)
                group = ("tess", stem, section)
            units = phrases(tl.text) if not (epic and numbered) and word_count(tl.text) > LONG_LINE_WORDS else [tl.text]
            if len(units) > 1:
                self.report.long_lines += 1
                self.report.phrases += len(units)
            nums = [int(n) for n in re.findall(r"\d+", tl.locus)]
            book, line_no = numbered or (nums[0] if len(nums) > 1 else 0, nums[-1] if nums else 0)
            line_id, nth = self.unique(base)  # a line's id, whole or cut: a duplicate's ~N is the same either way
            whole = len(units) == 1
            locus = " ".join(filter(None, [shown_sections.get(tl.section), tl.locus])) + repeated_citation(nth)
            for k, unit in enumerate(units, start=1):
                line = CorpusLine(line_id if whole else f"{line_id}.p{k}", unit, author, work, book, line_no, tl.tess_index)
                self.add(line, locus if whole else f"{locus}, phrase {k}", epic or author_key, group, 0 if whole else k)
            self.report.lines += 1
            if tl.lineno in dup_notes:
                self.report.duplicates.append(f"{dup_notes[tl.lineno]}; kept as {line_id}" + ("" if whole else f" (its {len(units)} phrases, {line_id}.p1 to .p{len(units)})"))

    def build(self) -> Corpus:
        return Corpus(
            self.name,
            self.lines,
            self.loci,
            list(self.authors),
            np.asarray(self.author_of, dtype=np.int32),
            np.asarray(self.group_of, dtype=np.int32),
            self.report,
            self.author_names,
            self.phrase_of,
        )


def repeated_citation(nth: int) -> str:
    """What tells the N-th line a file cites by the same locus from the first (its id ends in ``~N``), so that two
    hits never show one citation: "" for the first, " (2nd so cited)" for the second."""
    if nth == 1:
        return ""
    suffix = "th" if 10 <= nth % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(nth % 10, "th")
    return f" ({nth}{suffix} so cited)"


def _distinct_parts(sections: set[str]) -> dict[str, str]:
    """Each of a file's sections without the words all of them open with ("vit. jul.", "vit. aug.": "jul.", "aug."),
    or nothing when the file has one section."""
    if len(sections) < 2:
        return {}
    words = {section: section.split() for section in sections}
    first = next(iter(words.values()))
    common = 0
    while all(len(w) > common and w[common] == first[common] for w in words.values()):
        common += 1
    return {section: " ".join(w[common:]) for section, w in words.items()}


def benchmark_corpus(bench: Benchmark) -> Corpus:
    builder = _Builder("benchmark")
    builder.add_benchmark(bench)
    return builder.build()


def _hints_by_file(errors: list[tuple[str, InputError]]) -> str:
    """Each fix once, with the files it is for where the files need different ones (a malformed line, a file in
    Latin-1, one in UTF-16), so that no reader applies a file's fix to another."""
    files_of: dict[str, list[str]] = {}
    for display, exc in errors:
        if exc.hint:
            files_of.setdefault(exc.hint, []).append(display)
    if len(files_of) == 1:
        return next(iter(files_of))
    return "\n".join(f"{', '.join(files)}: {hint}" for hint, files in files_of.items())


def tess_corpus(
    paths: Sequence[Path | str],
    *,
    bench: Benchmark | None = None,
    lenient: bool = False,
    name: str = "tess",
    displays: Sequence[str] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Corpus:
    """A corpus of ``.tess`` files (optionally after the benchmark's corpus), ids as in the module docstring."""
    by_key: dict[tuple[str, str], list[str]] = {}
    for d in displays or paths:
        by_key.setdefault(split_stem(tess_stem(Path(d).name)), []).append(str(d))
    if clashes := [
        f"{names[0]}: given {len(names)} times" if len(set(names)) == 1 else f"{' and '.join(names)}: both give the ids {'.'.join(key)}-LOCUS"
        for key, names in by_key.items() if len(names) > 1
    ]:
        raise InputError(
            f"{'; '.join(clashes)}. Line ids are made from a file's name (docs/ids.md): these files' lines would mix.",
            clashes if len(clashes) > 1 else [],
            hint="Give each file once, or rename one of them (names that differ only in case, or in - and _, count as one).",
        )
    builder = _Builder(name)
    if bench is not None:
        builder.add_benchmark(bench)
    errors: list[tuple[str, InputError]] = []  # every bad file is named, not only the first
    for i, path in enumerate(paths):
        path = Path(path).expanduser()
        display = displays[i] if displays else str(path)
        try:
            read = read_tess(path, display, lenient=lenient)
        except InputError as exc:
            errors.append((display, exc))
            continue
        builder.report.add(read)
        stem = tess_stem(Path(display).name)
        apart_from = stem if bench is not None and stem in EPIC_STEMS else None  # the benchmark already holds these ids
        builder.add_tess(read.text, f"user_{stem}" if apart_from else stem, read.duplicates, apart_from=apart_from)
        if progress:
            progress(1)
    if len(errors) == 1:
        raise errors[0][1]
    if errors:
        raise InputError(
            f"{len(errors)} of {len(paths)} .tess files cannot be read",
            [line for _display, e in errors for line in [e.summary, *e.problems]],
            _hints_by_file(errors),
        )
    example = "A .tess file has lines like '<lucr. 1.1>\tAeneadum genetrix, hominum divomque voluptas,'."
    if not builder.lines:
        raise InputError(f"No verse lines in {', '.join(map(str, displays or paths))}.", hint=example)
    if not any(has_latin_words(line.text) for line in builder.lines):
        raise InputError(f"No words in {', '.join(map(str, displays or paths))}: its verses hold only digits and punctuation.", hint=example)
    return builder.build()
