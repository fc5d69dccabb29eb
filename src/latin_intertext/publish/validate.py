"""Re-check a published folder: schema, ids, references, figures and checksums.

Every problem is collected (not just the first), so one run tells the whole story.
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from pathlib import Path

from latin_intertext.benchmark import RELEASE_RECORDS, Benchmark, Query, benchmark_from_rows, checksum_problems, identity_problems, read_rows, records_sha256, reference_problems, schema_problems
from latin_intertext.build.dataset import VF_BOOK, doc_id, query_id
from latin_intertext.errors import ValidationError
from latin_intertext.publish.card import render_card
from latin_intertext.publish.stats import compare_with_reference, compute_stats
from latin_intertext.publish.writer import beir_lines


def _record_id(line: str) -> str:
    try:
        return str(json.loads(line)["_id"])
    except (ValueError, TypeError, KeyError):
        return " ".join(line.split("\t")[:2])[:80] or "(blank line)"


def _beir_problems(root: Path, bench: Benchmark) -> list[str]:
    """Where the BEIR files do not hold exactly the records of the parquet configs: counts and the first few ids."""
    problems = []
    for name, expected in beir_lines(bench).items():
        path = root / "beir" / name
        if not path.is_file():
            problems.append(f"beir/{name}: missing")
            continue
        actual = path.read_text(encoding="utf-8", errors="replace").splitlines()
        if actual == expected:
            continue
        gone = [_record_id(line) for line in (Counter(expected) - Counter(actual)).elements()]
        added = [_record_id(line) for line in (Counter(actual) - Counter(expected)).elements()]
        changed = set(gone) & set(added)
        groups = {"differ": [i for i in gone if i in changed], "missing": [i for i in gone if i not in changed], "not in the parquet configs": [i for i in added if i not in changed]}
        detail = [f"{len(ids)} {what} (first: {', '.join(ids[:3])})" for what, ids in groups.items() if ids]
        problems.append(f"beir/{name} does not match the parquet configs ({len(actual)} lines, {len(expected)} expected): " + ("; ".join(detail) or "the same lines in another order"))
    return problems


def _query_problems(q: Query) -> list[str]:
    """Where a query breaks the card: id ``vf-1-{start}-{end}``, ``vf_book`` always 1, ``query_phrases`` a JSON list of strings."""
    problems = []
    if q.id != query_id(q.line_start, q.line_end, q.vf_book):
        problems.append(f"query id {q.id!r} does not match vf_book/line_start/line_end ({q.vf_book}, {q.line_start}, {q.line_end})")
    if q.vf_book != VF_BOOK:
        problems.append(f"query {q.id!r}: vf_book is {q.vf_book}; the card says it is always {VF_BOOK} in this release")
    if q.line_start > q.line_end:
        problems.append(f"query {q.id!r}: line_start {q.line_start} > line_end {q.line_end}")
    try:
        phrases = json.loads(q.query_phrases)
    except ValueError:
        phrases = None
    if not isinstance(phrases, list) or not all(isinstance(p, str) for p in phrases):
        problems.append(f"query {q.id!r}: query_phrases {q.query_phrases[:60]!r} is not a JSON list of strings")
    return problems


def validate_dataset(root: Path | str) -> list[str]:
    """Every problem found in a published folder; an empty list means it is valid."""
    root = Path(root)
    if not root.is_dir():
        return [f"{root} is not a folder" + (" (it is a file)" if root.exists() else " (it does not exist)") + "; give the folder `latin-intertext build --out DIR` wrote"]
    problems = schema_problems(root)
    if problems:
        return problems + checksum_problems(root)
    try:  # the schemas were checked above; the checksums are compared below, with every other problem
        rows = read_rows(root)
        bench = benchmark_from_rows(root, rows, check=False)
    except ValidationError as exc:
        return [str(exc)] + checksum_problems(root)
    problems += identity_problems(rows)
    qrel_rows = rows["qrels"]
    problems += reference_problems(rows)
    for n, row in enumerate(qrel_rows, start=1):
        if row["score"] != 1.0:
            problems.append(f"qrels row {n}: score {row['score']} should be 1.0")
    for d in bench.corpus:
        if d.id != doc_id(d.author.lower(), d.book, d.line):
            problems.append(f"corpus id {d.id!r} does not match author/book/line ({d.author}, {d.book}, {d.line})")
    problems += [problem for q in bench.queries for problem in _query_problems(q)]
    stats = compute_stats(bench)
    problems += [f"figures differ from the v1.0.0 card: {p}" for p in compare_with_reference(stats)]
    problems += _release_problems(rows)
    if bench.card != stats:
        problems.append("stats.json does not match the statistics computed from the data")
    return problems + _card_problems(root, stats) + _beir_problems(root, bench) + checksum_problems(root)


def _release_problems(rows: dict[str, list[dict]]) -> list[str]:
    """The configs whose records are not v1.0.0's, though the folder may agree with itself (checksums recomputed)."""
    return [
        f"{config}/test.parquet: its records are not those of the v1.0.0 release (records sha256 {actual[:12]}..., v1.0.0's "
        f"{expected[:12]}...): a row was edited, added or removed, or the folder was built from other sources; rebuild it "
        "from the pinned sources with `latin-intertext build`"
        for config, expected in RELEASE_RECORDS.items()
        if (actual := records_sha256(rows[config])) != expected
    ]


def _card_problems(root: Path, stats: dict) -> list[str]:
    """Where README.md is not, word for word, the card that the data and build_report.json render: every visible
    figure, the YAML header and the license included, not only the statistics the card carries in a comment."""
    card, report = root / "README.md", root / "build_report.json"
    if not card.is_file():
        return ["README.md: missing (the dataset card); rebuild the folder with `latin-intertext build`"]
    try:
        expected = render_card(stats, json.loads(report.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return [f"build_report.json: unreadable or incomplete ({type(exc).__name__}: {exc}), so the card cannot be checked; rebuild the folder with `latin-intertext build`"]
    actual = card.read_text(encoding="utf-8", errors="replace")
    if actual == expected:
        return []
    changed = [line for line in difflib.unified_diff(expected.splitlines(), actual.splitlines(), n=0, lineterm="") if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    shown = "; ".join(f"{'card has' if line[0] == '+' else 'data gives'} {line[1:].strip()[:100]!r}" for line in changed[:4])
    return [f"README.md: the card differs from the one the data and build_report.json give ({len(changed)} line(s) differ: {shown}); rebuild with `latin-intertext build` instead of editing the card"]
