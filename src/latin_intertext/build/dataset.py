"""Build the benchmark from verified sources, following the dataset card's construction method.

1. Target epics' ``.tess`` lines become the corpus. Of a duplicated citation the first occurrence is kept, unless
   the gold quotes the other one (Lucan 5.595: the gold's *turbo rapax* is the second line so numbered).
2. Gold rows are grouped by (VF Line Start, VF Line End); each group is a query.
3. Query text is the VF Book 1 lines of the span joined by one space.
4. Every target line of every parallel is relevant; qrels are deduplicated.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from latin_intertext import EPICS, QUERY_FILE_STEM, latin
from latin_intertext.benchmark import Benchmark, CorpusLine, Query
from latin_intertext.errors import InputError
from latin_intertext.sources import manifest
from latin_intertext.sources.gold import AUTHOR_NAMES, AUTHORS, WORKS, GoldParallel, line_ends, read_gold
from latin_intertext.sources.tess import DUPLICATE, Duplicate, Skipped, TessText, author_key, parse_tess

TARGET_FILES = {epic.key: epic.file_stem for epic in EPICS}  # author key -> file stem in naacl2021/texts
GOLD_FILE = "naacl2021/vf_intertext_dataset_1_0.csv"
TEXTS = "naacl2021/texts"  # the folder of the pinned .tess files, one per book: {stem}.part.{book}.tess
VF_BOOK = 1
_BOOK_FILE = re.compile(r"^(?P<stem>.+)\.part\.(?P<part>[1-9][0-9]*)\.tess$")


@dataclass(frozen=True)
class IgnoredFile:
    """A file (or folder, or link) of the source folders the build reads from that the manifest does not pin: never
    read, since nothing unverified enters the benchmark, and listed with why."""

    path: str  # relative to the source root, e.g. "naacl2021/texts/vergil.aeneid.part.13.tess"
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"

    def to_json(self) -> dict:
        return {"file": self.path, "reason": self.reason}


@dataclass
class BuildReport:
    """What the build read, kept and left out; written beside the data as build_report.json."""

    files_read: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    separators: Counter = field(default_factory=Counter)  # author -> {"tab": n, "space": n}
    duplicates: list[Duplicate] = field(default_factory=list)  # the duplicate citations among ``skipped``, as lines
    gold_line_ends: dict[str, int] = field(default_factory=dict)  # "CRLF" / "LF" / "CR" -> rows of the gold CSV so ended
    numbering: list["NumberingGap"] = field(default_factory=list)  # citations the corpus's numbering skips or repeats out of order
    beyond_span: list["PhraseBeyondSpan"] = field(default_factory=list)  # gold phrases quoting words their span lacks
    ignored: list[IgnoredFile] = field(default_factory=list)  # files of the source folders the manifest does not pin, not read

    def counts(self) -> dict[str, int]:
        return dict(Counter(s.kind for s in self.skipped))

    def to_dict(self) -> dict:
        return {
            "files_read": self.files_read,
            "skipped_counts": self.counts(),
            "skipped": [s.to_json() for s in self.skipped],
            "ignored_files": [f.to_json() for f in self.ignored],
            "citation_separators": {k: dict(v) for k, v in sorted(self.separators.items())},
            "gold_line_ends": self.gold_line_ends,
            "numbering_gaps": [asdict(g) for g in self.numbering],
            "phrases_beyond_span": [asdict(p) for p in self.beyond_span],
        }


@dataclass(frozen=True)
class NumberingGap:
    """Line numbers a book's citations skip (``first``..``last``), and where its numbering steps back instead."""

    author: str
    book: int
    first: int
    last: int
    steps_back_after: int | None = None  # the citation after which the numbering goes back (``first`` follows it)

    @property
    def lines(self) -> str:
        """The line numbers, as "855" or "855-859"."""
        return f"{self.first}" if self.first == self.last else f"{self.first}-{self.last}"

    def __str__(self) -> str:
        back = f" (the numbering goes back from {self.book}.{self.steps_back_after} to {self.book}.{self.first})" if self.steps_back_after else ""
        return f"{self.author} {self.book}.{self.lines}{back}"


