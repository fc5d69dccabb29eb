"""Reader for the gold parallels of Burns et al. (NAACL-HLT 2021), ``vf_intertext_dataset_1_0.csv``.

The file has CRLF line ends (the csv module handles them). Its ``VF: Lemma``
column is noisy, so queries use ``Query Phrase``. Every row is validated and
bad rows are reported together, each with its CSV line number.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from latin_intertext import EPICS
from latin_intertext.errors import InputError

AUTHORS = {epic.author: epic.key for epic in EPICS}
AUTHOR_NAMES = {epic.key: epic.author for epic in EPICS}
WORKS = {epic.key: epic.work for epic in EPICS}
REQUIRED_COLUMNS = (
    "VF: Line Start",
    "VF: Line End",
    "Intertext: Author",
    "Intertext: Work",
    "Intertext: Book",
    "Intertext: Line Start",
    "Intertext: Line End",
    "Query Phrase",
)


@dataclass(frozen=True)
class GoldParallel:
    """One scholar-curated parallel between a Valerius Flaccus span and a target span."""

    csv_line: int
    vf_start: int
    vf_end: int
    author: str  # author key
    book: int
    line_start: int
    line_end: int
    query_phrase: str
    result_phrase: str

    @property
    def target_lines(self) -> range:
        return range(self.line_start, self.line_end + 1)


def _int(row: dict, column: str, problems: list[str], where: str) -> int | None:
    value = (row.get(column) or "").strip()
    try:
        return int(value)
    except ValueError:
        problems.append(f"{where}: column {column!r} must be an integer, got {value!r}")
        return None


def line_ends(data: bytes) -> dict[str, int]:
    """How the lines of a file end ({"CRLF": n, ...}): the gold CSV's CRLF is a quirk the build reports, not assumes."""
    crlf = data.count(b"\r\n")
    counts = {"CRLF": crlf, "LF": data.count(b"\n") - crlf, "CR": data.count(b"\r") - crlf}
    return {end: n for end, n in counts.items() if n}


def line_ends_text(ends: dict[str, int]) -> str:
    """:func:`line_ends` for a reader: "946 CRLF", "940 CRLF, 6 LF"."""
    return ", ".join(f"{n:,} {end}" for end, n in ends.items()) or "none counted"


def read_gold(path: Path | str, corpus_keys: set[tuple[str, int, int]] | None = None) -> list[GoldParallel]:
    """Parse and validate the gold CSV; with ``corpus_keys``, also check that every target line exists."""
    path = Path(path)
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        header = reader.fieldnames or []
        missing = [c for c in REQUIRED_COLUMNS if c not in header]
        if missing:
            raise InputError(f"{path}:1: missing column(s) {missing}", hint=f"The header must contain {list(REQUIRED_COLUMNS)}.")
        parallels, problems = [], []
        for row in reader:
            where = f"{path}:{reader.line_num}"
            if None in row or any(row.get(c) is None for c in REQUIRED_COLUMNS):
                problems.append(f"{where}: expected {len(header)} fields, got {sum(row.get(c) is not None for c in header) + len(row.get(None, []))}; the row is truncated or has extra commas")
                continue
            author = AUTHORS.get(row["Intertext: Author"].strip())
            if author is None:
                problems.append(f"{where}: column 'Intertext: Author' is {row['Intertext: Author']!r}; expected one of {sorted(AUTHORS)}")
            numbers = [_int(row, c, problems, where) for c in REQUIRED_COLUMNS[:2] + REQUIRED_COLUMNS[4:7]]
            if author is None or None in numbers:
                continue
            vf_start, vf_end, book, start, end = numbers
            if vf_start > vf_end:
                problems.append(f"{where}: VF line start {vf_start} > end {vf_end}")
                continue
            if start > end:
                problems.append(f"{where}: intertext line start {start} > end {end}")
                continue
            if not row["Query Phrase"].strip():
                problems.append(f"{where}: column 'Query Phrase' is empty")
                continue
            if corpus_keys is not None:
                absent = [n for n in range(start, end + 1) if (author, book, n) not in corpus_keys]
                if absent:
                    problems.append(f"{where}: target {author} {book}.{absent[0]} is not in the corpus" + (f" (nor {len(absent) - 1} more lines)" if len(absent) > 1 else ""))
                    continue
            parallels.append(
                GoldParallel(reader.line_num, vf_start, vf_end, author, book, start, end, row["Query Phrase"].strip(), (row.get("Result Phrase") or "").strip())
            )
    if problems:
        raise InputError(f"{path}: {len(problems)} bad gold row(s); nothing was built", problems, hint="Fix or remove these rows, then build again.")
    if not parallels:
        raise InputError(f"{path}: no gold rows found", hint="The file holds a header only; restore the full CSV.")
    return parallels
