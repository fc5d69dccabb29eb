"""The JSON the API answers, as /docs describes it: models of what ``Searcher.payload`` and the app write (its
errors included), for the OpenAPI schema only (the answers are written by the dataclasses' ``to_dict``; a test validates real answers against these
models, which forbid any field they do not name, so the two cannot drift apart)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from latin_intertext.retrieve.base import ScoreDetail  # written by asdict as it stands: the dataclass is its own schema


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WordSpan(_Strict):
    """One matched word where it stands."""

    form: str = Field(description="As written.")
    lemma: str = Field(description="Its lemma, folded (lower case, no diacritics, u for v, i for j), as matching reads it.")
    position: int = Field(description="Its place among the text's words, counted from 0 (the CLI's @1 is position 0).")
    start: int = Field(description="Offset of its first character in the text (Python's indexing: text[start:end] is the word).")
    end: int


class Match(_Strict):
    """A lemma or form the passage and the line share, with every place it stands on each side."""

    lemma: str = Field(description="Folded, as matched (uir).")
    kind: Literal["form", "lemma", "candidate"] = Field(description="form: the same form; lemma: the same lemma in another form; candidate: a lemma both forms may belong to.")
    weak: bool = Field(description="A common function word, weak evidence alone.")
    query: list[WordSpan]
    line: list[WordSpan]
    lemma_shown: str = Field(description="The lemma as a reader looks it up (vir).")


class Citation(_Strict):
    id: str = Field(description="The line's id (the benchmark's scheme: docs/ids.md).")
    author: str
    author_key: str = Field(description="What the author filter takes.")
    work: str
    locus: str = Field(description="As the source cites it: 1.1, pr.1, 9.")
    book: int
    line: int
    tess_index: str = Field(description="The source's own tag: <verg. aen. 1.1>.")
    phrase: int = Field(description="K of a phrase of a long prose line (cited '2.69, phrase K'); 0 for a whole line.")
    label: str = Field(description="Vergil, Aeneid 1.1")


class ContextLine(_Strict):
    citation: Citation
    text: str
    is_hit: bool


class NeighbourEvidence(_Strict):
    """Why a hit that shares no word with the passage is one: the line before or after it does."""

    side: Literal["previous", "next"]
    citation: Citation
    text: str
    matches: list[Match]


class Hit(_Strict):
    rank: int
    citation: Citation
    text: str = Field(description="The line as shown; the offsets of its matched words are into it.")
    score: float = Field(description="Orders the hits of one search; means nothing outside it.")
    matches: list[Match]
    context: list[ContextLine] = Field(description="The lines around the hit, itself among them.")
    score_detail: ScoreDetail | None = Field(description="The retriever's terms of the score, where it gives them (tesserae's: each side's scored words and their spans).")
    via_neighbour: NeighbourEvidence | None


class SearchAnswer(_Strict):
    query: str = Field(description="The passage as searched (accents typed as combining marks joined to their letters).")
    corpus: str
    retriever: str
    hits: list[Hit] = Field(description="Best first.")
    fallback: str | None = Field(None, description="Why the retriever is not the one a caller would expect (no trained model).")
    note: str | None = Field(None, description="What a weak passage's hits can share (function words only; not Latin), or why nothing was found.")


class UploadAnswer(_Strict):
    """An upload's answer: its files' report, and the search if a passage was sent."""

    corpus: str
    retriever: str
    lines: int = Field(description="Lines read and searched.")
    units: int = Field(description="What is searched: lines, and the phrases of long lines.")
    report: dict[str, Any] = Field(description="counts, and every line left out or renamed (blank, without_text, malformed, duplicates, ignored, run_together), as file:line: reason.")
    upload_id: str = Field(description="Searches the same files again: GET /api/upload/{upload_id}/search.")
    query: str | None = None
    hits: list[Hit] | None = None
    fallback: str | None = None
    note: str | None = None


class Author(_Strict):
    key: str = Field(description="What the author filter takes.")
    name: str


class QuerySummary(_Strict):
    """A benchmark query, as the list of queries gives it."""

    id: str
    text: str
    vf_book: int
    line_start: int
    line_end: int
    n_gold_lines: int = Field(description="Relevant lines in the qrels.")


class BenchmarkQuery(_Strict):
    id: str
    text: str
    vf_book: int
    line_start: int
    line_end: int
    query_phrases: list[str] = Field(description="The gold's phrases of the query (a list here, the dataset's JSON text parsed): for reading, never for searching.")
    n_parallels: int


class GoldLine(_Strict):
    citation: Citation
    text: str
    system_rank: int | None = Field(description="Where the server's retriever ranks the line for this query (None: not in its top 100).")


class QueryHit(Hit):
    gold: bool = Field(description="Whether the qrels hold the line for this query.")


class QueryAnswer(_Strict):
    """One benchmark query: its gold lines beside the system's ranks, the system's top 10 and its metrics."""

    query: BenchmarkQuery
    retriever: str
    metrics: dict[str, float] = Field(description="This query's ndcg_at_10, recall_at_10 and recall_at_100 for the server's retriever.")
    metrics_note: str | None = Field(description="For a retriever trained on the benchmark: why these figures flatter it.")
    gold: list[GoldLine]
    hits: list[QueryHit]


class ErrorBody(_Strict):
    """What every error of the API answers (``app._error_body``), whatever its status."""

    error: str = Field(description="The kind of error: InvalidRequest, QueryError, NotFoundError, UploadTooLarge, InputError, ...")
    detail: str = Field(description="What went wrong, and how to put it right.")
    problems: list[str] | None = Field(None, description="Bad input only: every problem found (a file's malformed lines, each parameter refused), up to 200.")
    hint: str | None = Field(None, description="Bad input only: the form the input must take.")


ERRORS = {
    400: "A passage that cannot be searched (empty, or no Latin word), or an author filter that names no author here.",
    404: "No such line, query or upload.",
    413: "A passage or upload over the size limit.",
    422: "A parameter the endpoint does not take, or a value of the wrong kind (each one named in problems).",
}
NO_BENCHMARK = (
    "This server has no benchmark loaded: it serves other texts only (`latin-intertext serve` loads it, "
    "but not with --tesserae-la, nor with --tess unless --with-benchmark is given)."
)


def described(model: type[BaseModel] | None, description: str, *errors: int, bad_request: str = ERRORS[400], content: dict | None = None) -> dict:
    """A route's ``responses``: its 200 answer, either the model /docs shows (the route sets ``response_model=None``,
    so that its answer is written as it is, not through the model) or, for a route answering other than JSON, its
    ``content``; and the errors it can give, each in :class:`ErrorBody`, ``bad_request`` saying what a 400 means here."""
    if (model is None) == (content is None):
        raise ValueError("a route's answer is described by a model or by its content, one of the two")
    ok = {"model": model} if model is not None else {"content": content}
    return {200: ok | {"description": description}} | {
        status: {"model": ErrorBody, "description": bad_request if status == 400 else ERRORS[status]} for status in sorted(errors)
    }