def numbering_gaps(corpus: list[CorpusLine]) -> list[NumberingGap]:
    """Each run of line numbers missing from a book of ``corpus`` (below its last line), and each place where the
    file's numbering steps back: the sources' own numbering, reported, never renumbered (ids are the citations)."""
    gaps: list[NumberingGap] = []
    books: dict[tuple[str, int], list[int]] = {}
    for d in corpus:
        books.setdefault((d.author, d.book), []).append(d.line)
    for (author, book), numbers in books.items():
        present = set(numbers)
        missing = [n for n in range(1, max(numbers) + 1) if n not in present]
        for n in missing:
            if gaps and (gaps[-1].author, gaps[-1].book, gaps[-1].last) == (author, book, n - 1):
                gaps[-1] = replace(gaps[-1], last=n)
            else:
                gaps.append(NumberingGap(author, book, n, n))
        gaps += [NumberingGap(author, book, b, b, steps_back_after=a) for a, b in zip(numbers, numbers[1:]) if b <= a]
    return gaps


# How far from its span a gold phrase's missing words are looked for.
NEAR = 5


@dataclass(frozen=True)
class PhraseBeyondSpan:
    """A gold phrase quoting words that its own span lacks: the gold's span stops a line short of the phrase, or the
    gold quotes another edition's reading or misspells. Kept as the gold has it (the card's qrels mark the span's
    lines only) and reported."""

    csv_line: int
    side: str  # "query": the VF span and its Query Phrase; "result": the target span and its Result Phrase
    span: str  # "VF 1.714", "Vergil 8.85-86"
    phrase: str
    absent: tuple[str, ...]  # the phrase's words the span lacks
    found_on: int | None  # the nearest line within NEAR of the span holding them all
    where: str  # "the next line", "2 lines before", "spread over the lines within 5", or "no line within 5 (...)"
    none_held: bool  # the span holds none of the phrase's words
    offset: int | None  # found_on's place: lines after the span's end (+) or before its start (-); None if no line holds them
    spread: bool  # no one line within NEAR holds them, those lines together do

    def __str__(self) -> str:
        return f"gold CSV line {self.csv_line}: {self.span} {self.phrase!r} ({', '.join(self.absent)}: {self.where})"


def _span_name(name: str, start: int, end: int, book: int) -> str:
    return f"{name} {book}.{start}" + (f"-{end}" if end != start else "")


def _placed(offset: int) -> str:
    """Where a line stands from a span: ``offset`` lines after its end (positive) or before its start (negative)."""
    if abs(offset) == 1:
        return "the next line" if offset > 0 else "the line before"
    return f"{abs(offset)} lines {'after' if offset > 0 else 'before'}"


def _beyond(csv_line: int, side: str, span: str, phrase: str, lines: Callable[[int], str], start: int, end: int) -> PhraseBeyondSpan | None:
    """The phrase's words that lines ``start``..``end`` lack, and where they stand instead (``lines(n)``: line n's text)."""
    absent = latin.words_absent(phrase, " ".join(lines(n) for n in range(start, end + 1)))
    if not absent:
        return None
    missing = " ".join(absent)

    def line_at(offset: int) -> int:  # as _placed reads an offset
        return end + offset if offset > 0 else start + offset

    offsets = [o for d in range(1, NEAR + 1) for o in (d, -d)]
    holder = next((o for o in offsets if not latin.words_absent(missing, lines(line_at(o)))), None)
    spread = holder is None and not latin.words_absent(missing, " ".join(lines(n) for n in [*range(start - NEAR, start), *range(end + 1, end + NEAR + 1)]))
    if holder is not None:
        where = _placed(holder)
    elif spread:
        where = f"spread over the lines within {NEAR}"
    else:
        where = f"no line within {NEAR} (another edition's reading, a misspelling, or farther)"
    found_on = None if holder is None else line_at(holder)
    return PhraseBeyondSpan(csv_line, side, span, phrase, tuple(absent), found_on, where, len(absent) == len(latin.tokenize(phrase)), holder, spread)


def phrases_beyond_spans(parallels: list[GoldParallel], vf_lines: dict[int, str], corpus: list[CorpusLine]) -> list[PhraseBeyondSpan]:
    """Every gold phrase, query side and result side, that quotes words its span does not hold, in file order."""
    texts = {d.id: d.text for d in corpus}
    found = []
    for p in parallels:
        found.append(_beyond(p.csv_line, "query", _span_name("VF", p.vf_start, p.vf_end, VF_BOOK), p.query_phrase, lambda n: vf_lines.get(n, ""), p.vf_start, p.vf_end))
        target = _span_name(AUTHOR_NAMES[p.author], p.line_start, p.line_end, p.book)
        found.append(_beyond(p.csv_line, "result", target, p.result_phrase, lambda n, p=p: texts.get(doc_id(p.author, p.book, n), ""), p.line_start, p.line_end))
    return [f for f in found if f]


