"""``latin-intertext search``, ``index-tesserae`` and ``serve``: the search tool for scholars."""

from __future__ import annotations

import errno
import json
import re
import socket
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from latin_intertext import latin
from latin_intertext.cli import app, make_console
from latin_intertext.cli.options import RETRIEVERS_HELP, SEARCH_ONLY_NAMES, DatasetOpt, SourcesOpt, flag
from latin_intertext.errors import LatinIntertextError
from latin_intertext.serve.corpora import describe_lines
from latin_intertext.serve.explain import MatchedWord, line_segments, query_segments, score_terms

SearchRetrieverOpt = Annotated[
    Optional[str],
    typer.Option("--retriever", help=f"A registered retriever (default: the project's best): {RETRIEVERS_HELP}; or {', '.join(SEARCH_ONLY_NAMES)}, the lemma index of --tesserae-la.", show_default=False),
]
# The corpus a passage is searched in, for `search` and `serve` alike (:func:`make_searcher`).
CorpusOpt = Annotated[Optional[str], typer.Option("--corpus", help="benchmark (the default): the 39,675 lines of Vergil, Lucan, Ovid and Statius.")]
TessOpt = Annotated[list[Path], typer.Option("--tess", metavar="<path>", help="Your own .tess file(s) instead: a file or a folder of them (repeatable).")]
TesseraeLaOpt = Annotated[bool, flag("--tesserae-la", help="All 613 Tesserae-la texts instead (run `latin-intertext index-tesserae` once first).")]
WithBenchmarkOpt = Annotated[bool, flag("--with-benchmark", help="With --tess: the benchmark's corpus too.")]
STYLES = {"form": "bold green", "lemma": "bold yellow", "candidate": "bold cyan"}
QUERY_SHOWN_CHARS = 300


def _benchmark(dataset: Optional[Path], sources: Optional[Path]):
    """The benchmark from --dataset, else the default published folder, else built in memory from --sources."""
    from latin_intertext.benchmark import load_benchmark
    from latin_intertext.paths import default_dataset_dir
    from latin_intertext.serve.searcher import benchmark_from_sources

    if dataset is not None:
        return load_benchmark(dataset)
    if sources is None and (default_dataset_dir() / "corpus" / "test.parquet").is_file():
        return load_benchmark(default_dataset_dir())
    return benchmark_from_sources(sources)


def check_corpus_options(corpus: Optional[str], tess: list[Path], tesserae_la: bool, with_benchmark: bool, dataset: Optional[Path], sources: Optional[Path]) -> None:
    """Refuse options that would be ignored: one corpus at a time, and each option only where it applies."""
    if corpus not in (None, "benchmark"):
        raise LatinIntertextError(f"Unknown corpus {corpus!r}: --corpus takes only 'benchmark' (the default); search other texts with --tess FILE or --tesserae-la.")
    spelled_out = corpus and tess and with_benchmark  # --corpus benchmark --tess F --with-benchmark: both corpora, as asked
    given = [name for name, on in (("--corpus", corpus and not spelled_out), ("--tess", tess), ("--tesserae-la", tesserae_la)) if on]
    if len(given) > 1:
        raise LatinIntertextError(f"{' and '.join(given)} are exclusive: give one corpus (your files beside the benchmark: --tess FILE --with-benchmark).")
    if with_benchmark and not tess:
        raise LatinIntertextError("--with-benchmark adds the benchmark's corpus to your --tess files: give --tess FILE too, or drop --with-benchmark.")
    if (dataset or sources) and (tesserae_la or (tess and not with_benchmark)):
        raise LatinIntertextError("--dataset and --sources choose the benchmark: use them with --corpus benchmark (the default) or --tess FILE --with-benchmark.")


def make_searcher(corpus: Optional[str], tess: list[Path], tesserae_la: bool, with_benchmark: bool, retriever: Optional[str], dataset: Optional[Path], sources: Optional[Path]):
    from latin_intertext.serve.index import SPARSE_RETRIEVER
    from latin_intertext.serve.searcher import Searcher

    check_corpus_options(corpus, tess, tesserae_la, with_benchmark, dataset, sources)
    if tesserae_la:
        if retriever and retriever != SPARSE_RETRIEVER:
            raise LatinIntertextError(f"Tesserae-la (481k lines) is searched with its cached lemma index ({SPARSE_RETRIEVER}); --retriever {retriever} is for --corpus benchmark or --tess.")
        return Searcher.from_tesserae_la()
    if tess:
        bench = _benchmark(dataset, sources) if with_benchmark else None
        return Searcher.from_tess(tess, with_benchmark=bench, retriever=retriever)
    return Searcher.from_benchmark(_benchmark(dataset, sources), retriever)


LEFT_OUT_OF_INDEX = {"malformed": "malformed line(s)", "without_text": "citation(s) without text", "blank": "blank line(s)"}


def _left_out_of_index(counts: dict[str, int]) -> str:
    """The lines an index of Tesserae texts left out, counted by why, or ""."""
    return ", ".join(f"{counts[k]:,} {what}" for k, what in LEFT_OUT_OF_INDEX.items() if counts.get(k))


