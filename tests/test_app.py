"""The web app through FastAPI's TestClient: pages, the JSON API, and bad input answered with clear 4xx."""

from __future__ import annotations

import html
import re
from pathlib import Path

import markupsafe
import pytest

from latin_intertext import latin
from latin_intertext.serve.explain import match_words
from fastapi.testclient import TestClient

from pydantic import TypeAdapter

from latin_intertext.serve import schema
from latin_intertext.serve.app import MAX_UPLOAD_BYTES, create_app
from latin_intertext.serve.searcher import FALLBACK_RETRIEVER, MAX_K, MAX_QUERY_CHARS, Searcher

USER_TEXTS = Path(__file__).parent / "fixtures" / "user_texts"
PASSAGE = "Ordior arma, quibus caelo se gloria tollit Aeneadum"


@pytest.fixture(scope="module")
def client(benchmark) -> TestClient:
    return TestClient(create_app(Searcher.from_benchmark(benchmark, FALLBACK_RETRIEVER)))


def test_api_search_get_and_post(client):
    r = client.get("/api/search", params={"q": PASSAGE, "k": 5, "author": ["vergil"]})
    assert r.status_code == 200
    body = r.json()
    assert body["retriever"] == FALLBACK_RETRIEVER and len(body["hits"]) == 5
    hit = body["hits"][0]
    assert hit["citation"]["author_key"] == "vergil" and hit["citation"]["label"].startswith("Vergil, Aeneid ")
    assert hit["matches"] and {"lemma", "kind", "query", "line"} <= set(hit["matches"][0])
    shown = {m["lemma"]: m["lemma_shown"] for h in body["hits"] for m in h["matches"]}
    assert shown and all(latin.display_lemma(lemma) == lemma_shown for lemma, lemma_shown in shown.items())
    (vir,) = match_words(latin.tokenize("virum"), latin.tokenize("viri"))
    assert (vir.to_dict()["lemma"], vir.to_dict()["lemma_shown"]) == ("uir", "vir")  # as the CLI and the page show it
    assert hit["context"] and any(c["is_hit"] for c in hit["context"])
    posted = client.post("/api/search", json={"text": PASSAGE, "k": 5, "authors": ["vergil"]}).json()
    assert [h["citation"]["id"] for h in posted["hits"]] == [h["citation"]["id"] for h in body["hits"]]
    as_get = client.post("/api/search", json={"q": PASSAGE, "k": 5, "author": ["vergil"]}).json()  # GET's names work in the body too
    assert [h["citation"]["id"] for h in as_get["hits"]] == [h["citation"]["id"] for h in body["hits"]]


def test_search_as_csv_from_the_api_and_from_the_page(client):
    import csv
    import io

    params = {"q": PASSAGE, "k": 5, "author": ["vergil"]}
    r = client.get("/api/search.csv", params=params)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert r.headers["content-disposition"] == 'attachment; filename="parallels-ordior-arma-quibus-caelo.csv"'
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [row["id"] for row in rows] == [h["citation"]["id"] for h in client.get("/api/search", params=params).json()["hits"]]
    assert {row["author"] for row in rows} == {"Vergil"} and all(row["shared"] and row["query"] == PASSAGE for row in rows)
    page = client.get("/", params=params).text
    link = html.unescape(page.split('<p class="export"><a href="')[1].split('"')[0])
    assert client.get(link).text == r.text  # the page's link downloads the same parallels
    accented = client.get("/api/search.csv", params={"q": "Ārma virumque canō", "k": 1}).headers["content-disposition"]
    assert accented == 'attachment; filename="parallels-arma-virumque-cano.csv"'
    bad = client.get("/api/search.csv", params={"q": "", "k": 5})
    assert bad.status_code == 400 and bad.json()["error"]  # errors stay JSON, as everywhere in the API
    with open(USER_TEXTS / "lucretius.sample.tess", "rb") as fh:
        upload_id = client.post("/api/upload", files={"files": ("lucretius.sample.tess", fh)}, data={"q": "Aeneadum genetrix alma Venus"}).json()["upload_id"]
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/upload/{upload_id}/search.csv", params={"q": "Aeneadum genetrix alma Venus", "k": 2}).text)))
    assert len(rows) == 2 and rows[0]["id"].startswith("lucretius.sample-1-")
    documented = client.get("/openapi.json").json()["paths"]
    assert all("text/csv" in documented[p]["get"]["responses"]["200"]["content"] for p in ("/api/search.csv", "/api/upload/{upload_id}/search.csv"))


def test_api_queries_and_one_query(client, benchmark):
    queries = client.get("/api/queries").json()
    assert len(queries) == len(benchmark.queries) == 482
    qid = "vf-1-2-2"  # 6 gold lines, 2 in the top 10 and 5 in the top 100: no metric is a trivial 0 or 1
    assert queries[1]["id"] == qid and queries[1]["n_gold_lines"] == 6
    detail = client.get(f"/api/queries/{qid}").json()
    assert set(detail["metrics"]) == {"ndcg_at_10", "recall_at_10", "recall_at_100"}  # MTEB's names
    assert detail["metrics_note"] is None and 'id="trained-on-all"' not in client.get(f"/benchmark/{qid}").text  # bm25-lemma learned nothing
    # the figures are the project's evaluation (pytrec_eval) of the returned top 10, and of a top 100 searched here
    from latin_intertext.evaluate.metrics import evaluate_run

    qrels = {qid: benchmark.qrels[qid]}
    top10 = evaluate_run({qid: {h["citation"]["id"]: h["score"] for h in detail["hits"]}}, qrels).means
    top100 = Searcher.from_benchmark(benchmark, FALLBACK_RETRIEVER).search(detail["query"]["text"], k=100)
    recall_100 = evaluate_run({qid: {h.id: h.score for h in top100}}, qrels).means["recall_at_100"]
    assert detail["metrics"]["ndcg_at_10"] == pytest.approx(top10["ndcg_at_10"], abs=1e-4)
    assert detail["metrics"]["recall_at_10"] == pytest.approx(top10["recall_at_10"], abs=1e-4)
    assert detail["metrics"]["recall_at_100"] == pytest.approx(recall_100, abs=1e-4)
    assert 0 < detail["metrics"]["ndcg_at_10"] < 1
    assert (detail["metrics"]["recall_at_10"], detail["metrics"]["recall_at_100"]) == (pytest.approx(2 / 6, abs=1e-4), pytest.approx(5 / 6, abs=1e-4))
    assert {g["citation"]["id"] for g in detail["gold"]} == set(benchmark.qrels[qid]) and all(g["citation"]["label"] for g in detail["gold"])
    assert isinstance(detail["query"]["query_phrases"], list) and all(isinstance(p, str) for p in detail["query"]["query_phrases"])
    assert len(detail["hits"]) == 10 and all("gold" in h for h in detail["hits"])
    found = [h["citation"]["id"] for h in detail["hits"] if h["gold"]]
    assert detail["metrics"]["recall_at_10"] == pytest.approx(len(found) / len(benchmark.qrels[qid]), abs=1e-3)
    assert client.get("/api/queries/vf-9-9-9").status_code == 404