def _nearness(found: PhraseBeyondSpan) -> str:
    """The summary's bucket: the next line, the line before, lines 2 to NEAR away (one of them or spread), or none."""
    if found.offset in (1, -1):
        return f"on {_placed(found.offset)}"
    return f"on lines 2 to {NEAR} away" if found.offset is not None or found.spread else f"on no line within {NEAR}"


def beyond_span_summary(found: list[PhraseBeyondSpan], side: str) -> str:
    """One line of counts for one side: how many phrases, how many share no word with their span, and where the
    missing words stand."""
    rows = [f for f in found if f.side == side]
    places = Counter(_nearness(f) for f in rows).most_common()
    return f"{len(rows)} {side} phrases ({sum(f.none_held for f in rows)} sharing no word with their span); the missing words stand " + ", ".join(f"{where} ({n})" for where, n in places)


def doc_id(author_key: str, book: int, line: int) -> str:
    """The id of an epic's line: ``{author}-{book}-{line}``, as the card gives it (``vergil-1-1``)."""
    return f"{author_key}-{book}-{line}"


def query_id(start: int, end: int, book: int = VF_BOOK) -> str:
    """The id of the query for VF lines ``start``..``end`` of ``book``: ``vf-1-{start}-{end}``, as the card gives it."""
    return f"vf-{book}-{start}-{end}"


def pinned_paths() -> set[str]:
    """The paths (relative to the source root) the naacl2021 manifest pins: all the build may read."""
    return {f.local_path for f in manifest.load_manifest("naacl2021")}


def book_files(root: Path, stem: str, part: str = "*") -> list[Path]:
    """The pinned ``{stem}.part.N.tess`` files (all, or book ``part`` only), in book order: taken from the manifest,
    whose files ``publish.writer.build_dataset`` verifies first, never from what the folder holds (other files there
    are :func:`ignored_files`)."""
    books = []
    for local_path in pinned_paths():
        folder, _, name = local_path.rpartition("/")
        m = _BOOK_FILE.match(name)
        if folder == TEXTS and m and m["stem"] == stem and part in ("*", m["part"]):
            books.append((int(m["part"]), root / local_path))
    if not books:
        which = f"{stem}.part.{part}.tess" if part != "*" else f"{stem}.part.N.tess files"
        raise InputError(f"the naacl2021 manifest pins no {which} under {TEXTS}", hint="Reinstall latin-intertext: its sources/manifest.tsv is incomplete.")
    return [path for _, path in sorted(books)]


def ignored_files(root: Path) -> list[IgnoredFile]:
    """Every entry of ``naacl2021/`` and ``naacl2021/texts/`` that the manifest does not pin (another book, a note, a
    folder, a link), in name order: the build reads none of them, and lists each in the report, with why."""
    pinned = pinned_paths()
    ignored = []
    for folder in ("naacl2021", TEXTS):
        try:
            entries = sorted(os.scandir(root / folder), key=lambda e: e.name)
        except OSError:  # a folder missing or unreadable: verification has named its pinned files already
            continue
        for entry in entries:
            local = f"{folder}/{entry.name}"
            if local in pinned or local == TEXTS:
                continue
            path = Path(entry.path)
            link = f"a link to {os.readlink(path)}, " if path.is_symlink() else ""
            if link and not path.exists():
                reason = f"{link}which does not exist; ignored"
            elif path.is_dir():
                reason = f"{link}a folder not in the manifest; ignored, nothing in it is read"
            else:
                reason = f"{link}not in the manifest (its sha256 is not pinned); ignored, never read"
            ignored.append(IgnoredFile(local, reason))
    return ignored


def _read_texts(root: Path, stem: str, report: BuildReport, part: str = "*") -> list[TessText]:
    texts = []
    for path in book_files(root, stem, part):
        text = parse_tess(path, require_book_line=True, display=str(path.relative_to(root)))
        report.files_read += 1
        report.skipped.extend(text.skipped)
        report.duplicates.extend(text.duplicates)
        report.separators.setdefault(stem.split(".")[0], Counter()).update(text.separators)
        texts.append(text)
    return texts


def read_corpus(root: Path, report: BuildReport) -> list[CorpusLine]:
    corpus = []
    for author, stem in TARGET_FILES.items():
        for text in _read_texts(root, stem, report):
            for tl in text.lines:
                if author_key(tl.tess_index) != author:
                    raise InputError(f"{tl.path}:{tl.lineno}: citation {tl.tess_index} is not by {author}", hint=f"Files named {stem}.* must hold {author}'s verses only.")
                book, line = tl.book_line
                corpus.append(CorpusLine(doc_id(author, book, line), tl.text, AUTHOR_NAMES[author], WORKS[author], book, line, tl.tess_index))
    return corpus