def print_listed(console: Console, note: str, lines: list[str]) -> None:
    """A count and every item under it, one per line, unwrapped (nothing left out is left unsaid)."""
    if lines:
        console.print("\n  ".join(map(escape, [note, *lines])), soft_wrap=True)


def print_report(console: Console, report, what: str) -> None:
    """Every line of the user's files left out of the search, and every duplicate citation renamed; blank lines, which
    part the poems of most Tesserae files (218 in Catullus and the Odes), only counted: ``--json`` lists them."""
    left_out = [*report.malformed, *report.without_text]
    print_listed(console, f"skipped {len(left_out)} line(s) of {what}:", left_out)
    if report.blank:
        console.print(escape(f"skipped {len(report.blank)} blank line(s) of {what} (--json lists each in its report)"), soft_wrap=True)
    print_listed(console, f"kept {len(report.duplicates)} duplicate citation(s) of {what} under ~N ids:", report.duplicates)
    print_listed(console, f"ignored {len(report.ignored)} file(s) in the folder(s) given, each with why:", report.ignored)


_LINE_BREAK = re.compile(r"\s*[\r\n]+\s*")


def _rich(segments, plain: bool = False) -> str:
    """A line with its matched words styled by kind; ``plain`` (no terminal, so no colours) marks them «thus». A
    passage typed over several lines is shown on one, its verses parted by " / " as editions quote them."""
    out = []
    for text, match in segments:
        text = _LINE_BREAK.sub(" / ", text)
        if match is None:
            out.append(escape(text))
        elif plain:
            out.append(f"«{escape(text)}»")
        else:
            style = "dim " + STYLES[match.kind] if match.weak else STYLES[match.kind] + " underline"
            out.append(f"[{style}]{escape(text)}[/]")
    return "".join(out)


def _describe(m: MatchedWord) -> str:
    """One matched word: its lemma, kind and each side's forms with their places, counted from 1 as a reader counts."""
    q = ",".join(f"{w.form}@{w.position + 1}" for w in m.query)
    ln = ",".join(f"{w.form}@{w.position + 1}" for w in m.line)
    return f"[{STYLES[m.kind]}]{escape(latin.display_lemma(m.lemma))}[/] ({m.kind}{', weak' if m.weak else ''}): {escape(q)} ~ {escape(ln)}"


@app.command("search")
def search_command(
    text: str = typer.Argument(..., help="The Latin passage to find parallels for (at most 5,000 characters)."),
    corpus: CorpusOpt = None,
    tess: TessOpt = [],
    tesserae_la: TesseraeLaOpt = False,
    with_benchmark: WithBenchmarkOpt = False,
    k: int = typer.Option(10, "--k", "-k", help="How many parallels to show (1 to 1,000)."),
    author: list[str] = typer.Option([], "--author", help="Only these authors (key or name, repeatable), e.g. --author vergil."),
    retriever: SearchRetrieverOpt = None,
    as_json: Annotated[bool, flag("--json", help="Print machine-readable JSON.")] = False,
    csv_out: Optional[Path] = typer.Option(None, "--csv", help="Also write the parallels to this CSV file, one row per parallel (for a spreadsheet)."),
    dataset: DatasetOpt = None,
    sources: SourcesOpt = None,
) -> None:
    """Find lines that share words with a passage, best first, and show which words match on both sides."""
    from latin_intertext.cli import write_and_say
    from latin_intertext.outputs import check_command_outputs
    from latin_intertext.serve.export import hits_csv
    from latin_intertext.serve.searcher import validate_query

    if blank := [a for a in author if not a.strip(" ,")]:
        raise LatinIntertextError(f"--author {blank[0]!r} names no author; give one (e.g. --author vergil), or leave --author out to search every author.")
    text = latin.composed(text)  # accents typed as combining marks, joined to their letters as the search reads them
    validate_query(text, k)  # fail fast, before any index is built
    check_command_outputs(csv_out, option="--csv", inputs=[*tess, dataset, sources])
    searcher = make_searcher(corpus, tess, tesserae_la, with_benchmark, retriever, dataset, sources)
    hits = searcher.search(text, k=k, authors=author or None)
    write_and_say((csv_out, lambda tmp: tmp.write_text(hits_csv(text, hits), encoding="utf-8")))
    notes = make_console(stderr=True, highlight=False)
    for note in filter(None, [searcher.info.fallback, searcher.weak_passage_note(text)]):
        notes.print(f"note: {escape(note)}", soft_wrap=True)
    if tess:
        print_report(notes, searcher.corpus.report, ", ".join(map(str, tess)))
    if tesserae_la and (left_out := _left_out_of_index(searcher.info.index.counts)):
        from latin_intertext.serve.index import index_dir

        notes.print(f"note: the index of Tesserae-la leaves out {left_out}, each listed in {index_dir() / 'report.json'}", soft_wrap=True, highlight=False)
    if as_json:
        typer.echo(json.dumps(searcher.payload(text, hits, report=bool(tess), authors=author), ensure_ascii=False, indent=1))
        return
    out = make_console(highlight=False)
    out.print(f"[bold]{len(hits)}[/] parallel(s) in [bold]{escape(searcher.corpus.name)}[/] ({describe_lines(searcher.corpus.report.counts())}) by [bold]{searcher.retriever_name}[/]")
    plain = not out.is_terminal or out.no_color
    if plain:
        out.print("matched words are marked «thus»; each is listed under its line with its kind (form, lemma, candidate) and its place (@1: the first word)\n")
    else:
        out.print("[dim]matches: [/][bold green]same form[/] [bold yellow]same lemma[/] [bold cyan]possible lemma[/] [dim](dim: function word)[/]\n")
    for hit in hits:
        out.print(f"[bold]{hit.rank:>2}. {escape(str(hit.citation))}[/]  [dim]{hit.id}  score {hit.score:.3f}[/]")
        out.print("    " + _rich(line_segments(hit.text, hit.matches), plain))
        if len(text) <= QUERY_SHOWN_CHARS:
            out.print("    [dim]query:[/] " + _rich(query_segments(text, hit.matches), plain))
        for m in hit.matches:
            out.print("      " + _describe(m))
        if via := hit.via_neighbour:
            out.print(f"      [dim]shares no word with the passage; the {via.side} line, {escape(str(via.citation))}, does:[/]")
            out.print("      " + _rich(line_segments(via.text, via.matches), plain))
            for m in via.matches:
                out.print("        " + _describe(m))
        if terms := score_terms(hit.score_detail):
            out.print(f"      [dim]{escape(terms)}[/]")
    if not hits:
        out.print(searcher.no_hits_note(text, author))