def test_api_lines_and_authors(client):
    lines = client.get("/api/lines/vergil-1-1", params={"before": 0, "after": 2}).json()
    assert [c["citation"]["id"] for c in lines] == ["vergil-1-1", "vergil-1-2", "vergil-1-3"]
    assert lines[0]["citation"]["label"] == "Vergil, Aeneid 1.1" and lines[0]["is_hit"]  # labelled as in /api/search
    assert {a["key"] for a in client.get("/api/authors").json()} == {"vergil", "lucan", "ovid", "statius"}
    assert client.get("/api/lines/nope-1-1").status_code == 404 == client.get("/api/queries/nope").status_code


def test_openapi_documents_the_api(client):
    spec = client.get("/openapi.json").json()
    assert {"/api/search", "/api/queries", "/api/queries/{qid}", "/api/upload"} <= set(spec["paths"])
    assert "post" in spec["paths"]["/api/search"] and client.get("/docs").status_code == 200
    searches = ("/api/search", "/api/search.csv", "/api/upload/{upload_id}/search", "/api/upload/{upload_id}/search.csv")
    params = [[p for p in spec["paths"][path]["get"]["parameters"] if p["in"] == "query"] for path in searches]
    assert [p["name"] for p in params[0]] == ["q", "k", "author", "authors", "_"] and all(p == params[0] for p in params)  # one query string for all four
    assert params[0][1]["schema"]["maximum"] == MAX_K and params[0][2]["schema"]["type"] == "array"


@pytest.mark.parametrize(
    "params, status, message",
    [
        ({"q": ""}, 400, "empty"),
        ({"q": "123 456 !!"}, 400, "no Latin words"),
        ({"q": "a" * (MAX_QUERY_CHARS + 1)}, 413, "limit is 5,000"),
        ({"q": PASSAGE, "author": ["homer"]}, 400, "Unknown author"),
        ({"q": PASSAGE, "k": "abc"}, 422, "k: Input should be a valid integer"),
        ({"q": PASSAGE, "k": 0}, 422, "k: Input should be greater than or equal to 1"),
    ],
)
def test_bad_input_is_a_clear_4xx_and_the_server_keeps_serving(client, params, status, message):
    r = client.get("/api/search", params=params)
    assert r.status_code == status and message in r.json()["detail"] and r.json()["error"]  # one error format throughout
    page = client.get("/", params=params)
    assert page.status_code == status and message in page.text and page.headers["content-type"].startswith("text/html")
    assert page.text.count(str(markupsafe.escape(r.json()["detail"]))) == 1 and "at /docs" not in page.text  # said once, for a reader
    assert 'id="search"' in page.text  # the form stays, with the passage in it
    if params["q"] and len(params["q"]) < 100:
        assert html.escape(params["q"], quote=False) in page.text
    assert client.get("/api/search", params={"q": PASSAGE}).status_code == 200


def test_post_100k_paste(client):
    r = client.post("/api/search", json={"text": "arma virumque cano " * 6000})
    assert r.status_code == 413 and "5,000" in r.json()["detail"]
    assert client.post("/api/search", json={"text": PASSAGE, "k": 0}).status_code == 422
    as_bool = client.post("/api/search", json={"text": PASSAGE, "k": True})  # JSON's true is no count (GET's k=true is refused too)
    assert as_bool.status_code == 422 and "k: Input should be a valid integer" in as_bool.json()["detail"]
    assert client.post("/api/search", json={"text": PASSAGE, "k": 3}).status_code == 200
    broken = client.post("/api/search", content=b'{"text": "arma",', headers={"content-type": "application/json"})
    assert broken.status_code == 422 and "the body is not valid JSON (at character 16" in broken.json()["detail"]


def test_unknown_names_are_refused_and_authors_works_in_get_as_in_post(client):
    """A misspelt filter silently dropped answers another question: ``authors=lucan`` gave Vergil's lines before."""
    by_get = client.get("/api/search", params={"q": PASSAGE, "k": 3, "authors": "lucan"})
    assert by_get.status_code == 200 and {h["citation"]["author_key"] for h in by_get.json()["hits"]} == {"lucan"}
    assert client.get("/api/search.csv", params={"q": PASSAGE, "authors": "lucan"}).status_code == 200
    unknown = client.get("/api/search", params={"q": PASSAGE, "kk": 5})
    assert unknown.status_code == 422 and "kk: Extra inputs are not permitted" in unknown.json()["detail"]
    busted = client.get("/api/search", params={"q": PASSAGE, "k": 3, "_": "1733240000"})  # jQuery's cache: false
    assert busted.status_code == 200 and busted.json()["hits"] == client.get("/api/search", params={"q": PASSAGE, "k": 3}).json()["hits"]
    posted = client.post("/api/search", json={"text": PASSAGE, "kk": 3})
    assert posted.status_code == 422 and "kk: Extra inputs are not permitted" in posted.json()["detail"]


def test_a_passage_that_is_not_utf8_is_a_clear_400_not_a_500(client):
    lone = client.post("/api/search", content=b'{"text": "arma \\ud800 virumque"}', headers={"content-type": "application/json"})
    assert lone.status_code == 400 and "not valid Unicode at character 6" in lone.json()["detail"]
    latin1 = client.post("/api/search", content='{"text": "arma é"}'.encode("latin-1"), headers={"content-type": "application/json"})
    assert latin1.status_code == 400 and "the body is not UTF-8 JSON; send it encoded as UTF-8" in latin1.json()["detail"]
    assert client.get("/no/such/page").status_code == 404  # other HTTP errors as before


