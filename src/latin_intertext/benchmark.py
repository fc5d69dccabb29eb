"""The benchmark's three tables as typed records, and loading them from a published folder.

Every stage after ``build`` (retrieve, evaluate, serve) receives a :class:`Benchmark`.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path, PurePosixPath

import pyarrow as pa
import pyarrow.parquet as pq

from latin_intertext.errors import ValidationError
from latin_intertext.sources.manifest import sha256_of

Run = dict[str, dict[str, float]]  # query id -> doc id -> score
Qrels = dict[str, dict[str, int]]  # query id -> doc id -> relevance

# records_sha256 of each config of v1.0.0, as `build` makes it from the pinned sources: what its figures cannot show
# (a verse, a query or a qrels row edited, with the checksums recomputed) these do.
RELEASE_RECORDS = {
    "corpus": "42bea8e3195f2a005160d320e91bb6b72ddb41123d0d16e2ff53cdaa42066e36",
    "queries": "c370f3885f9d2aa7f690249bb5ad7f7ec3a2f42cb4b642ce2d541a4edead8dfc",
    "qrels": "4ea8598d7ef95adcf2e4dd5fb0a06f3bb66f9fe847304d127c84d1c8b6ba0543",
}


def records_sha256(rows: list[dict]) -> str:
    """sha256 of a config's records in their order, each as JSON with sorted keys: the same for the same data,
    however a parquet writer encodes it."""
    digest = hashlib.sha256()
    for row in rows:
        digest.update(json.dumps(row, sort_keys=True, ensure_ascii=False).encode("utf-8") + b"\n")
    return digest.hexdigest()


@dataclass(frozen=True)
class CorpusLine:
    id: str
    text: str
    author: str
    work: str
    book: int
    line: int
    tess_index: str


@dataclass(frozen=True)
class Query:
    id: str
    text: str
    vf_book: int
    line_start: int
    line_end: int
    query_phrases: str  # JSON list; for evaluation and display only, never for retrieval
    n_parallels: int

    @property
    def span_length(self) -> int:
        return self.line_end - self.line_start + 1


@dataclass
class Benchmark:
    corpus: list[CorpusLine]
    queries: list[Query]
    qrels: Qrels
    path: Path | None = None
    card: dict = field(default_factory=dict)
    records: dict[str, str] = field(default_factory=dict)  # records_sha256 of each config read from ``path``, if asked

    @property
    def changed_configs(self) -> list[str]:
        """The configs read from ``path`` whose records are not the release's (none for a folder of v1.0.0)."""
        return [config for config, digest in self.records.items() if digest != RELEASE_RECORDS[config]]

    @property
    def version_label(self) -> str:
        """What a report may call the data it scored: the release's version only when its records are the release's."""
        from latin_intertext import DATASET_VERSION

        if self.records == RELEASE_RECORDS:
            return DATASET_VERSION
        if changed := self.changed_configs:
            return f"not {DATASET_VERSION}: its {', '.join(changed)} records differ from the release's"
        return f"unverified: its records were not checked against {DATASET_VERSION}'s"

    @cached_property
    def doc_index(self) -> dict[str, int]:
        return {d.id: i for i, d in enumerate(self.corpus)}

    @property
    def query_texts(self) -> dict[str, str]:
        """What a retriever may see of the queries: their ids and texts, nothing else."""
        return {q.id: q.text for q in self.queries}

    def subset(self, query_ids) -> "Benchmark":
        keep = set(query_ids)
        return Benchmark(
            self.corpus,
            [q for q in self.queries if q.id in keep],
            {q: r for q, r in self.qrels.items() if q in keep},
            self.path,
            self.card,
            self.records,
        )


