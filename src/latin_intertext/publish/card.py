"""The Hugging Face dataset card (README.md) of a build: YAML header plus tables computed from the data."""

from __future__ import annotations

import json

from latin_intertext import DATASET_VERSION, HUB_REPO_ID
from latin_intertext.benchmark import CONFIG_FEATURES
from latin_intertext.build.dataset import NumberingGap, PhraseBeyondSpan, beyond_span_summary
from latin_intertext.sources.gold import line_ends_text
from latin_intertext.sources.tess import BLANK, DUPLICATE


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


# The spec card's description of each column, verbatim (its "line_start / line_end" row describes both).
FIELD_DESCRIPTIONS = {
    "corpus": {
        "id": "{author_key}-{book}-{line} (e.g. vergil-1-1)",
        "text": "Retrieval document (Latin verse line)",
        "author": "Vergil / Lucan / Ovid / Statius",
        "work": "Work title",
        "book": "Book number",
        "line": "Line number",
        "tess_index": "Original Tesserae-style index",
    },
    "queries": {
        "id": "vf-1-{start}-{end}",
        "text": "Retrieval query: concatenated VF Book 1 lines",
        "vf_book": "Always 1 in this release",
        "line_start": "Inclusive VF line span",
        "line_end": "Inclusive VF line span",
        "query_phrases": "JSON list of lemma/phrase queries from the gold file",
        "n_parallels": "Number of gold parallels for this span",
    },
    "qrels": {"query-id": "Matches queries.id", "corpus-id": "Matches corpus.id", "score": "1.0 for gold relevant lines"},
}
CONSTRUCTION = """1. Load Tesserae-format .tess line files for four target epics → corpus.
2. Load VF Argonautica Book 1 lines; group gold rows in vf_intertext_dataset_1_0.csv by (VF Line Start, VF Line End).
3. Query text = concatenated VF lines in the span.
4. For each parallel, mark every target line in [Intertext Line Start, End] as relevant.
5. Deduplicate qrels per (query-id, corpus-id)."""
PAPER = "https://aclanthology.org/2021.naacl-main.389/"
UPSTREAM = "https://github.com/QuantitativeCriticismLab/NAACL-HLT-2021-Latin-Intertextuality"


_SPEC_AUTHOR_ORDER = ("Vergil", "Lucan", "Ovid", "Statius")


def _spec_order(author: str) -> tuple[int, str]:
    return (_SPEC_AUTHOR_ORDER.index(author) if author in _SPEC_AUTHOR_ORDER else len(_SPEC_AUTHOR_ORDER), author)


def _items(stats: dict) -> list[tuple[str, str]]:
    """The spec card's item table, its figures computed from the data."""
    return [
        ("Dataset version", DATASET_VERSION),
        ("Task", "Retrieval (document ranking)"),
        ("Language", "Latin (la)"),
        ("Query", "VF Argonautica 1.x line span (queries.text)"),
        ("Corpus", f"Line-level epic verses ({' / '.join(sorted(stats['authors'], key=_spec_order))})"),
        ("Relevance", "Scholar-curated parallels (score=1); multi-line targets → all lines marked relevant"),
        ("Splits", "test only (MTEB Retrieval)"),
        ("Size", f"corpus={stats['corpus']}; queries={stats['queries']}; qrels={stats['qrels']}"),
        ("Avg. relevant docs / query", f"{stats['avg_relevant_per_query']:.2f} (min={stats['min_relevant_per_query']}, max={stats['max_relevant_per_query']})"),
        ("Gold parallels", f"{stats['gold_parallels']:,}"),
        ("License", "CC BY 4.0 (packaging; classical texts are public domain)"),
        ("Evaluation metrics", "nDCG@10, MAP, Recall@k"),
    ]


def _separators(report: dict) -> str:
    """Which files separate citation from verse with a space and which with a tab, as the build counted them."""
    by_kind: dict[str, list[str]] = {}
    for author, counts in report.get("citation_separators", {}).items():
        for kind in counts:
            by_kind.setdefault(kind, []).append(author.replace("_", " ").title())
    return "; ".join(f"a {kind} in {', '.join(authors)}" for kind, authors in sorted(by_kind.items(), key=lambda kv: len(kv[1])))