def test_upload_tess_and_search(client):
    with open(USER_TEXTS / "lucretius.sample.tess", "rb") as fh:
        r = client.post("/api/upload", files={"files": ("lucretius.sample.tess", fh, "text/plain")}, data={"q": "Aeneadum genetrix alma Venus", "k": "3"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["lines"] == 7 and body["hits"][0]["citation"]["id"].startswith("lucretius.sample-1-")
    assert body["report"]["duplicates"]
    with open(USER_TEXTS / "lucretius.sample.tess", "rb") as fh:
        both = client.post("/api/upload", files={"files": ("lucretius.sample.tess", fh)}, data={"q": "Aeneadum genetrix alma Venus", "with_benchmark": "true", "k": "20"}).json()
    assert both["lines"] > 39_000 and {"lucretius"} < {h["citation"]["author_key"] for h in both["hits"]}


def test_an_uploaded_file_named_like_an_epic_is_cited_as_the_user_s_and_not_linked(client):
    """Its lines may carry the epic's ids (vergil-1-5) but not its text: a /line/ link would show the benchmark's line."""
    content = b"<verg. aen. 1.5>\tcarmina nostra canam\n<verg. aen. 1.6>\tarma canam\n"
    page = client.post("/upload", files={"files": ("vergil.aeneid.tess", content)}, data={"q": "carmina canam"})
    assert page.status_code == 200 and "carmina" in page.text and 'href="/line/vergil-1-5' not in page.text
    both = client.post("/api/upload", files={"files": ("vergil.aeneid.tess", content)}, data={"q": "carmina nostra canam", "with_benchmark": "true", "k": "3"}).json()
    top = both["hits"][0]["citation"]
    assert (top["id"], top["author"], top["work"], top["author_key"]) == ("user_vergil.aeneid-1-5", "Vergil (your file)", "Aeneid", "user_vergil")
    page = client.post("/upload", files={"files": ("vergil.aeneid.tess", content)}, data={"q": "carmina nostra canam", "with_benchmark": "true", "k": "3"})
    assert "Vergil (your file), Aeneid 1.5" in page.text and 'href="/line/user_vergil' not in page.text


def test_upload_takes_k_and_an_author_filter(client):
    with open(USER_TEXTS / "lucretius.sample.tess", "rb") as fh, open(USER_TEXTS / "silius.sample.tess", "rb") as gh:
        files = [("files", ("lucretius.sample.tess", fh.read())), ("files", ("silius.sample.tess", gh.read()))]
    body = client.post("/api/upload", files=files, data={"q": "arma genetrix Venus", "k": "2", "author": "silius"}).json()
    assert 0 < len(body["hits"]) <= 2 and {h["citation"]["author_key"] for h in body["hits"]} == {"silius"}
    page = client.post("/upload", files=files, data={"q": "arma genetrix Venus", "author": "homer"})
    assert page.status_code == 400 and "homer" in page.text and 'value="homer"' in page.text


def test_an_upload_is_held_and_searched_again_by_its_id(benchmark, monkeypatch):
    """The files are indexed once: sent again, or searched by the upload_id, they are not indexed again; the server
    holds the last HELD_UPLOADS uploads, and an older id is a 404 that says to upload again."""
    from latin_intertext.serve import app as app_module

    indexed = []
    from_tess = Searcher.from_tess
    monkeypatch.setattr(Searcher, "from_tess", classmethod(lambda cls, *a, **kw: indexed.append(a) or from_tess(*a, **kw)))
    client = TestClient(create_app(Searcher.from_benchmark(benchmark, FALLBACK_RETRIEVER)))
    content = (USER_TEXTS / "lucretius.sample.tess").read_bytes()
    first = client.post("/api/upload", files={"files": ("lucretius.sample.tess", content)}, data={"q": "Aeneadum genetrix", "k": "3"}).json()
    again = client.get(f"/api/upload/{first['upload_id']}/search", params={"q": "Aeneadum genetrix", "k": 3}).json()
    assert again["hits"] == first["hits"] and again["upload_id"] == first["upload_id"] and again["report"] == first["report"]
    resent = client.post("/api/upload", files={"files": ("lucretius.sample.tess", content)}, data={"q": "alma Venus"}).json()
    assert resent["upload_id"] == first["upload_id"] and len(indexed) == 1
    only_indexed = client.post("/api/upload", files={"files": ("lucretius.sample.tess", content)}).json()  # no passage: indexed only
    assert only_indexed["upload_id"] == first["upload_id"] and "hits" not in only_indexed and only_indexed["report"] == first["report"]
    page = client.post("/upload", files={"files": ("lucretius.sample.tess", content)}, data={"q": "alma Venus", "k": "2"})
    assert f'action="/upload/{first["upload_id"]}"' in page.text and len(indexed) == 1
    page = client.get(f"/upload/{first['upload_id']}", params={"q": "quae per te", "k": 2})  # four lines share a word
    assert page.status_code == 200 and "2 parallels" in page.text and f'href="/upload/{first["upload_id"]}?q=quae+per+te&amp;author=&amp;k=4"' in page.text
    assert "Show up to" not in client.get(f"/upload/{first['upload_id']}", params={"q": "quae per te", "k": 4}).text
    for n in range(app_module.HELD_UPLOADS):  # as many other uploads push the first out
        client.post("/api/upload", files={"files": (f"poet{n}.tess", b"<poet. 1.1>\tarma virumque cano")}, data={"q": "arma"})
    gone = client.get(f"/api/upload/{first['upload_id']}/search", params={"q": "arma"})
    assert gone.status_code == 404 and "Upload the file(s) again" in gone.json()["detail"]
    page = client.get(f"/upload/{first['upload_id']}", params={"q": "arma virumque", "author": "poet1", "k": 5})
    assert page.status_code == 404 and "Upload the file(s) again" in page.text  # the search page, its form filled in:
    assert ">arma virumque</textarea>" in page.text and 'value="poet1"' in page.text and 'type="file"' in page.text


def test_bad_parameters_of_an_upload_page_keep_the_form(client):
    content = (USER_TEXTS / "lucretius.sample.tess").read_bytes()
    upload_id = client.post("/api/upload", files={"files": ("lucretius.sample.tess", content)}, data={"q": "arma"}).json()["upload_id"]
    page = client.get(f"/upload/{upload_id}", params={"q": "alma Venus", "k": "abc"})
    assert page.status_code == 422 and ">alma Venus</textarea>" in page.text and f'action="/upload/{upload_id}"' in page.text
    page = client.post("/upload", files={"files": ("lucretius.sample.tess", content)}, data={"q": "alma Venus", "k": "abc", "author": "lucretius"})
    assert page.status_code == 422 and ">alma Venus</textarea>" in page.text and 'value="lucretius"' in page.text and "k: " in page.text


def test_authors_are_read_alike_everywhere_repeated_comma_separated_or_one_string(client):
    """The same authors asked for in each way an endpoint may be sent them give the same hits."""
    want = [h["citation"]["id"] for h in client.get("/api/search", params={"q": PASSAGE, "k": 8, "author": ["vergil", "lucan"]}).json()["hits"]]
    assert {i.split("-")[0] for i in want} <= {"vergil", "lucan"}
    assert [h["citation"]["id"] for h in client.get("/api/search", params={"q": PASSAGE, "k": 8, "author": "vergil, lucan"}).json()["hits"]] == want
    for body in ({"q": PASSAGE, "k": 8, "author": "vergil,lucan"}, {"text": PASSAGE, "k": 8, "authors": ["vergil", "lucan"]}):
        r = client.post("/api/search", json=body)
        assert r.status_code == 200 and [h["citation"]["id"] for h in r.json()["hits"]] == want, body
    files = {"files": ("lucretius.sample.tess", (USER_TEXTS / "lucretius.sample.tess").read_bytes())}
    posted = client.post("/api/upload", files=files, data={"q": "arma Venus", "with_benchmark": "true", "author": "vergil,lucretius", "k": "6"}).json()
    again = client.get(f"/api/upload/{posted['upload_id']}/search", params={"q": "arma Venus", "author": "vergil,lucretius", "k": 6}).json()
    assert [h["citation"]["id"] for h in again["hits"]] == [h["citation"]["id"] for h in posted["hits"]]
    assert {h["citation"]["author_key"] for h in posted["hits"]} <= {"vergil", "lucretius"} and len(posted["hits"]) == 6


def test_a_passage_of_function_words_only_is_said_to_share_only_those(client):
    note = "Every word of the passage is a function word (cum, et, in, non): its hits share only those"
    assert note in client.get("/", params={"q": "et in cum non", "k": 3}).text
    assert note in client.get("/api/search", params={"q": "et in cum non", "k": 3}).json()["note"]
    assert "note" not in client.get("/api/search", params={"q": "et in cum arma", "k": 3}).json()


def test_a_search_that_fills_k_links_to_twice_as_many(client):
    page = client.get("/", params={"q": PASSAGE, "k": 5, "author": "vergil"})
    assert 'href="/?q=Ordior+arma' in page.text and "author=vergil&amp;k=10" in page.text
    assert "Show up to" not in client.get("/", params={"q": PASSAGE, "k": 1000}).text
    assert "Show up to" not in client.get("/", params={"q": "Oenotria", "k": 10}).text  # three lines hold it


def test_an_upload_with_an_empty_passage_says_so_as_the_search_page_does(client):
    """The page says the passage is empty; the API, whose `q` is optional, indexes the files and searches nothing."""
    files = {"files": ("lucretius.sample.tess", (USER_TEXTS / "lucretius.sample.tess").read_bytes())}
    empty = "The passage is empty: paste at least one Latin word."
    page = client.post("/upload", files=files, data={"q": ""})
    assert page.status_code == 400 and page.text.count(empty) == 1 and 'type="file"' in page.text
    api = client.post("/api/upload", files=files, data={"q": "  "})
    assert api.status_code == 200 and "hits" not in api.json() and api.json()["upload_id"] and api.json()["lines"] == 7


def test_upload_lists_skipped_lines(client):
    content = b"<poet. 1.1>\tarma virumque cano\n\n<poet. 1.2>\n"
    report = client.post("/api/upload", files={"files": ("poet.tess", content)}, data={"q": "arma"}).json()["report"]
    assert report["blank"] == ["poet.tess:2: blank line"] and report["without_text"] == ["poet.tess:3: citation without text"]
    page = client.post("/upload", files={"files": ("poet.tess", content)}, data={"q": "arma"})
    assert page.status_code == 200 and "skipped 2 line(s)" in page.text and "poet.tess:3: citation without text" in page.text
    assert 'href="/line/poet' not in page.text and 'class="citation"' in page.text  # its lines are not on the server: no dead link


@pytest.mark.parametrize("first, second", [("poet.tess", "poet.tess"), ("Poet.tess", "poet.tess")])
def test_the_same_file_uploaded_twice_is_refused(client, first, second):
    """Ids are made from file names lower-cased, so names that differ only in case would give one text's ids to two."""
    twice = [("files", (first, b"<a. 1.1>\tarma")), ("files", (second, b"<a. 1.1>\tarma"))]
    r = client.post("/api/upload", files=twice, data={"q": "arma"})
    said = f"{first}: given 2 times" if first == second else f"{first} and {second}: both give the ids poet.text-LOCUS"
    assert r.status_code == 400 and said in r.json()["detail"]


@pytest.mark.parametrize(
    "name, content, status, message",
    [
        ("malformed.tess", (USER_TEXTS / "malformed.tess").read_bytes(), 400, "malformed.tess:2"),
        ("notes.txt", b"<a. 1.1>\tarma", 400, "not a .tess file"),
        ("latin1.tess", "<a. 1.1>\tpoëta".encode("latin-1"), 400, "not UTF-8"),
        ("empty.tess", b"\n\n", 400, "No verse lines"),
        ("big.tess", b"<a. 1.1>\tarma\n" + b"x" * MAX_UPLOAD_BYTES, 413, "MiB"),
    ],
)
def test_bad_uploads(client, name, content, status, message):
    r = client.post("/api/upload", files={"files": (name, content)}, data={"q": "arma"})
    assert r.status_code == status, r.text
    body = r.json()
    assert message in body["detail"] + " ".join(body.get("problems", []))
    page = client.post("/upload", files={"files": (name, content)}, data={"q": "arma"})
    assert page.status_code == status and "<textarea" in page.text  # the search form, with the error above it
    import html
    import re

    box = re.search(r'<div class="error" role="alert">(.*?)</div>', page.text, re.S)
    assert box, page.text
    shown = html.unescape(box[1])  # the same detail and problems as the API's, in the page's error box
    assert f"<strong>{body['detail']}</strong>" in shown and message in shown
    assert re.findall(r"<code>(.*?)</code>", shown, re.S) == body.get("problems", [])[:50]
    assert client.get("/").status_code == 200


def test_pages(client, benchmark):
    home = client.get("/")
    assert home.status_code == 200 and "Find parallels" in home.text
    results = client.get("/", params={"q": PASSAGE})
    assert results.status_code == 200 and results.text.count('<li class="hit') == 10 and "<mark class=\"m-" in results.text
    # each hit's line and the query are shown unchanged, with exactly the matched words marked, by kind and lemma
    import html
    import re

    marks = lambda s: [(k, bool(w), l, html.unescape(t)) for k, w, l, t in re.findall(r'<mark class="m-(\w+)( weak)?" data-lemma="([^"]*)"[^>]*>(.*?)</mark>', s)]  # noqa: E731
    plain = lambda s: html.unescape(re.sub(r"<[^>]+>", "", s))  # noqa: E731
    hits = client.get("/api/search", params={"q": PASSAGE}).json()["hits"]
    items = re.findall(r'<li class="hit.*?</li>', results.text, re.S)
    assert len(items) == len(hits) == 10
    for item, hit in zip(items, hits):
        line, qline = re.search(r'<div class="line">(.*?)</div>', item, re.S)[1], re.search(r'<div class="qline">(.*?)</div>', item, re.S)[1]
        assert plain(line) == hit["text"] and plain(qline) == PASSAGE
        for shown, side in ((line, "line"), (qline, "query")):
            words = sorted((w["start"], m["kind"], m["weak"], m["lemma"], w["form"]) for m in hit["matches"] for w in m[side])
            assert words and marks(shown) == [w[1:] for w in words], (hit["citation"]["id"], side)
    context = client.get("/line/vergil-1-5", params={"q": "arma virumque"})
    assert context.status_code == 200 and "vergil-1-1" in context.text and 'class="here"' in context.text
    listing = client.get("/benchmark")
    assert listing.status_code == 200 and listing.text.count("/benchmark/vf-1-") == 482
    qid = benchmark.queries[0].id
    query = client.get(f"/benchmark/{qid}")
    assert query.status_code == 200 and "Gold parallels" in query.text and "nDCG@10" in query.text
    n_lines = len(benchmark.qrels[qid])  # the listing counts what the query's page lists: gold lines, not parallels
    assert f"Gold parallels ({n_lines} lines)" in query.text and f"<td>{n_lines}</td></tr>" in listing.text.split(f'href="/benchmark/{qid}"')[1].split("<tr>")[0]
    assert client.get("/benchmark/nope").status_code == 404
    assert client.get("/static/style.css").status_code == 200
    # the page's own files by path, like every other link, so that a proxy serving it over https loads them too
    assert '<link rel="stylesheet" href="/static/style.css">' in home.text and '<script src="/static/app.js" defer>' in home.text
    assert "http://" not in home.text


def test_a_learned_retrievers_per_query_figures_say_they_are_in_sample():
    from latin_intertext.serve.app import in_sample_note

    assert "trained on all benchmark queries, this one included" in in_sample_note("best")
    assert in_sample_note("evidence-ranker") and in_sample_note("word2vec-tuned")
    assert in_sample_note("bm25") is None and in_sample_note("bm25-lemma-sparse") is None


def test_create_app_from_dataset_folder(dataset_dir):
    c = TestClient(create_app(dataset_dir, retriever=FALLBACK_RETRIEVER))
    assert len(c.get("/api/queries").json()) == 482
    assert c.get("/api/search", params={"q": PASSAGE}).json()["hits"]


def test_page_marks_the_fallback_retriever_and_says_why():
    """No trained model in the test home: the header names bm25-lemma, marked as the fallback with the reason."""
    page = TestClient(create_app(Searcher.from_tess([USER_TEXTS / "lucretius.sample.tess"]))).get("/")
    assert page.status_code == 200
    assert 'bm25-lemma <abbr title="best (the evidence ranker) has no trained model at' in page.text and "(fallback)</abbr>" in page.text
    explicit = TestClient(create_app(Searcher.from_tess([USER_TEXTS / "lucretius.sample.tess"], retriever="bm25-lemma"))).get("/")
    assert "(fallback)" not in explicit.text


def test_the_api_description_names_the_corpus_served_and_offers_the_queries_only_with_the_benchmark(client):
    served = client.get("/openapi.json").json()["info"]["description"]
    assert "in the corpus served here (benchmark: 39,675 lines)" in served and "; browse the benchmark's 482 Valerius Flaccus queries" in served
    own = TestClient(create_app(Searcher.from_tess([USER_TEXTS / "lucretius.sample.tess"], retriever="bm25"))).get("/openapi.json").json()
    assert "in the corpus served here (tess: 7 lines)" in own["info"]["description"] and "Valerius Flaccus" not in own["info"]["description"]


def test_the_page_shows_the_terms_of_a_tesserae_score(benchmark):
    tesserae = TestClient(create_app(Searcher.from_benchmark(benchmark, "tesserae")))
    page = tesserae.get("/", params={"q": "invita, o regina, tuo de vertice cessi", "k": 3})
    assert page.status_code == 200 and page.text.count('<div class="terms">score = ln((') == 3
    hit = tesserae.get("/api/search", params={"q": "invita, o regina, tuo de vertice cessi", "k": 1}).json()["hits"][0]
    assert hit["citation"]["id"] == "vergil-6-460" and hit["score_detail"]["score"] == pytest.approx(hit["score"])


def test_an_upload_form_field_not_read_or_given_twice_is_refused(client):
    """FastAPI passed over a form field it does not read (``authors``, the JSON API's name, searched every author) and
    let the last of a repeated one win; only files and author repeat."""
    files = [("files", ("lucretius.sample.tess", (USER_TEXTS / "lucretius.sample.tess").read_bytes())), ("files", ("silius.sample.tess", (USER_TEXTS / "silius.sample.tess").read_bytes()))]
    for path in ("/api/upload", "/upload"):
        misnamed = client.post(path, files=files, data={"q": "arma genetrix Venus", "authors": "silius"})
        assert misnamed.status_code == 422 and "authors: Extra inputs are not permitted; did you mean 'author'?" in html.unescape(misnamed.text), path
        unknown = client.post(path, files=files, data={"q": "arma genetrix Venus", "kk": "1"})
        assert unknown.status_code == 422 and "kk: Extra inputs are not permitted; did you mean 'k'?" in html.unescape(unknown.text), path
        for name, values in (("k", ["1", "3"]), ("q", ["arma", "Venus"]), ("with_benchmark", ["true", "false"])):
            twice = client.post(path, files=files + [(name, (None, v)) for v in values] + ([("q", (None, "arma"))] if name != "q" else []))
            assert twice.status_code == 422 and f"{name}: given 2 times, but it takes one value" in twice.text, (path, name)
    both = client.post("/api/upload", files=files + [("q", (None, "arma genetrix Venus")), ("author", (None, "silius")), ("author", (None, "lucretius")), ("k", (None, "6"))])
    assert both.status_code == 200 and {h["citation"]["author_key"] for h in both.json()["hits"]} == {"silius", "lucretius"}
    page = client.post("/upload", files=files + [("q", (None, "arma genetrix Venus")), ("author", (None, "silius")), ("author", (None, "lucretius"))])
    assert page.status_code == 200 and 'value="silius, lucretius"' in page.text


@pytest.mark.parametrize("k, message", [("0", "greater than or equal to 1"), ("-3", "greater than or equal to 1"), (str(MAX_K + 1), f"less than or equal to {MAX_K}")])
def test_the_upload_page_checks_k_as_the_api_does(client, k, message):
    """k=0 showed "0 parallels", k=-3 said "not -2" and k=5000 gave a CSV link that answered 422."""
    files = {"files": ("lucretius.sample.tess", (USER_TEXTS / "lucretius.sample.tess").read_bytes())}
    page = client.post("/upload", files=files, data={"q": "alma Venus", "k": k})
    assert page.status_code == 422 and f"k: Input should be {message}" in page.text and ">alma Venus</textarea>" in page.text
    assert client.post("/api/upload", files=files, data={"q": "alma Venus", "k": k}).status_code == 422


def test_a_parameter_given_twice_is_refused_on_every_get(client):
    """``q=arma&q=cano`` searched "cano" and ``k=1&k=3`` gave 3 hits: the last value silently won. ``author`` repeats."""
    content = (USER_TEXTS / "lucretius.sample.tess").read_bytes()
    upload_id = client.post("/api/upload", files={"files": ("lucretius.sample.tess", content)}).json()["upload_id"]
    searches = ("/api/search", "/api/search.csv", f"/api/upload/{upload_id}/search", f"/api/upload/{upload_id}/search.csv", "/", f"/upload/{upload_id}")
    for path in searches:
        for query in ("q=arma&q=Venus&k=3", "q=arma&k=1&k=3", "q=arma&_=1&_=2"):
            r = client.get(f"{path}?{query}")
            name = query.split("&")[-1].split("=")[0] if "q=Venus" not in query else "q"
            assert r.status_code == 422 and f"{name}: given 2 times, but it takes one value: give it once" in r.text, (path, query)
        authors = "author=lucretius&author=lucretius&authors=lucretius" if upload_id in path else "author=vergil&author=lucan&authors=ovid"
        assert client.get(f"{path}?q=arma&{authors}&k=2").status_code == 200, path
    lines = client.get("/api/lines/vergil-1-1?before=0&before=2")
    assert lines.status_code == 422 and "before: given 2 times" in lines.json()["detail"]
    assert "q: given 2 times" in client.get("/line/vergil-1-5?q=arma&q=virumque").text
    posted = client.post("/api/search", content=b'{"text": "arma", "k": 3, "text": "cano"}', headers={"content-type": "application/json"})
    assert posted.status_code == 422 and "text: given 2 times" in posted.json()["detail"]
    two_names = client.post("/api/search", json={"text": "arma", "q": "cano"})  # one field under both its names: one would be dropped
    assert two_names.status_code == 422 and "q: Extra inputs are not permitted; it is another name of a field given already" in two_names.json()["detail"]


def test_a_query_name_an_api_endpoint_does_not_read_is_refused_with_the_name_meant(client):
    """The README's promise held for the searches only: ``/api/lines/...?befor=2`` answered with 5 lines before."""
    lines = client.get("/api/lines/vergil-1-5", params={"befor": 2})
    assert lines.status_code == 422 and "befor: Extra inputs are not permitted; did you mean 'before'? (it takes before, after)" in lines.json()["detail"]
    assert client.get("/api/lines/vergil-1-5", params={"before": 2, "_": "1733240000"}).status_code == 200  # a client's cache-buster
    assert "kk: Extra inputs are not permitted; did you mean 'k'?" in client.get("/api/search", params={"q": PASSAGE, "kk": 5}).json()["detail"]
    in_query = client.post("/api/search?k=3", json={"text": PASSAGE})
    assert in_query.status_code == 422 and "k: Extra inputs are not permitted (it takes none in its query string)" in in_query.json()["detail"]
    assert client.get("/api/authors", params={"x": 1}).status_code == 422


@pytest.mark.parametrize(
    "body, headers, said",
    [
        (b"", {"content-type": "application/json"}, "it was empty"),
        (b"", {}, "it was empty"),
        (b'["arma"]', {"content-type": "application/json"}, "it was a JSON array"),
        (b"text=arma", {"content-type": "application/x-www-form-urlencoded"}, "it was not sent as JSON: send it with the header Content-Type: application/json"),
    ],
)
def test_a_body_that_is_no_json_object_is_told_what_it_must_be(client, body, headers, said):
    """It was told ": Field required" or ": Input should be a valid dictionary", naming no field."""
    r = client.post("/api/search", content=body, headers=headers)
    detail = r.json()["detail"]
    assert r.status_code == 422 and "body: must be a JSON object with the fields text, q, k, authors, author, e.g. {\"text\": " in detail and said in detail
    assert ": Field required" not in detail and "valid dictionary" not in detail


def test_a_body_nested_too_deeply_is_not_called_non_utf8(client):
    deep = client.post("/api/search", content=b'{"text": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", headers={"content-type": "application/json"})
    assert deep.status_code == 400 and "nests arrays or objects too deeply" in deep.json()["detail"] and "UTF-8" not in deep.json()["detail"]


def test_an_author_filter_that_names_no_author_is_refused_and_an_empty_one_searches_all(client):
    """``authors=,`` searched every author unsaid; an empty value (a form's empty box) does so as documented."""
    everyone = [h["citation"]["id"] for h in client.get("/api/search", params={"q": PASSAGE, "k": 5}).json()["hits"]]
    assert [h["citation"]["id"] for h in client.get("/api/search", params={"q": PASSAGE, "k": 5, "author": ""}).json()["hits"]] == everyone
    assert [h["citation"]["id"] for h in client.post("/api/search", json={"text": PASSAGE, "k": 5, "authors": []}).json()["hits"]] == everyone
    said = "names no author: give keys or names (e.g. 'vergil'), or leave it empty for every author"
    for r, name in (
        (client.get("/api/search", params={"q": PASSAGE, "authors": ","}), "authors"),
        (client.get("/api/search.csv", params={"q": PASSAGE, "author": ["vergil", " , "]}), "author"),
        (client.post("/api/search", json={"text": PASSAGE, "authors": ","}), "authors"),
        (client.post("/api/search", json={"text": PASSAGE, "author": [","]}), "author"),
    ):
        assert r.status_code == 422 and f"{name}: " in r.json()["detail"] and said in r.json()["detail"], r.text
    page = client.get("/", params={"q": PASSAGE, "author": ","})
    assert page.status_code == 422 and said in html.unescape(page.text) and 'id="search"' in page.text
    files = {"files": ("lucretius.sample.tess", (USER_TEXTS / "lucretius.sample.tess").read_bytes())}
    assert said in client.post("/api/upload", files=files, data={"q": "arma", "author": ","}).json()["detail"]
    page = client.post("/upload", files=files, data={"q": "arma", "author": ","})
    assert page.status_code == 422 and said in html.unescape(page.text) and 'value=","' in page.text


def test_a_hit_s_context_links_back_to_the_same_search_with_its_authors_and_count(client):
    """`/?q=...&author=ovid&k=30` once linked to /line/ with the passage only, and its "Back to results" searched every
    author for 10."""
    page = client.get("/", params={"q": "liquidas undas", "author": "ovid", "k": "30"})
    link = re.search(r'href="(/line/ovid-[^"]+)"', page.text)[1].replace("&amp;", "&")
    assert link.endswith("?q=liquidas+undas&author=ovid&k=30")
    context = client.get(link)
    assert context.status_code == 200 and 'href="/?q=liquidas+undas&amp;author=ovid&amp;k=30">Back to results' in context.text
    assert 'href="/line/ovid-' in context.text and "author=ovid&amp;k=30" in context.text.split('class="context"')[1]


def test_an_upload_searched_with_the_benchmark_says_so_and_heads_its_page_with_what_it_searched(client):
    content = b"<poet. carm. 1.1>\tliquidas undas\n<poet. carm. 1.2>\tarma canam\n"
    page = client.post("/upload", files={"files": ("poet.carmina.tess", content)}, data={"q": "liquidas undas", "with_benchmark": "true"}).text
    assert "Searched 39,677 lines of your file(s) and the benchmark's epics, its 39,675 lines among them" in page
    assert '<span class="corpus">tess+benchmark · 39,677 lines' in page
    alone = client.post("/upload", files={"files": ("poet.carmina.tess", content)}, data={"q": "liquidas undas"}).text
    assert "Searched 2 lines of your file(s)." in alone and '<span class="corpus">tess · 2 lines' in alone


def test_a_search_that_finds_nothing_says_why_in_its_json(client):
    empty = client.get("/api/search", params={"q": "itaque", "k": 3}).json()  # a word in no line of the epics
    assert empty["hits"] == [] and empty["note"] == "No line shares a word with the passage."
    filtered = client.post("/api/search", json={"text": "Tydeus", "k": 3, "authors": ["lucan", "ovid"]}).json()  # Statius' and Vergil's name
    assert filtered["hits"] == [] and filtered["note"] == "No line by Lucan or Ovid shares a word with the passage."
    page = client.get("/", params={"q": "Tydeus", "author": "lucan"})
    assert "No line by Lucan shares a word with the passage." in page.text


def test_an_unknown_path_answers_as_every_other_error(client):
    api = client.get("/api/nosuch")
    assert api.status_code == 404 and api.json() == {"error": "NotFoundError", "detail": "No page or endpoint at /api/nosuch. The API's endpoints are listed at /docs."}
    put = client.put("/api/search", json={"text": "arma"})
    assert put.status_code == 405 and put.headers["allow"] and put.json() == {
        "error": "MethodNotAllowed", "detail": "Method Not Allowed: PUT /api/search. The API's endpoints and their methods are listed at /docs."}
    page = client.get("/nosuch")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html") and "No page or endpoint at /nosuch. The search page is at /." in page.text


def test_every_search_answer_is_as_the_api_schema_describes_it(client, benchmark):
    """The models /docs shows forbid any field they do not name, so a field added to an answer, or dropped from one,
    fails here until the schema says so too."""
    spec = client.get("/openapi.json").json()
    for path, method, model in (("/api/search", "get", "SearchAnswer"), ("/api/search", "post", "SearchAnswer"), ("/api/upload", "post", "UploadAnswer"), ("/api/upload/{upload_id}/search", "get", "UploadAnswer")):
        assert spec["paths"][path][method]["responses"]["200"]["content"]["application/json"]["schema"] == {"$ref": f"#/components/schemas/{model}"}
    answers = [
        client.get("/api/search", params={"q": PASSAGE, "k": 3}).json(),
        client.post("/api/search", json={"text": PASSAGE, "k": 3, "authors": ["lucan"]}).json(),
        client.get("/api/search", params={"q": "et in cum non", "k": 2}).json(),  # with a note
        TestClient(create_app(Searcher.from_benchmark(benchmark, "tesserae"))).get("/api/search", params={"q": "invita, o regina, tuo de vertice cessi", "k": 2}).json(),
    ]
    assert answers[-1]["hits"][0]["score_detail"] and answers[2]["note"]
    for answer in answers:
        schema.SearchAnswer.model_validate(answer)
    files = {"files": ("lucretius.sample.tess", (USER_TEXTS / "lucretius.sample.tess").read_bytes())}
    held = client.post("/api/upload", files=files).json()  # indexed only: no passage, no hits
    searched = client.get(f"/api/upload/{held['upload_id']}/search", params={"q": "rerum natura deum", "k": 2}).json()
    for answer in (held, searched, client.post("/api/upload", files=files, data={"q": "rerum natura"}).json()):
        schema.UploadAnswer.model_validate(answer)
    assert "hits" not in held and searched["hits"]
    with pytest.raises(ValueError, match="extra"):
        schema.SearchAnswer.model_validate({**answers[0], "unnamed": 1})
    details = (client.get(f"/api/queries/{q.id}").json() for q in benchmark.queries)
    found = next(d for d in details if any(h["gold"] for h in d["hits"]) and any(g["system_rank"] is None for g in d["gold"]))  # every field exercised
    for path, concrete, model in (
        ("/api/authors", "/api/authors", list[schema.Author]), ("/api/lines/{doc_id}", "/api/lines/vergil-1-5", list[schema.ContextLine]),
        ("/api/queries", "/api/queries", list[schema.QuerySummary]), ("/api/queries/{qid}", f"/api/queries/{found['query']['id']}", schema.QueryAnswer),
    ):
        assert spec["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"], path
        TypeAdapter(model).validate_python(client.get(concrete).json())


def test_the_api_schema_describes_its_errors_as_they_are_sent(client):
    spec = client.get("/openapi.json").json()
    assert set(spec["components"]["schemas"]["ErrorBody"]["properties"]) == {"error", "detail", "problems", "hint"}
    assert "HTTPValidationError" not in spec["components"]["schemas"]  # FastAPI's own 422 body, which the app never sends
    held = client.post("/api/upload", files={"files": ("lucretius.sample.tess", (USER_TEXTS / "lucretius.sample.tess").read_bytes())}).json()["upload_id"]
    bare = TestClient(create_app(Searcher.from_tess([USER_TEXTS / "lucretius.sample.tess"], retriever="bm25")))  # no benchmark
    too_long, tess = "a" * (MAX_QUERY_CHARS + 1), ("a.tess", b"<a. 1.1>\tarma virumque\n")
    searches = {400: {"q": ""}, 413: {"q": too_long}, 422: {"q": "arma", "k": 0}}
    upload_searches = searches | {404: {"q": "arma"}}
    # each route's errors as /docs declares them, each given by a request that gets it: (method, path, status) -> request
    requests = {
        **{("get", "/api/search", status): lambda p=params: client.get("/api/search", params=p) for status, params in searches.items()},
        **{("get", "/api/search.csv", status): lambda p=params: client.get("/api/search.csv", params=p) for status, params in searches.items()},
        ("post", "/api/search", 400): lambda: client.post("/api/search", json={"text": ""}),
        ("post", "/api/search", 413): lambda: client.post("/api/search", json={"text": too_long}),
        ("post", "/api/search", 422): lambda: client.post("/api/search", json={"text": "arma", "k": 0}),
        ("get", "/api/authors", 422): lambda: client.get("/api/authors", params={"x": 1}),
        ("get", "/api/lines/{doc_id}", 404): lambda: client.get("/api/lines/nope-1-1"),
        ("get", "/api/lines/{doc_id}", 422): lambda: client.get("/api/lines/vergil-1-5", params={"before": -1}),
        ("get", "/api/queries", 400): lambda: bare.get("/api/queries"),
        ("get", "/api/queries", 422): lambda: client.get("/api/queries", params={"x": 1}),
        ("get", "/api/queries/{qid}", 400): lambda: bare.get("/api/queries/vf-1-1-1"),
        ("get", "/api/queries/{qid}", 404): lambda: client.get("/api/queries/nope"),
        ("get", "/api/queries/{qid}", 422): lambda: client.get("/api/queries/vf-1-1-1", params={"x": 1}),
        ("post", "/api/upload", 400): lambda: client.post("/api/upload", files={"files": ("a.tess", b"no citation here\n")}),
        ("post", "/api/upload", 413): lambda: client.post("/api/upload", files={"files": tess}, data={"q": too_long}),
        ("post", "/api/upload", 422): lambda: client.post("/api/upload", files={"files": tess}, data={"q": "arma", "k": 0}),
        **{("get", f"/api/upload/{{upload_id}}/search{csv}", status): lambda p=params, c=csv, s=status: client.get(f"/api/upload/{'nope' if s == 404 else held}/search{c}", params=p)
           for status, params in upload_searches.items() for csv in ("", ".csv")},
    }
    declared = {(method, path, int(status)): response for path, operations in spec["paths"].items() for method, operation in operations.items()
                for status, response in operation["responses"].items() if status != "200"}
    assert set(declared) == set(requests)  # /docs declares just the errors each route can give, as listed above
    for (method, path, status), response in declared.items():
        assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorBody"}, (method, path, status)
        got = requests[method, path, status]()
        assert got.status_code == status and {"error", "detail"} <= set(got.json()), (method, path, status, got.text[:200])
    assert declared["get", "/api/queries", 400]["description"] == schema.NO_BENCHMARK == requests["get", "/api/queries", 400]().json()["detail"]
    assert "no benchmark" not in declared["get", "/api/search", 400]["description"]
    assert "UTF-8" in declared["post", "/api/search", 400]["description"] and "UTF-8" not in declared["get", "/api/search", 400]["description"]
    assert ".tess" in declared["post", "/api/upload", 400]["description"]
    for model, content in ((None, None), (schema.SearchAnswer, {"text/csv": {}})):
        with pytest.raises(ValueError, match="one of the two"):
            schema.described(model, "an answer", 400, content=content)
    invalid = client.get("/api/search", params={"q": "arma", "k": 0}).json()
    assert set(invalid) <= set(spec["components"]["schemas"]["ErrorBody"]["properties"]) and {"error", "detail"} <= set(invalid)
