"""TREC run files (``qid Q0 docid rank score tag``): read with every problem reported, write in trec_eval order.

A run read for evaluation must name only the benchmark's queries and corpus lines: an unknown id
means the run was made for another dataset or version, and dropping it silently would change the
score, so every unknown id is counted and listed in the error instead.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Collection

from latin_intertext.benchmark import Run
from latin_intertext.errors import InputError, not_utf8
from latin_intertext.evaluate.metrics import ranked

FORMAT_HINT = "Each line must be `qid Q0 docid rank score tag` (6 whitespace-separated fields, integer rank, numeric score)."


def _parse_line(text: str) -> tuple[str, str, float] | str:
    """(qid, docid, score) from one line, or the reason it is malformed."""
    fields = text.split()
    if len(fields) != 6:
        return f"expected 6 fields `qid Q0 docid rank score tag`, found {len(fields)}"
    qid, _q0, docid, rank, score, _tag = fields
    try:
        int(rank)
    except ValueError:
        return f"rank {rank!r} is not an integer"
    try:
        value = float(score)
    except ValueError:
        return f"score {score!r} is not a number"
    if math.isnan(value):
        return "score is NaN"
    return qid, docid, value


def read_trec_run(path: Path | str, query_ids: Collection[str] | None = None, doc_ids: Collection[str] | None = None) -> Run:
    """Read a run; raise :class:`InputError` listing every malformed line, duplicate and unknown id.

    ``query_ids``/``doc_ids``, when given, are the ids the run may use (the benchmark's).
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: run file not found", hint="Pass the path of a TREC run file written by `evaluate --save-run`.")
    run: Run = {}
    malformed: list[str] = []
    duplicates: list[str] = []
    unknown_q: Counter = Counter()
    unknown_d: Counter = Counter()
    first_seen: dict[str, int] = {}
    with path.open("rb") as handle:
        for lineno, raw in enumerate(handle, 1):
            text = _decode(raw, path, lineno)
            if not text.strip():
                continue
            parsed = _parse_line(text)
            if isinstance(parsed, str):
                malformed.append(f"{path}:{lineno}: {parsed}: {text.rstrip()[:120]!r}")
                continue
            qid, docid, score = parsed
            if query_ids is not None and qid not in query_ids:
                unknown_q[qid] += 1
                first_seen.setdefault("q:" + qid, lineno)
                continue
            if doc_ids is not None and docid not in doc_ids:
                unknown_d[docid] += 1
                first_seen.setdefault("d:" + docid, lineno)
                continue
            docs = run.setdefault(qid, {})
            if docid in docs:
                duplicates.append(f"{path}:{lineno}: document {docid} listed twice for query {qid}")
            docs[docid] = score
    if malformed:
        raise InputError(f"{path}: {len(malformed)} malformed line(s)", malformed, FORMAT_HINT)
    problems = [f"{path}:{first_seen['q:' + q]}: unknown query id {q!r} ({n} line(s))" for q, n in unknown_q.items()]
    problems += [f"{path}:{first_seen['d:' + d]}: unknown doc id {d!r} ({n} line(s))" for d, n in unknown_d.items()]
    problems += duplicates
    if problems:
        summary = f"{path}: {sum(unknown_q.values())} line(s) with {len(unknown_q)} unknown query id(s), " f"{sum(unknown_d.values())} line(s) with {len(unknown_d)} unknown doc id(s), {len(duplicates)} duplicate(s)"
        hints = []
        if unknown_q or unknown_d:
            hints.append("The run must use this dataset's query ids (vf-1-START-END) and corpus ids (author-book-line); was it made for another dataset version?")
        if duplicates:
            hints.append("List each document once per query (trec_eval keeps one score per pair; keep the best).")
        raise InputError(summary, problems, " ".join(hints))
    if not run:
        raise InputError(f"{path}: the run file holds no results", hint=f"{FORMAT_HINT} Was the run written in full?")
    return run


def _decode(raw: bytes, path: Path, lineno: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(str(path), raw, exc, "Save the run file as UTF-8 (e.g. `iconv -f latin1 -t utf-8 RUN > RUN.utf8`).", lineno) from None


def write_trec_run(run: Run, path: Path | str, tag: str = "latin-intertext") -> Path:
    """Write ``run`` with ranks in trec_eval's order (score descending, ties by doc id descending)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tag = "_".join(tag.split()) or "run"
    with path.open("w", encoding="utf-8") as handle:
        for qid in sorted(run):
            for rank, (docid, score) in enumerate(ranked(run[qid]), 1):
                handle.write(f"{qid} Q0 {docid} {rank} {score!r} {tag}\n")
    return path