def render_card(stats: dict, report: dict) -> str:
    skipped = report["skipped"]
    duplicates = [s for s in skipped if s["kind"] == DUPLICATE]
    quoted_kept = [s["citation"] for s in duplicates if s["quoted_kept"]]
    blank = [s for s in skipped if s["kind"] == BLANK]
    author_rows = [(a, stats["works"][a], f"{n:,}") for a, n in stats["authors"].items()]
    feature_tables = "\n\n".join(
        f"### {c}\n\n" + _table(("field", "type", "description"), [(n, t, FIELD_DESCRIPTIONS[c][n]) for n, t in f]) for c, f in CONFIG_FEATURES.items()
    )
    duplicate_rows = [(d["file"], d["line"], d["citation"], d["text"][:60]) for d in duplicates]
    gaps = [NumberingGap(**g) for g in report.get("numbering_gaps", [])]
    gap_rows = [(g.author, g.book, g.lines, f"steps back after {g.book}.{g.steps_back_after}" if g.steps_back_after else "absent") for g in gaps]
    kept_clause = f" ({', '.join(quoted_kept)}: the gold quotes the later line so numbered)" if quoted_kept else ""
    gaps_item = (
        f"- The sources' own line numbers are kept as the ids, never renumbered. Where a book's numbering skips a line "
        f"or steps back, the build reports it ({len(gap_rows)} places, also in `build_report.json`):\n\n"
        f"{_table(('author', 'book', 'lines', 'numbering'), gap_rows)}\n\n"
        if gap_rows else ""
    )
    beyond = [PhraseBeyondSpan(**p) for p in report.get("phrases_beyond_span", [])]
    unheld = [(p.csv_line, p.span, p.phrase, p.where) for p in beyond if p.side == "result" and p.none_held]
    beyond_item = (
        f"- Some gold phrases quote words that their own span lacks: the span stops a line short of the phrase, or the "
        f"gold quotes another edition's reading or misspells. They are kept as the gold has them (the qrels mark the "
        f"span's lines only, as the construction method says) and listed in `build_report.json` (`phrases_beyond_span`): "
        f"{beyond_span_summary(beyond, 'result')}; {beyond_span_summary(beyond, 'query')}. The qrels of these parallels "
        f"mark a line that holds none of the words their result phrase quotes:\n\n"
        f"{_table(('gold CSV line', 'target span', 'result phrase', 'the quoted words stand'), unheld)}\n"
        if beyond else ""
    )
    return f"""{_yaml(stats)}

# Latin Epic Intertextuality Retrieval (v{DATASET_VERSION})

BEIR-style retrieval benchmark for Latin epic intertextuality under PoetryMTEB. Given a passage from
Valerius Flaccus, *Argonautica* Book 1, retrieve the verse lines of Vergil (*Aeneid*), Lucan (*Bellum Civile*),
Ovid (*Metamorphoses*) or Statius (*Thebaid*) that scholarship identifies as its parallels.
Gold parallels: Burns et al., NAACL-HLT 2021 ([paper]({PAPER}); [repo]({UPSTREAM})), {stats['gold_parallels']} curated pairs.

Built by `latin-intertext build` from the pinned sources; every figure below is computed from the data.

## Dataset card

{_table(("item", "description"), _items(stats))}

## Corpus author distribution (documents)

{_table(("author", "work", "#lines"), author_rows)}

## Configs (split `test`)

{feature_tables}

`query_phrases` (JSON list of the span's distinct `Query Phrase` values, in file order) and `n_parallels` are
annotations for analysis: retrievers must not read them.

## Construction method

{CONSTRUCTION}

## Source quirks and how this build handles them

- Citation and verse are separated by {_separators(report)} (counted line by line in `build_report.json`): both are accepted.
- Duplicate citations (a citation that occurs twice with different verses): **the first occurrence is kept**,
  unless the gold quotes the other{kept_clause}, which gives the card's one line per citation
  ({stats['corpus']:,} lines). Dropped lines:

{_table(("file", "line", "citation", "dropped verse"), duplicate_rows)}

{gaps_item}- {len(blank)} blank lines (in {len({s['file'] for s in blank})} files) are skipped.
  Every skipped line is listed in `build_report.json`.
- The gold CSV's line ends: {line_ends_text(report.get("gold_line_ends", {}))} (the csv module reads any). Its `VF: Lemma` column is noisy, so `Query Phrase` is used.
{beyond_item}
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

print(queries[0]["id"], queries[0]["text"][:120])
print(corpus[0]["author"], corpus[0]["text"])
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

Upstream: {UPSTREAM}
Hub packaging: {HUB_REPO_ID} (v{DATASET_VERSION})

<!-- stats: {json.dumps(stats, sort_keys=True)} -->
"""
