"""The web app: a search page, a benchmark browser and a JSON API (OpenAPI at /docs and /openapi.json).

``create_app(searcher_or_dataset)`` takes a :class:`Searcher`, or a published dataset folder
(then the benchmark's corpus is searched with the default retriever). The benchmark's gold
parallels are shown in the browser beside the system's hits; they never reach the retriever,
which is given the query's text only.
"""

from __future__ import annotations

import re
import tempfile
from collections import OrderedDict
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Sequence

from fastapi import FastAPI, File, Form, Query, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from latin_intertext.errors import InputError, LatinIntertextError
from latin_intertext.serve.explain import line_segments, query_segments
from latin_intertext.serve.index import SPARSE_RETRIEVER
from latin_intertext.serve.searcher import MAX_K, MAX_QUERY_CHARS, Hit, NotFoundError, QueryError, Searcher

HERE = Path(__file__).parent
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_UPLOAD_FILES = 10
METRICS = ("ndcg_at_10", "recall_at_10", "recall_at_100")  # MTEB's names, as everywhere in the project
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


class SearchRequest(BaseModel):
    text: str = Field(..., description=f"The Latin passage (at most {MAX_QUERY_CHARS:,} characters).", examples=["Aeneadum genetrix, hominum divomque voluptas"])
    k: int = Field(10, ge=1, le=MAX_K, description="How many parallels to return.")
    authors: list[str] | None = Field(None, description="Only lines by these authors (keys or names, e.g. 'vergil'); all if empty.")


class InvalidRequest(InputError):
    """Parameters FastAPI could not validate (``k=abc``, a missing ``q``), in the app's own error format."""

    status_code = 422


def _status(exc: LatinIntertextError) -> int:
    return getattr(exc, "status_code", 400)


def _error_body(exc: LatinIntertextError) -> dict:
    body = {"error": type(exc).__name__, "detail": exc.summary if isinstance(exc, InputError) else str(exc)}
    if isinstance(exc, InputError):
        body["problems"] = exc.problems[:200]
        body["hint"] = exc.hint
    return body


