"""Write a build to disk: Hugging Face parquet configs, BEIR files, the card, a report and checksums.

Output is deterministic (two builds from the same sources are byte-identical)
and atomic: everything is written into a temporary sibling folder that is
renamed into place only once complete, so a failed build leaves no half-written folder.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from latin_intertext.benchmark import CHECKSUMS, Benchmark, config_path, dataset_files, is_built_dataset, schema
from latin_intertext.build.dataset import BuildReport, build_benchmark
from latin_intertext.outputs import atomic_dir, check_output_dir
from latin_intertext.publish.card import render_card
from latin_intertext.publish.stats import compute_stats
from latin_intertext.sources.manifest import resolve_sources, sha256_of



def config_rows(bench: Benchmark) -> dict[str, list[dict]]:
    """The three configs as rows, in the build's deterministic order."""
    return {
        "corpus": [asdict(d) for d in bench.corpus],
        "queries": [asdict(q) for q in bench.queries],
        "qrels": [{"query-id": q, "corpus-id": d, "score": float(s)} for q, docs in bench.qrels.items() for d, s in docs.items()],
    }


def _write_parquet(rows: list[dict], config: str, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist(rows, schema=schema(config))
    pq.write_table(table, path, compression="zstd", write_statistics=False, store_schema=True)


def beir_lines(bench: Benchmark) -> dict[str, list[str]]:
    """BEIR's layout, by path under beir/: corpus.jsonl (_id, title, text, metadata), queries.jsonl, qrels/test.tsv."""
    return {
        "corpus.jsonl": [json.dumps({"_id": d.id, "title": "", "text": d.text, "metadata": {"author": d.author, "work": d.work, "book": d.book, "line": d.line, "tess_index": d.tess_index}}, ensure_ascii=False) for d in bench.corpus],
        "queries.jsonl": [json.dumps({"_id": q.id, "text": q.text, "metadata": {"vf_book": q.vf_book, "line_start": q.line_start, "line_end": q.line_end}}, ensure_ascii=False) for q in bench.queries],
        "qrels/test.tsv": ["query-id\tcorpus-id\tscore"] + [f"{q}\t{d}\t{s}" for q, docs in bench.qrels.items() for d, s in docs.items()],
    }


def write_beir(bench: Benchmark, root: Path) -> None:
    for name, lines in beir_lines(bench).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        with open(root / name, "w", encoding="utf-8", newline="\n") as fh:
            fh.writelines(line + "\n" for line in lines)


def file_checksums(root: Path) -> dict[str, str]:
    """sha256 of every file under ``root`` except the checksum file itself, by relative path."""
    return {name: sha256_of(root / name) for name in dataset_files(root)}


def write_checksums(root: Path) -> None:
    lines = [f"{digest}  {name}\n" for name, digest in file_checksums(root).items()]
    (root / CHECKSUMS).write_text("".join(lines), encoding="utf-8")


def write_dataset(bench: Benchmark, report: BuildReport, out: Path) -> dict:
    """Write every layout of ``bench`` into ``out`` atomically; return the statistics."""
    stats = compute_stats(bench)
    report_dict = report.to_dict()
    with atomic_dir(out) as tmp:
        for config, rows in config_rows(bench).items():
            _write_parquet(rows, config, config_path(tmp, config))
        write_beir(bench, tmp / "beir")
        (tmp / "README.md").write_text(render_card(stats, report_dict), encoding="utf-8")
        (tmp / "stats.json").write_text(json.dumps(stats, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        (tmp / "build_report.json").write_text(json.dumps(report_dict, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        write_checksums(tmp)
    return stats


def build_dataset(sources: Path | str | None, out: Path | str) -> tuple[dict, BuildReport]:
    """Verify the sources, build the benchmark and publish it to ``out`` (a new or empty folder, or an earlier build)."""
    out = check_output_dir(Path(out), is_built_dataset, "built dataset")
    root = resolve_sources(sources)
    bench, report = build_benchmark(root)
    return write_dataset(bench, report, out), report
