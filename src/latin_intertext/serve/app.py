"""The web app: a search page, a benchmark browser and a JSON API (OpenAPI at /docs and /openapi.json).

``create_app(searcher_or_dataset)`` takes a :class:`Searcher`, or a published dataset folder
(then the benchmark's corpus is searched with the default retriever). The benchmark's gold
parallels are shown in the browser beside the system's hits; they never reach the retriever,
which is given the query's text only.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
import tempfile
from collections import Counter, OrderedDict
from dataclasses import asdict, dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Annotated, Sequence, get_origin
from urllib.parse import urlencode

from fastapi import Depends, FastAPI, File, Form, Query, Request, UploadFile
from fastapi import params as fastapi_params
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import AfterValidator, AliasChoices, BaseModel, ConfigDict, Field, Strict
from pydantic_core import PydanticCustomError

from latin_intertext import __version__, latin
from latin_intertext.benchmark import Query as BenchmarkQuery
from latin_intertext.errors import InputError, LatinIntertextError
from latin_intertext.serve import schema
from latin_intertext.serve.corpora import describe_lines
from latin_intertext.serve.explain import line_segments, query_segments, score_terms
from latin_intertext.serve.export import CSV_COLUMNS, hits_csv
from latin_intertext.serve.index import SPARSE_RETRIEVER
from latin_intertext.serve.searcher import MAX_K, MAX_QUERY_CHARS, Citation, Hit, NotFoundError, QueryError, Searcher, author_list, engine_spec
from latin_intertext.sources.tess import is_tess_name

HERE = Path(__file__).parent
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_UPLOAD_FILES = 10
AUTHOR_HELP = "Only lines by these authors: keys or names (e.g. 'vergil'), repeated or comma-separated; all if empty (a value that names none, such as ',', is refused)."
HELD_UPLOADS = 3  # uploads kept indexed in memory, the most recently used, so that the same files are not indexed again
QUERY_METRICS = ("ndcg_at_10", "recall_at_10", "recall_at_100")  # a benchmark query's figures, by MTEB's names as everywhere in the project
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
HitCount = Annotated[int, Field(ge=1, le=MAX_K, description="How many parallels to return.")]  # GET's k and POST's
JSON_EXAMPLE = '{"text": "arma virumque cano", "k": 10, "authors": ["vergil"]}'


def _names_an_author(values: Sequence[str] | str | None) -> Sequence[str] | str | None:
    """An empty value (a form's empty box) asks for every author, as documented; a value that names none once its
    commas are split (``authors=,``) is refused rather than read as every author: its sender meant to name some."""
    for value in [values] if isinstance(values, str) else values or ():
        if value.strip() and not author_list(value):
            raise PydanticCustomError("no_author", "{value} names no author: give keys or names (e.g. 'vergil'), or leave it empty for every author", {"value": repr(value)})
    return values


AuthorFilter = Annotated[list[str], AfterValidator(_names_an_author)]  # every endpoint's author filter (repeatable)


class SearchParams(BaseModel):
    """The query string of every GET search, JSON or CSV, of the corpus or of an upload. A name it does not know is
    refused (422), not ignored: ``authors=lucan`` or ``kk=5`` silently dropped would answer another question. The one
    name ignored is ``_``, the cache-buster jQuery and other clients append (``_=1733240000``): it asks nothing."""

    model_config = ConfigDict(extra="forbid")
    q: str = Field(description=f"The Latin passage (at most {MAX_QUERY_CHARS:,} characters).")
    k: HitCount = 10
    author: AuthorFilter = Field([], description=AUTHOR_HELP)
    authors_: AuthorFilter = Field([], alias="authors", description="The same as `author`, as in POST.")
    cache_buster: str | None = Field(None, alias="_", description="Ignored: a client's cache-buster (`_=1733240000`).")

    def authors(self) -> list[str] | None:
        return author_list(self.author + self.authors_) or None


class SearchRequest(BaseModel):
    """The POST body; it also takes GET's names (``q``, ``author``), so a client can send either. Unknown fields are
    refused (422)."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(..., validation_alias=AliasChoices("text", "q"), description=f"The Latin passage (at most {MAX_QUERY_CHARS:,} characters); `q` also works, as in GET.", examples=["Aeneadum genetrix, hominum divomque voluptas"])
    k: Annotated[HitCount, Strict()] = 10  # JSON's true is no count (lax pydantic reads it as 1); a query string's k is text
    authors: Annotated[list[str] | str | None, AfterValidator(_names_an_author)] = Field(None, validation_alias=AliasChoices("authors", "author"), description=f"{AUTHOR_HELP} `author` also works, as in GET.")


def _problem(error: dict, names: dict[str, bool] | None = None) -> str:
    """One validation error as ``field: what is wrong``; a body that is not JSON at all, with where it breaks; a body
    that is no JSON object (empty, an array, a form), with the fields it takes. ``names``: those the endpoint reads where
    the error is (its query string, or its body), to suggest the one a name it does not read may have meant."""
    if error["type"] == "json_invalid":
        return f"the body is not valid JSON (at character {error['loc'][-1]}: {error.get('ctx', {}).get('error', error['msg'])}); send e.g. {{\"text\": \"arma virumque cano\"}}"
    field = ".".join(str(part) for part in error["loc"] if part not in ("query", "body", "path", "form"))
    if not field and error["loc"][:1] == ("body",):
        return f"body: must be a JSON object with the fields {', '.join(names or {}) or 'of /docs'}, e.g. {JSON_EXAMPLE}; {_what_body(error)}"
    if error["type"] == "extra_forbidden" and names is not None:
        return f"{field}: {error['msg']}{_did_you_mean(field, names, error['loc'][0])}"
    return f"{field}: {error['msg']}"


def _what_body(error: dict) -> str:
    """What a body that is no JSON object was instead."""
    body = error.get("input")
    if error["type"] == "missing" or body is None:
        return "it was empty (or null)"
    if isinstance(body, (bytes, bytearray)):  # FastAPI reads a body as JSON only when its Content-Type says so
        return "it was not sent as JSON: send it with the header Content-Type: application/json"
    kinds = {list: "a JSON array", str: "a JSON string", bool: "true or false", int: "a number", float: "a number"}
    return f"it was {kinds.get(type(body), type(body).__name__)}"


def _did_you_mean(name: str, names: dict[str, bool], where: str) -> str:
    """For a name an endpoint does not read, the close one it may have meant, and those it reads; for a name it reads,
    refused as a second name of a field given already (``{"text": ..., "q": ...}``), that it is one."""
    if name in names:
        return "; it is another name of a field given already: give the field once"
    known = [n for n in names if n != "_"]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return (f"; did you mean {close[0]!r}?" if close else "") + (f" (it takes {', '.join(known)})" if known else f" (it takes none in its {'query string' if where == 'query' else 'body'})")


def _names(route: object) -> dict[str, dict[str, bool]]:
    """The names an endpoint reads in its query string and in its body (a form's fields or a JSON object's keys), each
    with whether it may be given more than once (a list, as ``author``): read from its declared parameters, so that no
    list kept by hand can fall behind them."""
    found: dict[str, dict[str, bool]] = {"query": {}, "body": {}}
    if isinstance(route, APIRoute):
        for where, fields in (("query", route.dependant.query_params), ("body", route.dependant.body_params)):
            for f in fields:
                annotation = f.field_info.annotation
                is_model = isinstance(annotation, type) and issubclass(annotation, BaseModel)
                found[where].update(_model_names(annotation) if is_model else {f.alias: get_origin(annotation) is list})
    return found


def _model_names(model: type[BaseModel]) -> dict[str, bool]:
    """A model's names as a client sends them (its aliases, each of several choices), each with whether it is a list."""
    names = {}
    for name, field in model.model_fields.items():
        alias = field.validation_alias
        for choice in alias.choices if isinstance(alias, AliasChoices) else [field.alias or name]:
            names[str(choice)] = get_origin(field.annotation) is list
    return names


def _misnamed(items: Sequence[tuple[str, object]], names: dict[str, bool], where: str, unknown_too: bool) -> list[dict]:
    """The errors of names not read (if ``unknown_too``) and of single-valued names given more than once, where FastAPI
    ignores the one and lets the last value of the other silently win (``q=arma&q=cano`` searched "cano")."""
    errors = []
    for name, n in Counter(name for name, _ in items).items():
        if name not in names and unknown_too:
            errors.append({"type": "extra_forbidden", "loc": (where, name), "msg": "Extra inputs are not permitted"})
        elif name in names and n > 1 and not names[name]:
            errors.append(_given_twice(where, name, n))
    return errors


def _given_twice(where: str, name: str, n: int) -> dict:
    return {"type": "repeated", "loc": (where, name), "msg": f"given {n} times, but it takes one value: give it once"}


def _repeated_keys(body: bytes) -> list[dict]:
    """The errors of a JSON key given twice (``{"text": "arma", "text": "cano"}``), which json.loads, and so FastAPI,
    reads as its last value unsaid."""
    errors: list[dict] = []

    def pairs(items: list[tuple[str, object]]) -> dict:
        errors.extend(_given_twice("body", key, n) for key, n in Counter(key for key, _ in items).items() if n > 1)
        return dict(items)

    try:
        json.loads(body, object_pairs_hook=pairs)
    except (ValueError, RecursionError):  # no JSON: FastAPI's own reading of the body says what is wrong with it
        return []
    return errors


async def _given_as_declared(request: Request) -> None:
    """Refuses (422) what FastAPI would pass over unsaid: a single-valued name given twice, in a query string, a form
    or a JSON object; a form field the endpoint does not read (``authors``, the JSON API's name, for the form's
    ``author``); and a query name an /api/ endpoint does not read (``_``, a client's cache-buster, asks nothing and is
    let through). The pages' query strings may carry other names (a link tracker's): they read only their own."""
    route = request.scope.get("route")
    names = _names(route)
    errors = _misnamed(request.query_params.multi_items(), {"_": False, **names["query"]}, "query", unknown_too=request.url.path.startswith("/api/"))
    if isinstance(route, APIRoute) and any(isinstance(f.field_info, fastapi_params.Form) for f in route.dependant.body_params):  # File is a Form
        errors += _misnamed((await request.form()).multi_items(), names["body"], "body", unknown_too=True)
    elif names["body"]:
        errors += _repeated_keys(await request.body())
    if errors:
        raise RequestValidationError(errors)


def in_sample_note(retriever_name: str) -> str | None:
    """For a retriever whose model learned from the benchmark's gold (the registry's ``learned``), why its per-query
    figures here flatter it: the shipped model was trained on every query, this one included."""
    return (
        f"The search model ({retriever_name}) was trained on all benchmark queries, this one included, so these per-query "
        "figures are optimistic. Benchmark figures come only from cross-validation (latin-intertext ranker-report)."
        if engine_spec(retriever_name).learned else None
    )


@dataclass(frozen=True)
class GoldLine:
    citation: Citation
    text: str
    rank: int | None  # the system's rank; None beyond its top 100


@dataclass(frozen=True)
class QueryDetail:
    """A benchmark query as its page shows it: its gold lines beside the system's ranks, and its metrics."""

    query: BenchmarkQuery
    metrics: dict[str, float]  # MTEB's names: ndcg_at_10, recall_at_10, recall_at_100
    gold: list[GoldLine]

    @property
    def gold_ids(self) -> set[str]:
        return {g.citation.id for g in self.gold}


class InvalidRequest(InputError):
    """Parameters FastAPI could not validate (``k=abc``, a missing ``q``), in the app's own error format."""

    status_code = 422


class UnreadableBody(InvalidRequest):
    """A body FastAPI could not decode at all (not UTF-8, or nested too deeply)."""

    status_code = 400


def _status(exc: LatinIntertextError) -> int:
    return getattr(exc, "status_code", 400)


def _error_body(exc: LatinIntertextError) -> dict:
    body = {"error": type(exc).__name__, "detail": exc.summary if isinstance(exc, InputError) else str(exc)}
    if isinstance(exc, InputError):
        body["problems"] = exc.problems[:200]
        body["hint"] = exc.hint
    return body


BROWSE_QUERIES = "; browse the benchmark's 482 Valerius Flaccus queries"


def create_app(searcher_or_dataset: Searcher | Path | str, *, retriever: str | None = None) -> FastAPI:
    searcher = searcher_or_dataset if isinstance(searcher_or_dataset, Searcher) else Searcher.from_dataset(searcher_or_dataset, retriever)
    bench = searcher.benchmark
    queries = {q.id: q for q in bench.queries} if bench else {}
    run_cache: OrderedDict[str, dict[str, float]] = OrderedDict()
    held: OrderedDict[str, Searcher] = OrderedDict()  # upload id -> its indexed files

    app = FastAPI(
        title="latin-intertext search",
        version=__version__,
        description=(
            f"Find verbal parallels to a Latin passage in the corpus served here ({searcher.corpus.name}: "
            f"{describe_lines(searcher.corpus.report.counts())}) or in your own .tess texts, with the shared words of every hit "
            f"explained{BROWSE_QUERIES if bench else ''}. Passages are limited to {MAX_QUERY_CHARS:,} characters. "
            "Errors are JSON objects {error, detail[, problems, hint]} with a 4xx status."
        ),
        dependencies=[Depends(_given_as_declared)],
    )
    app.state.searcher = searcher
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.filters["lemma"] = latin.display_lemma  # as a reader looks it up: vir, not the folded uir
    templates.env.globals.update(max_chars=MAX_QUERY_CHARS, max_k=MAX_K, searcher=searcher, has_benchmark=bench is not None, describe_lines=describe_lines, search_query=search_query)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.exception_handler(LatinIntertextError)
    async def _on_error(request: Request, exc: LatinIntertextError):
        if request.url.path.startswith("/api/"):
            return JSONResponse(_error_body(exc), status_code=_status(exc))
        return templates.TemplateResponse(request, "error.html", {"error": _error_body(exc)}, status_code=_status(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _on_http_error(request: Request, exc: StarletteHTTPException):
        if exc.status_code == 400 and exc.detail == "There was an error parsing the body":  # FastAPI's words for a body it cannot decode
            return await _on_error(request, UnreadableBody(f"Invalid request: {_unreadable(exc.__cause__)}"))
        api = request.url.path.startswith("/api/")
        if exc.status_code == 404 and exc.detail == "Not Found":  # Starlette's words for a path no route takes
            where = "The API's endpoints are listed at /docs." if api else "The search page is at /."
            return await _on_error(request, NotFoundError(f"No page or endpoint at {request.url.path}. {where}"))
        if api:  # any other refusal of Starlette's (405: a method the path does not take), in the API's error format
            detail = f"{exc.detail}: {request.method} {request.url.path}. The API's endpoints and their methods are listed at /docs."
            return JSONResponse({"error": HTTPStatus(exc.status_code).phrase.replace(" ", ""), "detail": detail}, status_code=exc.status_code, headers=exc.headers)
        return await http_exception_handler(request, exc)

    @app.exception_handler(RequestValidationError)
    async def _on_invalid(request: Request, exc: RequestValidationError):
        names = _names(request.scope.get("route"))
        problems = [_problem(e, names.get(e["loc"][0]) if e["loc"] else None) for e in exc.errors()]
        error = InvalidRequest("Invalid request: " + "; ".join(problems), problems, hint="Each endpoint's parameters are listed at /docs.")
        path = request.url.path
        if path == "/" or path == "/upload" or path.startswith("/upload/"):  # the search page keeps its form and the passage typed into it
            error = InvalidRequest(error.summary)  # said once, for a reader of the page rather than of the API
            params = request.query_params if request.method == "GET" else await _form_or_empty(request)
            upload_id = path.removeprefix("/upload/") if path.startswith("/upload/") else None
            upload_id = upload_id if upload_id in held else None
            return page(
                request, "search.html", error.status_code, q=params.get("q", ""), authors=author_list(params.getlist("author")) if path == "/" else [], k=10,
                results=None, error=_error_body(error), upload_id=upload_id, uploaded=held.get(upload_id) if upload_id else None,
                upload_authors=", ".join(params.getlist("author")) if path != "/" else "",
            )
        return await _on_error(request, error)

    def page(request: Request, name: str, status_code: int = 200, **context) -> HTMLResponse:
        return templates.TemplateResponse(request, name, context, status_code=status_code)

    def view(hits: list[Hit], text: str, gold: set[str] = frozenset()) -> list[dict]:
        """What the templates show of each hit; ``link``: whether /line/ shows its context. An uploaded file's lines
        are not kept on the server, so they get none, even where a file named like an epic gives them the epic's ids."""
        return [
            {"hit": h, "line": line_segments(h.text, h.matches), "query": query_segments(text, h.matches), "gold": h.id in gold, "link": _served(h), "terms": score_terms(h.score_detail),
             "via": h.via_neighbour and line_segments(h.via_neighbour.text, h.via_neighbour.matches)}
            for h in hits
        ]

    def _served(hit: Hit) -> bool:
        return hit.id in searcher.corpus and searcher.text_of(searcher.corpus.index_of(hit.id)) == hit.text

    def system_run(qid: str) -> dict[str, float]:
        """The retriever's top 100 for a benchmark query, from its text alone."""
        if qid not in run_cache:
            run_cache[qid] = searcher.scores(queries[qid].text, 100, None)
            while len(run_cache) > 512:
                run_cache.popitem(last=False)
        return run_cache[qid]

    def query_detail(qid: str) -> QueryDetail:
        from latin_intertext.evaluate.metrics import METRICS, evaluate_run

        if not bench:
            raise QueryError(schema.NO_BENCHMARK)
        if qid not in queries:
            raise NotFoundError(f"No benchmark query {qid!r}. Query ids read vf-{{book}}-{{first line}}-{{last line}}, e.g. vf-1-1-1; see /api/queries.")
        run = system_run(qid)
        gold = bench.qrels.get(qid, {})
        scores = evaluate_run({qid: run}, {qid: gold}, {m: METRICS[m] for m in QUERY_METRICS}).means
        ranks = {doc_id: r for r, doc_id in enumerate(run, start=1)}
        gold_lines = []
        for doc_id in gold:
            try:
                i = searcher.corpus.index_of(doc_id)
            except KeyError:
                continue
            gold_lines.append(GoldLine(searcher.citation(i), searcher.text_of(i), ranks.get(doc_id)))
        gold_lines.sort(key=lambda g: (g.rank is None, g.rank or 0, g.citation.id))
        return QueryDetail(queries[qid], {m: round(float(scores[m]), 4) for m in QUERY_METRICS}, gold_lines)

    # --- HTML pages --------------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def search_page(request: Request, q: str = "", author: Annotated[AuthorFilter, Query()] = [], k: Annotated[int, Query(ge=1, le=MAX_K)] = 10):
        if "q" not in request.query_params:  # the landing page; a submitted empty box is an error below
            return page(request, "search.html", q="", authors=author, k=k, results=None)
        q = latin.composed(q)  # as the search reads it, so that the highlighted offsets fit
        try:
            hits = searcher.search(q, k=_one_more(k), authors=author_list(author) or None)
        except LatinIntertextError as exc:
            return page(request, "search.html", _status(exc), q=q, authors=author, k=k, results=None, error=_error_body(exc))
        return page(
            request, "search.html", q=q, authors=author, k=k, results=view(hits[:k], q), more=_more_url("/", q, author, k, len(hits)),
            csv_url=_csv_url("/api/search.csv", q, author, k),
        )

    @app.post("/upload", response_class=HTMLResponse, include_in_schema=False)
    async def upload_page(
        request: Request,
        files: list[UploadFile] = File(...),
        q: str = Form(""),
        k: Annotated[int, Form(ge=1, le=MAX_K)] = 10,  # as the API's: k=0 showed "0 parallels", k=-3 said "not -2"
        author: Annotated[AuthorFilter, Form()] = [],
        with_benchmark: bool = Form(False),
    ):
        try:
            upload_id = await _hold_upload(files, with_benchmark)
        except LatinIntertextError as exc:
            return page(request, "search.html", _status(exc), q=q, authors=[], k=k, results=None, error=_error_body(exc), upload_authors=", ".join(author))
        return upload_results(request, upload_id, q, k, author)

    @app.get("/upload/{upload_id}", response_class=HTMLResponse, include_in_schema=False)
    def upload_again_page(request: Request, upload_id: str, q: str = "", k: Annotated[int, Query(ge=1, le=MAX_K)] = 10, author: Annotated[AuthorFilter, Query()] = []):
        return upload_results(request, upload_id, q, k, author)

    def upload_results(request: Request, upload_id: str, q: str, k: int, author: list[str]) -> HTMLResponse:
        """The search page with an upload's hits; an error (an upload no longer held, a bad passage) keeps the form filled."""
        q = latin.composed(q)
        context = {"q": q, "authors": [], "k": k, "upload_authors": ", ".join(author)}
        author = author or [""]  # the form's empty box, as its links send it again
        try:
            user = held_upload(upload_id)
            context.update(uploaded=user, upload_id=upload_id)
            hits = user.search(q, k=_one_more(k), authors=author_list(author) or None)
        except LatinIntertextError as exc:
            return page(request, "search.html", _status(exc), results=None, error=_error_body(exc), **context)
        return page(
            request, "search.html", results=view(hits[:k], q), more=_more_url(f"/upload/{upload_id}", q, author, k, len(hits)),
            csv_url=_csv_url(f"/api/upload/{upload_id}/search.csv", q, author, k), **context,
        )

    @app.get("/line/{doc_id}", response_class=HTMLResponse, include_in_schema=False)
    def context_page(request: Request, doc_id: str, q: str = "", author: Annotated[AuthorFilter, Query()] = [], k: Annotated[int, Query(ge=1, le=MAX_K)] = 10):
        lines = searcher.context(doc_id, 10, 10)
        from latin_intertext.serve.explain import match_words

        names = searcher.retriever.names
        q_tokens = latin.tokenize(latin.composed(q[:MAX_QUERY_CHARS]), names) if q else []
        rows = [{"line": c, "segments": line_segments(c.text, match_words(q_tokens, latin.tokenize(c.text, names), candidates=False)) if q_tokens else [(c.text, None)]} for c in lines]
        return page(request, "context.html", doc_id=doc_id, rows=rows, q=q, authors=author, k=k)

    @app.get("/benchmark", response_class=HTMLResponse, include_in_schema=False)
    def queries_page(request: Request):
        if not bench:
            raise QueryError(schema.NO_BENCHMARK)
        return page(request, "queries.html", queries=bench.queries, gold_lines={q.id: len(bench.qrels.get(q.id, {})) for q in bench.queries})

    @app.get("/benchmark/{qid}", response_class=HTMLResponse, include_in_schema=False)
    def query_page(request: Request, qid: str):
        detail = query_detail(qid)
        hits = searcher.search(detail.query.text, k=10)
        return page(
            request, "query.html", results=view(hits, detail.query.text, detail.gold_ids), query=detail.query, metrics=detail.metrics, gold=detail.gold,
            in_sample=in_sample_note(searcher.retriever_name),
        )

    # --- JSON API ----------------------------------------------------------------------------------------
    @app.get("/api/search", tags=["search"], summary="Parallels to a passage (GET)", response_model=None, responses=SEARCH_ANSWER)
    def api_search_get(params: Annotated[SearchParams, Query()]) -> dict:
        return answer(searcher, params.q, params.k, params.authors())

    @app.get("/api/search.csv", tags=["search"], summary="Parallels to a passage, as CSV (one row per parallel, for a spreadsheet)", response_class=Response, responses=CSV_ANSWER)
    def api_search_csv(params: Annotated[SearchParams, Query()]) -> Response:
        return csv_response(params.q, searcher.search(params.q, k=params.k, authors=params.authors()))

    @app.post("/api/search", tags=["search"], summary="Parallels to a passage (POST JSON)", response_model=None, responses=POSTED_SEARCH_ANSWER)
    def api_search_post(body: SearchRequest) -> dict:
        return answer(searcher, body.text, body.k, author_list(body.authors))

    @app.get("/api/authors", tags=["search"], summary="Authors of the corpus, for the author filter", response_model=None, responses=schema.described(list[schema.Author], "Every author of the corpus served.", 422))
    def apiauthor_list() -> list[dict]:
        return [{"key": key, "name": name} for key, name in searcher.authors()]

    @app.get("/api/lines/{doc_id}", tags=["search"], summary="A line and its neighbours", response_model=None, responses=schema.described(list[schema.ContextLine], "The line and its neighbours within its work, in order.", 404, 422))
    def api_line(doc_id: str, before: Annotated[int, Query(ge=0, le=50)] = 5, after: Annotated[int, Query(ge=0, le=50)] = 5) -> list[dict]:
        return [c.to_dict() for c in searcher.context(doc_id, before, after)]

    @app.get("/api/queries", tags=["benchmark"], summary="The benchmark's queries", response_model=None, responses=schema.described(list[schema.QuerySummary], "The 482 queries, in the benchmark's order.", 400, 422, bad_request=schema.NO_BENCHMARK))
    def api_queries() -> list[dict]:
        if not bench:
            raise QueryError(schema.NO_BENCHMARK)
        return [{"id": q.id, "text": q.text, "vf_book": q.vf_book, "line_start": q.line_start, "line_end": q.line_end, "n_gold_lines": len(bench.qrels.get(q.id, {}))} for q in bench.queries]

    @app.get("/api/queries/{qid}", tags=["benchmark"], summary="One query: its gold lines, the system's top 10 and per-query metrics", response_model=None, responses=schema.described(schema.QueryAnswer, "The query, its gold lines, the system's top 10 and its metrics.", 400, 404, 422, bad_request=schema.NO_BENCHMARK))
    def api_query(qid: str) -> dict:
        detail = query_detail(qid)
        hits = searcher.search(detail.query.text, k=10)
        return {
            "query": {**asdict(detail.query), "query_phrases": json.loads(detail.query.query_phrases)},  # a list here, not the dataset's JSON text
            "retriever": searcher.retriever_name,
            "metrics": detail.metrics,
            "metrics_note": in_sample_note(searcher.retriever_name),
            "gold": [{"citation": g.citation.to_dict(), "text": g.text, "system_rank": g.rank} for g in detail.gold],
            "hits": [{**h.to_dict(), "gold": h.id in detail.gold_ids} for h in hits],
        }

    @app.post("/api/upload", tags=["search"], summary="Search your own .tess file(s)", response_model=None, responses=UPLOAD_ANSWER)
    async def api_upload(
        files: Annotated[list[UploadFile], File(description=f"One to {MAX_UPLOAD_FILES} .tess files (UTF-8, at most {MAX_UPLOAD_BYTES // 2**20} MiB each).")],
        q: Annotated[str, Form(description="The Latin passage. Left out (or blank), the files are only indexed: the answer has their report and `upload_id`, no `hits`.")] = "",
        k: Annotated[int, Form(ge=1, le=MAX_K)] = 10,
        author: Annotated[AuthorFilter, Form(description=AUTHOR_HELP)] = [],
        with_benchmark: Annotated[bool, Form(description="Search the benchmark's corpus too.")] = False,
    ) -> dict:
        """The answer's `upload_id` searches the same files again without sending them (`GET /api/upload/{upload_id}/search`)."""
        upload_id = await _hold_upload(files, with_benchmark)
        if not q.strip():
            return {**held_upload(upload_id).corpus_payload(), "upload_id": upload_id}
        return upload_payload(upload_id, q, k, author_list(author))

    @app.get(
        "/api/upload/{upload_id}/search",
        tags=["search"],
        summary="Search files uploaded before, by their upload_id",
        response_model=None,
        responses=HELD_UPLOAD_ANSWER,
        description=f"The server keeps the last {HELD_UPLOADS} uploads indexed; an older `upload_id` answers 404: upload the files again.",
    )
    def api_upload_search(upload_id: str, params: Annotated[SearchParams, Query()]) -> dict:
        return upload_payload(upload_id, params.q, params.k, params.authors())

    @app.get("/api/upload/{upload_id}/search.csv", tags=["search"], summary="Search files uploaded before, as CSV", response_class=Response, responses=HELD_UPLOAD_CSV_ANSWER)
    def api_upload_search_csv(upload_id: str, params: Annotated[SearchParams, Query()]) -> Response:
        return csv_response(params.q, held_upload(upload_id).search(params.q, k=params.k, authors=params.authors()))

    def upload_payload(upload_id: str, q: str, k: int, authors: list[str] | None) -> dict:
        return {**answer(held_upload(upload_id), q, k, authors, report=True), "upload_id": upload_id}

    def held_upload(upload_id: str) -> Searcher:
        if upload_id not in held:
            raise NotFoundError(
                f"No upload {upload_id!r} is held: the server keeps the last {HELD_UPLOADS} uploads indexed (and none across restarts). "
                "Upload the file(s) again."
            )
        held.move_to_end(upload_id)
        return held[upload_id]

    async def _hold_upload(files: Sequence[UploadFile], with_benchmark: bool) -> str:
        """The id of the uploaded files, indexed and held (the same files, sent again, are not indexed again)."""
        files = [f for f in files if f.filename]
        if not files:
            raise QueryError("No file uploaded: choose a .tess file.")
        if len(files) > MAX_UPLOAD_FILES:
            raise QueryError(f"{len(files)} files uploaded; the limit is {MAX_UPLOAD_FILES}.")
        if with_benchmark and not bench:
            raise QueryError("This server has no benchmark corpus to search beside your files.")
        uploaded: list[tuple[str, bytes]] = []
        for f in files:
            name = Path(f.filename).name
            if not is_tess_name(name):
                raise QueryError(f"{name}: not a .tess file. Upload Tesserae texts: lines like '<lucr. 1.1>\tAeneadum genetrix, ...'.")
            data = await f.read(MAX_UPLOAD_BYTES + 1)
            if len(data) > MAX_UPLOAD_BYTES:
                raise UploadTooLarge(f"{name}: larger than {MAX_UPLOAD_BYTES // 2**20} MiB.")
            uploaded.append((name, data))
        upload_id = _upload_id(uploaded, with_benchmark)
        if upload_id not in held:
            held[upload_id] = _index_upload(uploaded, with_benchmark)
            while len(held) > HELD_UPLOADS:
                held.popitem(last=False)
        held.move_to_end(upload_id)
        return upload_id

    def _index_upload(uploaded: list[tuple[str, bytes]], with_benchmark: bool) -> Searcher:
        with tempfile.TemporaryDirectory(prefix="latin-intertext-upload-") as tmp:
            paths = []
            for n, (name, data) in enumerate(uploaded):
                path = Path(tmp) / f"{n}-{_SAFE_NAME.sub('_', name)}"
                path.write_bytes(data)
                paths.append(path)
            retriever = searcher.retriever_name if searcher.retriever_name != SPARSE_RETRIEVER else None
            return Searcher.from_tess(paths, with_benchmark=bench if with_benchmark else None, retriever=retriever, displays=[name for name, _ in uploaded])

    return app


def _upload_id(uploaded: list[tuple[str, bytes]], with_benchmark: bool) -> str:
    """A digest of the uploaded files (names and bytes, in order) and of whether the benchmark is searched beside them."""
    digest = hashlib.sha256(f"benchmark={with_benchmark}".encode())
    for name, data in uploaded:
        digest.update(f"|{name}|{len(data)}|".encode())
        digest.update(data)
    return digest.hexdigest()[:16]


def _one_more(k: int) -> int:
    """A page asks for one hit more than it shows, to know whether a link to more would find any."""
    return min(k + 1, MAX_K)


def answer(searcher: Searcher, text: str, k: int, authors: list[str] | None, report: bool = False) -> dict:
    """A search's JSON answer: its hits, and its note said of the same author filter."""
    authors = authors or None
    return searcher.payload(text, searcher.search(text, k=k, authors=authors), report=report, authors=authors)


SEARCHED = (400, 413, 422)  # what a search can answer besides its parallels; one of files uploaded before, 404 too
_PARALLELS = "The passage's parallels, best first, each with the words it shares on both sides."
_UPLOADED = "The files' report and upload_id, and the passage's parallels if one was sent."
_CSV = {"text/csv": {}}
_ROWS = f"A header row ({', '.join(CSV_COLUMNS)}), then one row per parallel, best first."
SEARCH_ANSWER = schema.described(schema.SearchAnswer, _PARALLELS, *SEARCHED)
POSTED_SEARCH_ANSWER = schema.described(schema.SearchAnswer, _PARALLELS, *SEARCHED, bad_request=f"{schema.ERRORS[400][:-1]}; or a body that is not UTF-8.")
CSV_ANSWER = schema.described(None, _ROWS, *SEARCHED, content=_CSV)
UPLOAD_ANSWER = schema.described(schema.UploadAnswer, _UPLOADED, *SEARCHED, bad_request=(
    f"Files that cannot be searched (none, more than {MAX_UPLOAD_FILES}, a malformed .tess line, not UTF-8), the benchmark asked for "
    f"beside them where none is loaded, or a passage that cannot be searched (no Latin word) or an author filter that names no author here."))
HELD_UPLOAD_ANSWER = schema.described(schema.UploadAnswer, _UPLOADED, *SEARCHED, 404)
HELD_UPLOAD_CSV_ANSWER = schema.described(None, _ROWS, *SEARCHED, 404, content=_CSV)


def csv_response(q: str, hits: list[Hit]) -> Response:
    """The hits as a CSV file to save (serve.export), named after the passage's first words."""
    stem = "-".join(re.findall(r"[A-Za-z]+", latin.strip_diacritics(q))[:4]).lower() or "passage"
    return Response(hits_csv(latin.composed(q), hits), media_type="text/csv; charset=utf-8", headers={"Content-Disposition": f'attachment; filename="parallels-{stem}.csv"'})


def search_query(q: str, authors: Sequence[str] = (), k: int = 10) -> str:
    """A search's query string (``q=...&author=...&k=...``), which the links to a hit's context carry, so that "Back to
    results" returns to the same search: its authors and its count too."""
    return urlencode({"q": q, "author": list(authors), "k": k}, doseq=True)


def _csv_url(path: str, q: str, author: list[str], k: int) -> str:
    """The same search as CSV."""
    return f"{path}?{search_query(q, author, k)}"


def _more_url(path: str, q: str, author: list[str], k: int, found: int) -> str | None:
    """The same search for twice as many hits (up to MAX_K), where a search for k + 1 found more than k."""
    if found <= k:
        return None
    return f"{path}?{search_query(q, author, min(2 * k, MAX_K))}"


async def _form_or_empty(request: Request):
    """The posted form of a request FastAPI could not validate, to fill the page again; empty if it cannot be read."""
    try:
        return await request.form()
    except Exception:  # a body that is not a form at all: the page is shown empty, with the error
        from starlette.datastructures import FormData

        return FormData()


def _unreadable(cause: BaseException | None) -> str:
    """Why FastAPI could not read a body, from the exception it raised."""
    if isinstance(cause, RecursionError):
        return f"the body nests arrays or objects too deeply to be read; send one JSON object of fields, e.g. {JSON_EXAMPLE}."
    if isinstance(cause, UnicodeDecodeError):
        return "the body is not UTF-8 JSON; send it encoded as UTF-8, e.g. {\"text\": \"arma virumque cano\"}."
    return f"the body could not be read ({type(cause).__name__}: {cause}); send one JSON object of fields, e.g. {JSON_EXAMPLE}."


class UploadTooLarge(QueryError):
    status_code = 413