@app.command("index-tesserae")
def index_tesserae_command(
    sources: SourcesOpt = None,
) -> None:
    """Build the search index of all 613 Tesserae-la texts (about 8 minutes on two cores) and cache it under the indexes folder."""
    from latin_intertext.serve.searcher import build_tesserae_index
    from latin_intertext.sources.tesserae_la import not_in_snapshot_notes

    console = make_console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console) as bar:
        tasks: dict[str, int] = {}

        def progress(stage: str, advance: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task({"read": "reading texts", "index": "indexing lines"}[stage], total=total)
            bar.advance(tasks[stage], advance)

        built = build_tesserae_index(sources=sources, progress=progress)
    counts = built.meta.counts
    print_listed(console, f"ignored {len(built.ignored)} file(s) of the mirror, each with why:", built.ignored)
    print_listed(console, "not in the collection, so not indexed:", not_in_snapshot_notes())
    console.print(
        f"Indexed {describe_lines(counts)} of {counts['files']} files in {built.meta.build_seconds} s into {built.folder}; "
        f"{built.meta.names:,} forms the texts write with a capital inside their sentences are read as names wherever they stand.\n"
        f"Left out: {counts['ignored']} ignored file(s), {counts['malformed']:,} malformed line(s), {counts['blank']:,} blank, {counts['without_text']} citation(s) without text; "
        f"{counts['duplicates']:,} duplicate citation(s) kept under ~N ids; {counts['run_together']} line(s) holding two or more citations (a line break lost, or a citation left in the verse) read as the lines they hold. "
        f"Every one is listed in {built.folder}/report.json."
    )


@app.command("serve")
def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="Port to listen on."),
    corpus: CorpusOpt = None,
    tess: TessOpt = [],
    tesserae_la: TesseraeLaOpt = False,
    with_benchmark: WithBenchmarkOpt = False,
    dataset: DatasetOpt = None,
    sources: SourcesOpt = None,
    retriever: SearchRetrieverOpt = None,
) -> None:
    """Serve the search page, the benchmark browser and the JSON API (docs at /docs), over the benchmark's epics, your
    .tess files or all of Tesserae-la, as `search` searches them."""
    import uvicorn

    from latin_intertext.serve.app import create_app

    check_can_listen(host, port)  # before the corpus is loaded, and before "Serving" is printed
    searcher = make_searcher(corpus, tess, tesserae_la, with_benchmark, retriever, dataset, sources)
    make_console(stderr=True).print(f"Serving {describe_lines(searcher.corpus.report.counts())} with {searcher.retriever_name} at http://{host}:{port}/ (API docs: /docs)")
    uvicorn.run(create_app(searcher), host=host, port=port, log_level="info")


def check_can_listen(host: str, port: int) -> None:
    """Bind ``host:port`` once, as uvicorn will, and say what to change when that fails."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise LatinIntertextError(f"--host {host}: not a host name or address ({exc.strerror}); pass e.g. --host 127.0.0.1.") from None
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            sock.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise LatinIntertextError(f"port {port} is in use; pass --port N (e.g. --port {port + 1 if port < 65535 else 8000}).") from None
            raise LatinIntertextError(f"Cannot listen on {host}:{port} ({exc.strerror}); pass another --host (e.g. 127.0.0.1) or --port N (above 1023).") from None
