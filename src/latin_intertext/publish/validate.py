"""Re-check a published folder: schema, ids, references, figures and checksums.

Every problem is collected (not just the first), so one run tells the whole story.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

from latin_intertext.benchmark import CONFIGS, config_path, load_benchmark
from latin_intertext.publish.stats import compare_with_reference, compute_stats
from latin_intertext.publish.writer import CHECKSUMS, file_checksums, read_checksums, schema


def _schema_problems(root: Path) -> list[str]:
    problems = []
    for config in CONFIGS:
        path = config_path(root, config)
        if not path.is_file():
            problems.append(f"{path}: missing")
            continue
        actual = pq.read_schema(path)
        expected = schema(config)
        if not actual.equals(expected, check_metadata=False):
            problems.append(f"{path}: schema {actual.to_string(show_schema_metadata=False)!r} differs from {expected.to_string()!r}")
    return problems


def _duplicates(ids, what: str) -> list[str]:
    return [f"{what}: id {i!r} occurs {n} times" for i, n in Counter(ids).items() if n > 1]


def _checksum_problems(root: Path) -> list[str]:
    if not (root / CHECKSUMS).is_file():
        return [f"{root / CHECKSUMS}: missing; rebuild with `latin-intertext build`"]
    recorded, actual = read_checksums(root), file_checksums(root)
    problems = [f"{name}: listed in {CHECKSUMS} but missing" for name in recorded if name not in actual]
    problems += [f"{name}: not listed in {CHECKSUMS}" for name in actual if name not in recorded]
    problems += [f"{name}: sha256 {actual[name]} differs from recorded {digest}" for name, digest in recorded.items() if name in actual and actual[name] != digest]
    return problems


def validate_dataset(root: Path | str) -> list[str]:
    """Every problem found in a published folder; an empty list means it is valid."""
    root = Path(root)
    problems = _schema_problems(root)
    if problems:
        return problems + _checksum_problems(root)
    bench = load_benchmark(root)
    problems += _duplicates([d.id for d in bench.corpus], "corpus")
    problems += _duplicates([q.id for q in bench.queries], "queries")
    qrel_rows = pq.read_table(config_path(root, "qrels")).to_pylist()
    problems += _duplicates([(r["query-id"], r["corpus-id"]) for r in qrel_rows], "qrels")
    doc_ids = {d.id for d in bench.corpus}
    query_ids = {q.id for q in bench.queries}
    for n, row in enumerate(qrel_rows, start=1):
        if row["corpus-id"] not in doc_ids:
            problems.append(f"qrels row {n}: corpus-id {row['corpus-id']!r} is not in the corpus")
        if row["query-id"] not in query_ids:
            problems.append(f"qrels row {n}: query-id {row['query-id']!r} is not a query")
        if row["score"] != 1.0:
            problems.append(f"qrels row {n}: score {row['score']} should be 1.0")
    for d in bench.corpus:
        if d.id != f"{d.author.lower()}-{d.book}-{d.line}":
            problems.append(f"corpus id {d.id!r} does not match author/book/line ({d.author}, {d.book}, {d.line})")
    problems += [f"query {q.id!r} has no qrels" for q in bench.queries if q.id not in bench.qrels]
    stats = compute_stats(bench)
    problems += [f"figures differ from the v1.0.0 card: {p}" for p in compare_with_reference(stats)]
    recorded = json.loads((root / "stats.json").read_text()) if (root / "stats.json").is_file() else None
    if recorded != stats:
        problems.append("stats.json does not match the statistics computed from the data")
    card = (root / "README.md").read_text(encoding="utf-8") if (root / "README.md").is_file() else ""
    if f"<!-- stats: {json.dumps(stats, sort_keys=True)} -->" not in card:
        problems.append("README.md card does not carry the statistics computed from the data")
    return problems + _checksum_problems(root)