def read_query_lines(root: Path, report: BuildReport, book: int = VF_BOOK) -> dict[int, str]:
    lines = {}
    for text in _read_texts(root, QUERY_FILE_STEM, report, part=str(book)):
        for tl in text.lines:
            b, n = tl.book_line
            if b == book:
                lines[n] = tl.text
    return lines


def prefer_quoted_occurrences(
    corpus: list[CorpusLine], skipped: list[Skipped], duplicates: list[Duplicate], parallels: list[GoldParallel]
) -> tuple[list[CorpusLine], list[Skipped]]:
    """Of a duplicated citation the gold cites, keep the occurrence that shares more word forms with the gold's
    result phrases (the first on a tie); the occurrence left out stays listed in ``skipped``, with why."""
    quoted: dict[str, list[GoldParallel]] = {}
    for p in parallels:
        for n in p.target_lines:
            quoted.setdefault(doc_id(p.author, p.book, n), []).append(p)
    index = {d.id: i for i, d in enumerate(corpus)}
    listed = {(s.path, s.lineno): n for n, s in enumerate(skipped)}
    corpus, skipped = list(corpus), list(skipped)
    for dup in duplicates:
        book, line = dup.line.book_line
        dup_id = doc_id(author_key(dup.line.tess_index), book, line)
        quoting = quoted.get(dup_id, [])
        first = corpus[index[dup_id]] if quoting else None
        if not quoting or _shared_forms(quoting, dup.line.text) <= _shared_forms(quoting, first.text):
            continue
        corpus[index[dup_id]] = replace(first, text=dup.line.text)
        rows = ", ".join(str(p.csv_line) for p in quoting)
        note = f"(also at line {dup.line.lineno}, whose words the gold quotes: CSV line {rows}); that one kept"
        skipped[listed[(dup.line.path, dup.line.lineno)]] = Skipped(dup.line.path, dup.first_lineno, DUPLICATE, first.text, dup.line.tess_index, note, quoted_kept=True)
    return corpus, skipped


def _shared_forms(parallels: list[GoldParallel], text: str) -> int:
    return len({form for p in parallels for form in latin.forms(p.result_phrase)} & set(latin.forms(text)))


def make_queries(parallels: list[GoldParallel], vf_lines: dict[int, str]) -> list[Query]:
    """One query per (start, end) span, in order of first appearance in the gold file."""
    spans: dict[tuple[int, int], list[GoldParallel]] = {}
    for p in parallels:
        spans.setdefault((p.vf_start, p.vf_end), []).append(p)
    missing = [f"gold CSV line {group[0].csv_line}: VF 1.{n} is not in the Valerius Flaccus text" for (s, e), group in spans.items() for n in range(s, e + 1) if n not in vf_lines]
    if missing:
        raise InputError("Gold spans point to missing Valerius Flaccus lines", missing)
    queries = []
    for (start, end), group in spans.items():
        phrases = list(dict.fromkeys(p.query_phrase for p in group))
        text = " ".join(vf_lines[n] for n in range(start, end + 1))
        queries.append(Query(query_id(start, end), text, VF_BOOK, start, end, json.dumps(phrases, ensure_ascii=False), len(group)))
    return queries


def make_qrels(parallels: list[GoldParallel]) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    for p in parallels:
        row = qrels.setdefault(query_id(p.vf_start, p.vf_end), {})
        for n in p.target_lines:
            row[doc_id(p.author, p.book, n)] = 1
    return qrels


def build_benchmark(root: Path) -> tuple[Benchmark, BuildReport]:
    """Build the three tables from a verified source root (``manifest.resolve_sources``): the manifest's files only,
    every other entry of its naacl2021 folders listed in ``report.ignored``."""
    report = BuildReport(ignored=ignored_files(root))
    corpus = read_corpus(root, report)
    keys = {(AUTHORS[d.author], d.book, d.line) for d in corpus}
    parallels = read_gold(root / GOLD_FILE, keys)
    report.files_read += 1
    report.gold_line_ends = line_ends((root / GOLD_FILE).read_bytes())
    corpus, report.skipped = prefer_quoted_occurrences(corpus, report.skipped, report.duplicates, parallels)
    report.numbering = numbering_gaps(corpus)
    vf_lines = read_query_lines(root, report)
    queries = make_queries(parallels, vf_lines)
    report.beyond_span = phrases_beyond_spans(parallels, vf_lines, corpus)
    return Benchmark(corpus, queries, make_qrels(parallels)), report
