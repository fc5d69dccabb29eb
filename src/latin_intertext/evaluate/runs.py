"""TREC run files (``qid Q0 docid rank score tag``): read with every problem reported, write in trec_eval order.

A run read for evaluation must name only the benchmark's queries and corpus lines: an unknown id
means the run was made for another dataset or version, and dropping it silently would change the
score, so every unknown id is counted and listed in the error instead.

Documents are ranked by score alone, as trec_eval and MTEB (pytrec_eval) rank them; the rank column is
read only to warn where it disagrees with the scores (:class:`OrderWarning`), since a run whose scores
do not follow its ranks (all equal, or the rank written into the score) would otherwise score wrongly
without a word.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Collection, Iterable

import numpy as np

from latin_intertext.benchmark import Run
from latin_intertext.errors import InputError, not_utf8, refuse_other_bom
from latin_intertext.evaluate.metrics import ranked

FLOAT32_MAX = float(np.finfo(np.float32).max)  # trec_eval holds scores as 32-bit floats

FORMAT_HINT = "Each line must be `qid Q0 docid rank score tag` (6 whitespace-separated fields, integer rank, numeric score)."
ORDER_HINT = (
    "Documents are ranked by score alone, as trec_eval does (scores as 32-bit floats, ties by doc id descending); the rank "
    "column is not used. Write scores that fall as the rank rises and differ within 7 significant digits."
)


@dataclass(frozen=True, slots=True)
class Line:
    """One result line, kept with its rank and line number so that the ranks can be checked against the scores."""

    qid: str
    docid: str
    rank: int
    score: float
    lineno: int


@dataclass(frozen=True)
class OrderWarning:
    """A query whose scores do not order its documents as its ranks do: it is scored in score order, which the
    user may not have meant, so it is reported rather than passed over."""

    query: str
    line: int
    reason: str

    def describe(self, path: Path | str) -> str:
        return f"{path}:{self.line}: query {self.query}: {self.reason}"

    def to_json(self) -> dict:
        return {"query": self.query, "line": self.line, "reason": self.reason}


@dataclass(frozen=True)
class RunFile:
    """A run read from ``path``, with the queries whose score order differs from their rank order."""

    path: Path
    run: Run
    order_warnings: tuple[OrderWarning, ...] = ()


def _parse_rank(rank: str) -> int | None:
    """The rank as an integer; ``1.0`` is accepted (some tools write ranks as floats), ``1.5`` is not, nor ``1_000``
    (Python's reading, not trec_eval's)."""
    if "_" in rank or not rank.isascii():
        return None
    try:
        return int(rank)
    except ValueError:
        pass
    try:
        value = float(rank)
    except ValueError:
        return None
    return int(value) if value.is_integer() else None


def _parse_line(text: str, lineno: int) -> Line | str:
    """The result on one line, or the reason it is malformed."""
    fields = text.split()
    if len(fields) != 6:
        return f"expected 6 fields `qid Q0 docid rank score tag`, found {len(fields)}"
    qid, _q0, docid, rank, score, _tag = fields
    rank_value = _parse_rank(rank)
    if rank_value is None:
        return f"rank {rank!r} is not an integer"
    try:
        value = float(score) if "_" not in score and score.isascii() else None  # Python reads 1_000 as 1000 and Arabic-Indic digits, trec_eval's atof neither
    except ValueError:
        value = None
    if value is None:
        return f"score {score!r} is not a number"
    if math.isnan(value):
        return "score is NaN"
    if math.isinf(value):
        return f"score {score!r} is infinite (or beyond a 64-bit float); give finite scores"
    if abs(value) > FLOAT32_MAX:
        return f"score {score!r} lies beyond a 32-bit float (±3.4e38), which trec_eval (so pytrec_eval and MTEB) reads as infinite; scale the scores down"
    return Line(qid, docid, rank_value, value, lineno)


def order_warning(qid: str, lines: list[Line]) -> OrderWarning | None:
    """Why trec_eval's order of one query's ``lines`` is not their rank order, or None when it is.

    trec_eval (so pytrec_eval and MTEB) holds scores as 32-bit floats and sorts by score, then by doc id, both
    descending: a better rank is put below a worse one by a lower score, by a tie the doc ids break the other way,
    or by scores that differ only beyond a 32-bit float's precision (about 7 significant digits).
    """
    if len(lines) > 1 and len({line.score for line in lines}) == 1:
        return OrderWarning(qid, lines[0].lineno, f"all {len(lines)} documents have score {lines[0].score!r}, so they are ordered by doc id, not by rank")
    scores = np.asarray([line.score for line in lines], dtype=np.float32)
    if (np.diff([line.rank for line in lines]) > 0).all() and (np.diff(scores) < 0).all():
        return None  # the usual case, checked at once: listed by rank, each score strictly below the last
    as_trec = scores.tolist()
    place = [0] * len(lines)
    for position, i in enumerate(sorted(range(len(lines)), key=lambda i: (as_trec[i], lines[i].docid), reverse=True)):
        place[i] = position
    pair = None  # (worse, better): the best rank that trec_eval puts below a worse one, and the highest such worse one
    highest = None  # of the worse ranks seen so far (walking from the worst), the line trec_eval puts highest
    for _rank, group in groupby(sorted(range(len(lines)), key=lambda i: lines[i].rank, reverse=True), key=lambda i: lines[i].rank):
        same = list(group)
        lowest = max(same, key=place.__getitem__)
        if highest is not None and place[lowest] > place[highest]:
            pair = (highest, lowest)
        highest = min(same if highest is None else [*same, highest], key=place.__getitem__)
    if pair is None:
        return None
    worse, better = lines[pair[0]], lines[pair[1]]
    if as_trec[pair[1]] < as_trec[pair[0]]:
        why = "scores below"
    elif better.score == worse.score:
        why = "ties with"
    else:
        why = "equals, as a 32-bit float (trec_eval's precision),"
    return OrderWarning(
        qid,
        better.lineno,
        f"rank {better.rank} ({better.docid}, score {better.score!r}) {why} rank {worse.rank} ({worse.docid}, score {worse.score!r}, "
        f"line {worse.lineno})" + ("" if why == "scores below" else f", so trec_eval puts {worse.docid} first (ties go by doc id, descending)"),
    )


def read_run_file(path: Path | str, query_ids: Collection[str] | None = None, doc_ids: Collection[str] | None = None) -> RunFile:
    """Read a run; raise :class:`InputError` listing every malformed line, duplicate and unknown id, and return it
    with a warning for every query whose scores contradict its ranks.

    ``query_ids``/``doc_ids``, when given, are the ids the run may use (the benchmark's).
    """
    path = Path(path)
    if path.is_dir():
        raise InputError(f"{path}: is a folder, not a run file", hint="Pass the path of one TREC run file inside it (e.g. one written by `evaluate --save-run`).")
    if path.exists() and not path.is_file():
        raise InputError(f"{path}: not a regular file (a device, a pipe or a socket)", hint="Pass the path of a TREC run file written by `evaluate --save-run`.")
    if not path.is_file():
        raise InputError(f"{path}: run file not found", hint="Pass the path of a TREC run file written by `evaluate --save-run`.")
    run: Run = {}
    by_query: dict[str, list[Line]] = {}
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
            parsed = _parse_line(text, lineno)
            if isinstance(parsed, str):
                malformed.append(f"{path}:{lineno}: {parsed}: {text.rstrip()[:120]!r}")
                continue
            if query_ids is not None and parsed.qid not in query_ids:
                unknown_q[parsed.qid] += 1
                first_seen.setdefault("q:" + parsed.qid, lineno)
                continue
            if doc_ids is not None and parsed.docid not in doc_ids:
                unknown_d[parsed.docid] += 1
                first_seen.setdefault("d:" + parsed.docid, lineno)
                continue
            docs = run.setdefault(parsed.qid, {})
            if parsed.docid in docs:
                duplicates.append(f"{path}:{lineno}: document {parsed.docid} listed twice for query {parsed.qid}")
            docs[parsed.docid] = parsed.score
            by_query.setdefault(parsed.qid, []).append(parsed)
    if malformed:
        raise InputError(f"{path}: {len(malformed)} malformed line(s)", malformed, FORMAT_HINT)
    problems = [f"{path}:{first_seen['q:' + q]}: unknown query id {q!r} ({n} line(s))" for q, n in unknown_q.items()]
    problems += [f"{path}:{first_seen['d:' + d]}: unknown doc id {d!r} ({n} line(s))" for d, n in unknown_d.items()]
    problems += duplicates
    if problems:
        counts = (
            (unknown_q, f"{sum(unknown_q.values())} line(s) with {len(unknown_q)} unknown query id(s)"),
            (unknown_d, f"{sum(unknown_d.values())} line(s) with {len(unknown_d)} unknown doc id(s)"),
            (duplicates, f"{len(duplicates)} duplicate(s)"),
        )
        summary = f"{path}: " + ", ".join(count for found, count in counts if found)
        hints = []
        if unknown_q or unknown_d:
            hints.append("The run must use this dataset's query ids (vf-1-START-END) and corpus ids (author-book-line); was it made for another dataset version?")
        if duplicates:
            hints.append("List each document once per query, with its best score (trec_eval refuses a run with duplicate docs, and pytrec_eval's dict would keep only the last).")
        raise InputError(summary, problems, " ".join(hints))
    if not run:
        raise InputError(f"{path}: the run file holds no results", hint=f"{FORMAT_HINT} Was the run written in full?")
    warnings = (order_warning(qid, lines) for qid, lines in by_query.items())
    return RunFile(path, run, tuple(sorted(filter(None, warnings), key=lambda w: w.line)))


def read_trec_run(path: Path | str, query_ids: Collection[str] | None = None, doc_ids: Collection[str] | None = None) -> Run:
    """The run alone, for callers that score it without reporting; the commands use :func:`read_run_file`."""
    return read_run_file(path, query_ids, doc_ids).run


def _decode(raw: bytes, path: Path, lineno: int) -> str:
    """One line as text; a UTF-8 byte-order mark on line 1 is dropped, a UTF-16/32 one named with the fix."""
    if lineno == 1:
        refuse_other_bom(str(path), raw, "RUN", "RUN.utf8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(str(path), raw, exc, "Save the run file as UTF-8 (e.g. `iconv -f latin1 -t utf-8 RUN > RUN.utf8`).", lineno) from None
    return text.removeprefix("\ufeff") if lineno == 1 else text


def unlisted_queries(run: Run, query_ids: Iterable[str]) -> list[str]:
    """The queries a TREC run file of ``run`` leaves out, since it has no way to list a query without results."""
    return sorted(q for q in query_ids if not run.get(q))


def _score_text(score: float) -> str:
    """The shortest text that reads back as ``score``: a 32-bit float's own digits (2.864, not 2.8640000820159912),
    which is what the project's runs hold (``retrieve.base.untied``), else every digit of the double."""
    single = np.float32(score)
    return str(single) if float(single) == score and np.isfinite(single) else repr(float(score))


def write_trec_run(run: Run, path: Path | str, tag: str = "latin-intertext") -> Path:
    """Write ``run`` with ranks in trec_eval's order (score descending, ties by doc id descending)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tag = "_".join(tag.split()) or "run"
    with path.open("w", encoding="utf-8") as handle:
        for qid in sorted(run):
            for rank, (docid, score) in enumerate(ranked(run[qid]), 1):
                handle.write(f"{qid} Q0 {docid} {rank} {_score_text(score)} {tag}\n")
    return path
