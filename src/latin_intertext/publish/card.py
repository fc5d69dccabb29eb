"""The Hugging Face dataset card (README.md) of a build: YAML header plus tables computed from the data."""

from __future__ import annotations

import json

from latin_intertext import DATASET_VERSION, HUB_REPO_ID
from latin_intertext.benchmark import CONFIG_FEATURES
from latin_intertext.publish.stats import stats_rows


def _yaml(stats: dict) -> str:
    lines = [
        "---",
        "license: cc-by-4.0",
        "language:",
        "- la",
        "task_categories:",
        "- text-retrieval",
        "task_ids:",
        "- document-retrieval",
        "pretty_name: Latin Epic Intertextuality Retrieval",
        "size_categories:",
        "- 10K<n<100K",
        "tags:",
        "- mteb",
        "- intertextuality",
        "- latin",
        "- poetry",
        "configs:",
    ]
    for config in CONFIG_FEATURES:
        lines += [f"- config_name: {config}", "  data_files:", "  - split: test", f"    path: {config}/test.parquet"]
    lines.append("dataset_info:")
    for config, features in CONFIG_FEATURES.items():
        lines += [f"- config_name: {config}", "  features:"]
        for name, dtype in features:
            lines += [f"  - name: {name}", f"    dtype: {dtype}"]
    lines.append("---")
    return "\n".join(lines)


def _table(header: tuple[str, ...], rows: list[tuple]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def render_card(stats: dict, report: dict) -> str:
    skipped = report["skipped"]
    duplicates = [s for s in skipped if s["reason"].startswith("duplicate citation")]
    author_rows = [(a, stats["works"][a], f"{n:,}") for a, n in stats["authors"].items()]
    feature_tables = "\n\n".join(f"### {c}\n\n" + _table(("field", "type"), f) for c, f in CONFIG_FEATURES.items())
    duplicate_rows = [(d["file"], d["line"], d["reason"].split(" (")[0].removeprefix("duplicate citation "), d["text"][:60]) for d in duplicates]
    return f"""{_yaml(stats)}

# Latin Epic Intertextuality Retrieval (v{DATASET_VERSION})

BEIR-style retrieval benchmark for Latin epic intertextuality under PoetryMTEB. Given a passage from
Valerius Flaccus, *Argonautica* Book 1, retrieve the verse lines of Vergil (*Aeneid*), Lucan (*Bellum Civile*),
Ovid (*Metamorphoses*) or Statius (*Thebaid*) that scholarship identifies as its parallels.
Gold parallels: Burns et al., NAACL-HLT 2021, {stats['gold_parallels']} curated pairs.

Built by `latin-intertext build` from the pinned sources; every figure below is computed from the data.

## Size

{_table(("item", "value"), stats_rows(stats))}

## Corpus author distribution (documents)

{_table(("author", "work", "#lines"), author_rows)}

## Configs (split `test`)

{feature_tables}

Relevance: Scholar-curated parallels (score=1); multi-line targets → all lines marked relevant.
The qrels are deduplicated per (query-id, corpus-id). `query_phrases` (JSON list of the span's distinct
`Query Phrase` values, in file order) and `n_parallels` are annotations for analysis: retrievers must not read them.

## Source quirks and how this build handles them

- Statius separates citation and verse with a space, the other files with a tab: both are accepted.
- Duplicate citations (a citation that occurs twice with different verses): **the first occurrence is kept**,
  unless the gold quotes the other (Lucan 5.595: the gold's *turbo rapax* is the second line so numbered), which
  gives the card's one line per citation ({stats['corpus']:,} lines). Dropped lines:

{_table(("file", "line", "citation", "dropped verse"), duplicate_rows)}

- {sum(1 for s in skipped if s['reason'] == 'blank line')} blank lines (at the ends of files) are skipped.
  Every skipped line is listed in `build_report.json`.
- The gold CSV has CRLF line ends; its `VF: Lemma` column is noisy, so `Query Phrase` is used.

## Layouts

- Hugging Face `datasets`: `corpus/test.parquet`, `queries/test.parquet`, `qrels/test.parquet` (configs above).
- BEIR: `beir/corpus.jsonl`, `beir/queries.jsonl`, `beir/qrels/test.tsv`.
- `SHA256SUMS` lists the checksum of every file; `latin-intertext validate DIR` re-checks everything.

## How to load

```python
from datasets import load_dataset

corpus = load_dataset("{HUB_REPO_ID}", "corpus")["test"]
queries = load_dataset("{HUB_REPO_ID}", "queries")["test"]
qrels = load_dataset("{HUB_REPO_ID}", "qrels")["test"]
```

## Citation

```bibtex
@inproceedings{{burns-etal-2021-profiling,
  title     = {{Profiling of Intertextuality in {{L}}atin Literature Using Word Embeddings}},
  author    = {{Burns, Patrick J. and Brofos, James A. and Li, Kyle and Chaudhuri, Pramit and Dexter, Joseph P.}},
  booktitle = {{Proceedings of NAACL-HLT 2021}},
  year      = {{2021}},
  pages     = {{4900--4907}},
  url       = {{https://aclanthology.org/2021.naacl-main.389/}}
}}
```

License: CC BY 4.0 (packaging; classical texts are public domain).

<!-- stats: {json.dumps(stats, sort_keys=True)} -->
"""