CONFIGS = ("corpus", "queries", "qrels")
_FEATURE_TYPE = {"str": "string", "int": "int64"}  # a record field's annotation -> its Hugging Face dtype
# The one definition of each config's columns and types (the card, the writer and the checks read it):
# the corpus and query columns are the fields of the records above.
CONFIG_FEATURES = {
    "corpus": [(f.name, _FEATURE_TYPE[f.type]) for f in fields(CorpusLine)],
    "queries": [(f.name, _FEATURE_TYPE[f.type]) for f in fields(Query)],
    "qrels": [("query-id", "string"), ("corpus-id", "string"), ("score", "float64")],
}
_ARROW = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64()}
CHECKSUMS = "SHA256SUMS"
_CHECKSUM_LINE = re.compile(r"([0-9a-f]{64})  (\S.*)")


def config_path(root: Path, config: str) -> Path:
    return root / config / "test.parquet"


BEIR_FILES = ("corpus.jsonl", "queries.jsonl", "qrels/test.tsv")  # under beir/, as publish.writer.beir_lines names them
# Every file a build writes, by relative path: a folder holding nothing else is an earlier (perhaps damaged) build.
BUILD_FILES = frozenset(
    [config_path(Path(), c).as_posix() for c in CONFIGS] + [f"beir/{name}" for name in BEIR_FILES] + ["README.md", "stats.json", "build_report.json", CHECKSUMS]
)
BUILD_PATHS = BUILD_FILES | {parent.as_posix() for name in BUILD_FILES for parent in Path(name).parents} - {"."}


def schema(config: str) -> pa.Schema:
    """The arrow schema the build writes for ``config``."""
    return pa.schema([(name, _ARROW[dtype]) for name, dtype in CONFIG_FEATURES[config]])


def _schema_difference(actual: pa.Schema, expected: pa.Schema) -> str:
    """How ``actual`` differs from ``expected``, column by column."""
    diffs = [f"column {f.name!r} is missing" for f in expected if f.name not in actual.names]
    diffs += [f"column {f.name!r} is {actual.field(f.name).type} where the build writes {f.type}" for f in expected if f.name in actual.names and actual.field(f.name).type != f.type]
    diffs += [f"column {name!r} is not one the build writes" for name in actual.names if name not in expected.names]
    if not diffs:  # same names and types: the order, a duplicated name or nullability differs
        diffs = [f"schema {actual.to_string(show_schema_metadata=False)!r} differs from {expected.to_string()!r}"]
    return "; ".join(diffs)


def schema_problems(root: Path) -> list[str]:
    """For each config, whether its parquet file is missing, unreadable, or has other columns or types than the build writes."""
    problems = []
    for config in CONFIGS:
        path = config_path(root, config)
        if not path.is_file():
            problems.append(f"{path}: missing")
            continue
        try:
            actual = pq.read_schema(path)
        except (pa.ArrowException, OSError) as exc:
            problems.append(f"{path}: not a readable parquet file ({exc})")
            continue
        if not actual.equals(schema(config), check_metadata=False):
            problems.append(f"{path}: {_schema_difference(actual, schema(config))}")
    return problems


def is_built_dataset(root: Path) -> bool:
    """Whether ``root`` holds an earlier build (which a new build may replace), even a damaged one: some of the
    build's files and folders (more than a README.md) and nothing else, so a folder with anything of the user's is never replaced."""
    entries = {p.relative_to(root).as_posix() for p in root.rglob("*")}
    return entries <= BUILD_PATHS and bool(entries - {"README.md"})


def _build_advice(root: Path) -> str:
    """How to get a dataset at ``root``: build there, unless it holds files of the user's, which build never replaces."""
    if not root.is_dir() or not any(root.iterdir()) or is_built_dataset(root):
        return f"Run `latin-intertext build --out {root}` first."
    return (
        "It holds other files, which `latin-intertext build` never replaces: pass the folder build wrote (--dataset DIR), "
        "or build into a new folder with `latin-intertext build --out NEW_DIR`."
    )


def _rebuild(root: Path) -> str:
    return f"Rebuild the folder with `latin-intertext build --out {root}` (`latin-intertext validate {root}` lists every problem)."