def create_app(searcher_or_dataset: Searcher | Path | str, *, retriever: str | None = None) -> FastAPI:
    searcher = searcher_or_dataset if isinstance(searcher_or_dataset, Searcher) else Searcher.from_dataset(searcher_or_dataset, retriever)
    bench = searcher.benchmark
    queries = {q.id: q for q in bench.queries} if bench else {}
    run_cache: OrderedDict[str, dict[str, float]] = OrderedDict()

    app = FastAPI(
        title="latin-intertext search",
        version="0.1.0",
        description=(
            "Find verbal parallels to a Latin passage in Vergil, Lucan, Ovid and Statius (the 39,675 lines of "
            "LatinEpicIntertextualityRetrieval) or in your own .tess texts, with the shared words of every hit "
            f"explained; browse the benchmark's 482 Valerius Flaccus queries. Passages are limited to {MAX_QUERY_CHARS:,} characters. "
            "Errors are JSON objects {error, detail[, problems, hint]} with a 4xx status."
        ),
    )
    app.state.searcher = searcher
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals.update(max_chars=MAX_QUERY_CHARS, max_k=MAX_K, searcher=searcher, has_benchmark=bench is not None)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.exception_handler(LatinIntertextError)
    async def _on_error(request: Request, exc: LatinIntertextError):
        if request.url.path.startswith("/api/"):
            return JSONResponse(_error_body(exc), status_code=_status(exc))
        return templates.TemplateResponse(request, "error.html", {"error": _error_body(exc)}, status_code=_status(exc))

    @app.exception_handler(RequestValidationError)
    async def _on_invalid(request: Request, exc: RequestValidationError):
        problems = [f"{'.'.join(str(part) for part in e['loc'] if part not in ('query', 'body', 'path', 'form'))}: {e['msg']}" for e in exc.errors()]
        error = InvalidRequest("Invalid request: " + "; ".join(problems), problems, hint="Each endpoint's parameters are listed at /docs.")
        if request.url.path == "/":  # the search page keeps its form and the passage typed into it
            params = request.query_params
            return page(request, "search.html", error.status_code, q=params.get("q", ""), authors=params.getlist("author"), k=10, results=None, error=_error_body(error))
        return await _on_error(request, error)

    def page(request: Request, name: str, status_code: int = 200, **context) -> HTMLResponse:
        return templates.TemplateResponse(request, name, context, status_code=status_code)

    def view(hits: list[Hit], text: str, gold: set[str] = frozenset()) -> list[dict]:
        """What the templates show of each hit; ``link``: whether /line/ shows its context. An uploaded file's lines
        are not kept on the server, so they get none, even where a file named like an epic gives them the epic's ids."""
        return [
            {"hit": h, "line": line_segments(h.text, h.matches), "query": query_segments(text, h.matches), "gold": h.id in gold, "link": _served(h)}
            for h in hits
        ]

    def _served(hit: Hit) -> bool:
        return hit.id in searcher.corpus and searcher.corpus.lines[searcher.corpus.index_of(hit.id)].text == hit.text

    def system_run(qid: str) -> dict[str, float]:
        """The retriever's top 100 for a benchmark query, from its text alone."""
        if qid not in run_cache:
            run_cache[qid] = searcher.scores(queries[qid].text, 100, None)
            while len(run_cache) > 512:
                run_cache.popitem(last=False)
        return run_cache[qid]

    def query_detail(qid: str) -> dict:
        from latin_intertext.evaluate.metrics import evaluate_run

        if not bench:
            raise QueryError("This server has no benchmark loaded: start it with --dataset DIR.")
        if qid not in queries:
            raise NotFoundError(f"No benchmark query {qid!r}. Query ids read vf-{{book}}-{{first line}}-{{last line}}, e.g. vf-1-1-1; see /api/queries.")
        q = queries[qid]
        run = system_run(qid)
        gold = bench.qrels.get(qid, {})
        scores = evaluate_run({qid: run}, {qid: gold}).means
        ranks = {doc_id: r for r, doc_id in enumerate(run, start=1)}
        gold_lines = []
        for doc_id in gold:
            try:
                i = searcher.corpus.index_of(doc_id)
            except KeyError:
                continue
            gold_lines.append({"citation": searcher.citation(i), "text": searcher.corpus.lines[i].text, "rank": ranks.get(doc_id)})
        gold_lines.sort(key=lambda g: (g["rank"] is None, g["rank"] or 0, g["citation"].id))
        return {"query": q, "metrics": {m: round(float(scores[m]), 4) for m in METRICS}, "gold": gold_lines, "run": run}

    # --- HTML pages --------------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def search_page(request: Request, q: str = "", author: Annotated[list[str], Query()] = [], k: Annotated[int, Query(ge=1, le=MAX_K)] = 10):
        if "q" not in request.query_params:  # the landing page; a submitted empty box is an error below
            return page(request, "search.html", q="", authors=author, k=k, results=None)
        try:
            hits = searcher.search(q, k=k, authors=author or None)
        except LatinIntertextError as exc:
            return page(request, "search.html", _status(exc), q=q, authors=author, k=k, results=None, error=_error_body(exc))
        return page(request, "search.html", q=q, authors=author, k=k, results=view(hits, q))

    @app.post("/upload", response_class=HTMLResponse, include_in_schema=False)
    async def upload_page(
        request: Request, files: list[UploadFile] = File(...), q: str = Form(...), k: int = Form(10), author: str = Form(""), with_benchmark: bool = Form(False)
    ):
        authors = _author_list(author)
        try:
            user = await _searcher_for_upload(files, with_benchmark)
            hits = user.search(q, k=k, authors=authors or None)
        except LatinIntertextError as exc:
            return page(request, "search.html", _status(exc), q=q, authors=[], k=k, results=None, error=_error_body(exc), upload_authors=author)
        return page(request, "search.html", q=q, authors=[], k=k, results=view(hits, q), uploaded=user, upload_authors=author)

    @app.get("/line/{doc_id}", response_class=HTMLResponse, include_in_schema=False)
    def context_page(request: Request, doc_id: str, q: str = ""):
        lines = searcher.context(doc_id, 10, 10)
        from latin_intertext import latin
        from latin_intertext.serve.explain import match_words

        q_tokens = latin.tokenize(q[:MAX_QUERY_CHARS]) if q else []
        rows = [{"line": c, "segments": line_segments(c.text, match_words(q_tokens, latin.tokenize(c.text), candidates=False)) if q_tokens else [(c.text, None)]} for c in lines]
        return page(request, "context.html", doc_id=doc_id, rows=rows, q=q)

    @app.get("/benchmark", response_class=HTMLResponse, include_in_schema=False)
    def queries_page(request: Request):
        if not bench:
            raise QueryError("This server has no benchmark loaded: start it with --dataset DIR.")
        return page(request, "queries.html", queries=bench.queries, gold_lines={q.id: len(bench.qrels.get(q.id, {})) for q in bench.queries})

    @app.get("/benchmark/{qid}", response_class=HTMLResponse, include_in_schema=False)
    def query_page(request: Request, qid: str):
        detail = query_detail(qid)
        hits = searcher.search(detail["query"].text, k=10)
        return page(request, "query.html", results=view(hits, detail["query"].text, {g["citation"].id for g in detail["gold"]}), **detail)

    # --- JSON API ----------------------------------------------------------------------------------------
    @app.get("/api/search", tags=["search"], summary="Parallels to a passage (GET)")
    def api_search_get(
        q: Annotated[str, Query(description=f"The Latin passage (at most {MAX_QUERY_CHARS:,} characters).")],
        k: Annotated[int, Query(ge=1, le=MAX_K)] = 10,
        author: Annotated[list[str], Query(description="Only these authors (repeatable).")] = [],
    ) -> dict:
        return searcher.payload(q, searcher.search(q, k=k, authors=author or None))

    @app.post("/api/search", tags=["search"], summary="Parallels to a passage (POST JSON)")
    def api_search_post(body: SearchRequest) -> dict:
        return searcher.payload(body.text, searcher.search(body.text, k=body.k, authors=body.authors))

    @app.get("/api/authors", tags=["search"], summary="Authors of the corpus, for the author filter")
    def api_authors() -> list[dict]:
        return [{"key": key, "name": name} for key, name in searcher.authors()]

    @app.get("/api/lines/{doc_id}", tags=["search"], summary="A line and its neighbours")
    def api_line(doc_id: str, before: Annotated[int, Query(ge=0, le=50)] = 5, after: Annotated[int, Query(ge=0, le=50)] = 5) -> list[dict]:
        return [asdict(c) for c in searcher.context(doc_id, before, after)]

    @app.get("/api/queries", tags=["benchmark"], summary="The benchmark's queries")
    def api_queries() -> list[dict]:
        if not bench:
            raise QueryError("This server has no benchmark loaded.")
        return [{"id": q.id, "text": q.text, "vf_book": q.vf_book, "line_start": q.line_start, "line_end": q.line_end, "n_gold_lines": len(bench.qrels.get(q.id, {}))} for q in bench.queries]

    @app.get("/api/queries/{qid}", tags=["benchmark"], summary="One query: its gold lines, the system's top 10 and per-query metrics")
    def api_query(qid: str) -> dict:
        detail = query_detail(qid)
        q = detail["query"]
        hits = searcher.search(q.text, k=10)
        gold_ids = {g["citation"].id for g in detail["gold"]}
        return {
            "query": asdict(q),
            "retriever": searcher.retriever_name,
            "metrics": detail["metrics"],
            "gold": [{"citation": asdict(g["citation"]), "text": g["text"], "system_rank": g["rank"]} for g in detail["gold"]],
            "hits": [{**h.to_dict(), "gold": h.id in gold_ids} for h in hits],
        }

    @app.post("/api/upload", tags=["search"], summary="Search your own .tess file(s)")
    async def api_upload(
        files: Annotated[list[UploadFile], File(description=f"One to {MAX_UPLOAD_FILES} .tess files (UTF-8, at most {MAX_UPLOAD_BYTES // 2**20} MiB each).")],
        q: Annotated[str, Form(description="The Latin passage.")],
        k: Annotated[int, Form(ge=1, le=MAX_K)] = 10,
        author: Annotated[str, Form(description="Only these authors: keys or names, comma-separated (as the file names give them, e.g. 'lucretius'); all if empty.")] = "",
        with_benchmark: Annotated[bool, Form(description="Search the benchmark's corpus too.")] = False,
    ) -> dict:
        user = await _searcher_for_upload(files, with_benchmark)
        return user.payload(q, user.search(q, k=k, authors=_author_list(author) or None), report=True)

    async def _searcher_for_upload(files: Sequence[UploadFile], with_benchmark: bool) -> Searcher:
        files = [f for f in files if f.filename]
        if not files:
            raise QueryError("No file uploaded: choose a .tess file.")
        if len(files) > MAX_UPLOAD_FILES:
            raise QueryError(f"{len(files)} files uploaded; the limit is {MAX_UPLOAD_FILES}.")
        if with_benchmark and not bench:
            raise QueryError("This server has no benchmark corpus to search beside your files.")
        with tempfile.TemporaryDirectory(prefix="latin-intertext-upload-") as tmp:
            paths, names = [], []
            for n, f in enumerate(files):
                name = Path(f.filename).name
                if not name.endswith(".tess"):
                    raise QueryError(f"{name}: not a .tess file. Upload Tesserae texts: lines like '<lucr. 1.1>\tAeneadum genetrix, ...'.")
                data = await f.read(MAX_UPLOAD_BYTES + 1)
                if len(data) > MAX_UPLOAD_BYTES:
                    raise UploadTooLarge(f"{name}: larger than {MAX_UPLOAD_BYTES // 2**20} MiB.")
                path = Path(tmp) / f"{n}-{_SAFE_NAME.sub('_', name)}"
                path.write_bytes(data)
                paths.append(path)
                names.append(name)
            return Searcher.from_tess(paths, with_benchmark=bench if with_benchmark else None, retriever=searcher.retriever_name if searcher.retriever_name != SPARSE_RETRIEVER else None, displays=names)

    return app


def _author_list(text: str) -> list[str]:
    """A form's comma-separated authors (a multipart form has no repeated field a browser fills from a text box)."""
    return [a.strip() for a in text.split(",") if a.strip()]


class UploadTooLarge(QueryError):
    status_code = 413
