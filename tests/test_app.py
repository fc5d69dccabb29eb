"""The web app through FastAPI's TestClient: pages, the JSON API, and bad input answered with clear 4xx."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from latin_intertext.serve.app import MAX_UPLOAD_BYTES, create_app
from latin_intertext.serve.searcher import FALLBACK_RETRIEVER, MAX_QUERY_CHARS, Searcher

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
    assert hit["context"] and any(c["is_hit"] for c in hit["context"])
    posted = client.post("/api/search", json={"text": PASSAGE, "k": 5, "authors": ["vergil"]}).json()
    assert [h["citation"]["id"] for h in posted["hits"]] == [h["citation"]["id"] for h in body["hits"]]


def test_api_queries_and_one_query(client, benchmark):
    queries = client.get("/api/queries").json()
    assert len(queries) == len(benchmark.queries) == 482
    qid = queries[0]["id"]
    detail = client.get(f"/api/queries/{qid}").json()
    assert set(detail["metrics"]) == {"ndcg_cut_10", "recall_10", "recall_100"}
    assert all(0.0 <= v <= 1.0 for v in detail["metrics"].values())
    assert {g["citation"]["id"] for g in detail["gold"]} == set(benchmark.qrels[qid])
    assert len(detail["hits"]) == 10 and all("gold" in h for h in detail["hits"])
    found = [h["citation"]["id"] for h in detail["hits"] if h["gold"]]
    assert detail["metrics"]["recall_10"] == pytest.approx(len(found) / len(benchmark.qrels[qid]), abs=1e-3)
    assert client.get("/api/queries/vf-9-9-9").status_code == 404


def test_api_lines_and_authors(client):
    lines = client.get("/api/lines/vergil-1-1", params={"before": 0, "after": 2}).json()
    assert [c["citation"]["id"] for c in lines] == ["vergil-1-1", "vergil-1-2", "vergil-1-3"]
    assert {a["key"] for a in client.get("/api/authors").json()} == {"vergil", "lucan", "ovid", "statius"}
    assert client.get("/api/lines/nope-1-1").status_code == 400


def test_openapi_documents_the_api(client):
    spec = client.get("/openapi.json").json()
    assert {"/api/search", "/api/queries", "/api/queries/{qid}", "/api/upload"} <= set(spec["paths"])
    assert "post" in spec["paths"]["/api/search"] and client.get("/docs").status_code == 200


@pytest.mark.parametrize(
    "params, status, message",
    [
        ({"q": ""}, 400, "empty"),
        ({"q": "123 456 !!"}, 400, "no Latin words"),
        ({"q": "a" * (MAX_QUERY_CHARS + 1)}, 413, "limit is 5,000"),
        ({"q": PASSAGE, "author": ["homer"]}, 400, "Unknown author"),
    ],
)
def test_bad_input_is_a_clear_4xx_and_the_server_keeps_serving(client, params, status, message):
    r = client.get("/api/search", params=params)
    assert r.status_code == status and message in r.json()["detail"]
    page = client.get("/", params=params)
    assert page.status_code == status and message in page.text and "<textarea" in page.text
    assert client.get("/api/search", params={"q": PASSAGE}).status_code == 200


def test_post_100k_paste(client):
    r = client.post("/api/search", json={"text": "arma virumque cano " * 6000})
    assert r.status_code == 413 and "5,000" in r.json()["detail"]
    assert client.post("/api/search", json={"text": PASSAGE, "k": 0}).status_code == 422


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
    assert page.status_code == status and "error" in page.text
    assert client.get("/").status_code == 200


def test_pages(client, benchmark):
    home = client.get("/")
    assert home.status_code == 200 and "Find parallels" in home.text
    results = client.get("/", params={"q": PASSAGE})
    assert results.status_code == 200 and results.text.count('<li class="hit') == 10 and "<mark class=\"m-" in results.text
    context = client.get("/line/vergil-1-5", params={"q": "arma virumque"})
    assert context.status_code == 200 and "vergil-1-1" in context.text and 'class="here"' in context.text
    listing = client.get("/benchmark")
    assert listing.status_code == 200 and listing.text.count("/benchmark/vf-1-") == 482
    qid = benchmark.queries[0].id
    query = client.get(f"/benchmark/{qid}")
    assert query.status_code == 200 and "Gold parallels" in query.text and "nDCG@10" in query.text
    assert client.get("/benchmark/nope").status_code == 404
    assert client.get("/static/style.css").status_code == 200


def test_create_app_from_dataset_folder(dataset_dir):
    c = TestClient(create_app(dataset_dir, retriever=FALLBACK_RETRIEVER))
    assert len(c.get("/api/queries").json()) == 482
    assert c.get("/api/search", params={"q": PASSAGE}).json()["hits"]