def parse_checksums(root: Path) -> tuple[dict[str, str], list[str]]:
    """The sha256 recorded in SHA256SUMS by relative path, and a ``SHA256SUMS:LINE: malformed line`` problem for each bad line."""
    entries, malformed = {}, []
    for n, line in enumerate((root / CHECKSUMS).read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
        match = _CHECKSUM_LINE.fullmatch(line)
        if match and (PurePosixPath(match[2]).is_absolute() or ".." in PurePosixPath(match[2]).parts):
            malformed.append(f"{CHECKSUMS}:{n}: {match[2]!r} lies outside the dataset folder (absolute, or through ..); it lists only the folder's own files")
        elif match:
            entries[match[2]] = match[1]
        else:
            malformed.append(f"{CHECKSUMS}:{n}: malformed line {line[:80]!r} (expected '<64 hex digits>  <path>')")
    return entries, malformed


def dataset_files(root: Path) -> list[str]:
    """The relative path of every file under ``root`` but SHA256SUMS itself: what SHA256SUMS lists."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and p != root / CHECKSUMS)


def checksum_problems(root: Path, names: list[str] | None = None) -> list[str]:
    """Where ``names`` (relative paths; by default every file in ``root`` and every file listed) do not match SHA256SUMS.

    Each problem starts with the relative path it concerns."""
    if not (root / CHECKSUMS).is_file():
        return [f"{CHECKSUMS}: missing, so the data cannot be checked"]
    recorded, problems = parse_checksums(root)
    for name in sorted(set(recorded) | set(dataset_files(root))) if names is None else names:
        if name not in recorded:
            problems.append(f"{name}: not listed in {CHECKSUMS}")
        elif not (root / name).is_file():
            problems.append(f"{name}: listed in {CHECKSUMS} but missing")
        elif sha256_of(root / name) != recorded[name]:
            problems.append(f"{name}: sha256 differs from the one recorded in {CHECKSUMS} (the file was altered or damaged)")
    return problems


def read_rows(root: Path) -> dict[str, list[dict]]:
    """The rows of every config (whose schemas were checked), or a :class:`ValidationError` naming the file whose data is damaged."""
    rows = {}
    for config in CONFIGS:
        path = config_path(root, config)
        try:
            rows[config] = pq.ParquetFile(path).read().to_pylist()  # not read_table, whose dataset API takes 0.3 s to import
        except (pa.ArrowException, OSError) as exc:
            raise ValidationError(f"{path}: not a readable parquet file ({exc}). {_rebuild(root)}") from exc
    return rows


def load_benchmark(root: Path | str, *, verify: bool = True, release_check: bool = False) -> Benchmark:
    """Read a folder written by ``latin-intertext build``; with ``verify``, first check the files read against SHA256SUMS;
    with ``release_check``, hash the records too (``Benchmark.version_label``), which only what reports figures needs."""
    root = Path(root)
    missing = [str(config_path(root, c)) for c in CONFIGS if not config_path(root, c).is_file()]
    if missing:
        raise ValidationError(f"{root} is not a built dataset folder: missing {', '.join(missing)}. {_build_advice(root)}")
    problems = []
    if verify:
        read = [config_path(Path(), c).as_posix() for c in CONFIGS]
        listed = (root / CHECKSUMS).is_file() and "stats.json" in parse_checksums(root)[0]
        found = checksum_problems(root, read + ["stats.json"] if listed or (root / "stats.json").is_file() else read)
        problems += [f"{root / name}: {what}" for name, _, what in (p.partition(": ") for p in found)]
    problems += schema_problems(root)
    if problems:
        raise ValidationError("\n".join(problems) + f". {_rebuild(root)}")
    return benchmark_from_rows(root, read_rows(root), release_check=release_check)


def reference_problems(rows: dict[str, list[dict]]) -> list[str]:
    """qrels rows whose query-id or corpus-id names no query or corpus line: each would count as a miss, or as a query
    no system can answer, without a word."""
    doc_ids = {row["id"] for row in rows["corpus"]}
    query_ids = {row["id"] for row in rows["queries"]}
    problems = []
    for n, row in enumerate(rows["qrels"], start=1):
        if row["corpus-id"] not in doc_ids:
            problems.append(f"qrels row {n}: corpus-id {row['corpus-id']!r} is not in the corpus")
        if row["query-id"] not in query_ids:
            problems.append(f"qrels row {n}: query-id {row['query-id']!r} is not a query")
    return problems


def identity_problems(rows: dict[str, list[dict]]) -> list[str]:
    """What would be dropped or merged unsaid when the rows become a benchmark: an id given twice (the later row would
    replace the earlier), a qrels pair given twice, a query without qrels (no metric scores it), an empty text."""
    problems = [
        f"{config}: id {i!r} occurs {n} times" for config in ("corpus", "queries") for i, n in Counter(row["id"] for row in rows[config]).items() if n > 1
    ]
    problems += [f"qrels: id {pair!r} occurs {n} times" for pair, n in Counter((r["query-id"], r["corpus-id"]) for r in rows["qrels"]).items() if n > 1]
    judged = {row["query-id"] for row in rows["qrels"]}
    problems += [f"query {row['id']!r} has no qrels" for row in rows["queries"] if row["id"] not in judged]
    return problems + [f"{config} {row['id']!r}: its text is empty" for config in ("corpus", "queries") for row in rows[config] if isinstance(row["text"], str) and not row["text"].strip()]


def unreadable_values(rows: dict[str, list[dict]]) -> list[str]:
    """Values the schema allows but no benchmark can be made of: a null in any column, a qrels score that is not finite."""
    problems = [
        f"{config} row {n}: {column} is null"
        for config in CONFIGS for n, row in enumerate(rows[config], start=1) for column, value in row.items() if value is None
    ]
    return problems + [f"qrels row {n}: score {row['score']} is not a number" for n, row in enumerate(rows["qrels"], start=1) if row["score"] is not None and not math.isfinite(row["score"])]


def grade_problems(rows: dict[str, list[dict]]) -> list[str]:
    """qrels scores that are no relevance grade (a whole number): 0.5 would be read as 0 without a word."""
    return [f"qrels row {n}: score {row['score']} is not a whole number (a relevance grade)" for n, row in enumerate(rows["qrels"], start=1) if row["score"] != int(row["score"])]


def _listing(problems: list[str]) -> str:
    return "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")


def benchmark_from_rows(root: Path, rows: dict[str, list[dict]], check: bool = True, release_check: bool = False) -> Benchmark:
    """The benchmark held by the rows of a folder's configs (see :func:`read_rows`) and its ``stats.json``. Nulls and
    scores that are not numbers are refused; with ``check``, so are qrels naming an unknown query or line and scores
    that are no relevance grade (``validate`` lists those instead)."""
    if problems := unreadable_values(rows):
        raise ValidationError(f"{root}: {_listing(problems)}. {_rebuild(root)}")
    if check and (problems := reference_problems(rows) + grade_problems(rows)):
        raise ValidationError(f"{config_path(root, 'qrels')}: {_listing(problems)}. {_rebuild(root)}")
    if check and (problems := identity_problems(rows)):
        raise ValidationError(f"{root}: {_listing(problems)}. {_rebuild(root)}")
    corpus = [CorpusLine(**row) for row in rows["corpus"]]
    queries = [Query(**row) for row in rows["queries"]]
    qrels: Qrels = {}
    for row in rows["qrels"]:
        qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
    stats_path = root / "stats.json"
    try:
        card = json.loads(stats_path.read_text(encoding="utf-8")) if stats_path.is_file() else {}
    except ValueError as exc:
        raise ValidationError(f"{stats_path}: not valid JSON ({exc}). {_rebuild(root)}") from exc
    records = {config: records_sha256(rows[config]) for config in RELEASE_RECORDS} if release_check else {}
    return Benchmark(corpus, queries, qrels, root, card, records)
