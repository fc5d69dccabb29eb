"""End to end in headless Chromium: a real uvicorn server, a typed query, highlighted results, a benchmark page."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server_url(benchmark):
    import uvicorn

    from latin_intertext.serve.app import create_app
    from latin_intertext.serve.searcher import FALLBACK_RETRIEVER, Searcher

    app = create_app(Searcher.from_benchmark(benchmark, FALLBACK_RETRIEVER))
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not server.started:
        if time.time() > deadline or not thread.is_alive():
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def page():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        from conftest import skip_or_fail

        skip_or_fail(f"{CHROMIUM} is not installed (apt-get install chromium; `bash dev.sh test` does it)")  # fails under CI
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page()
        page.set_default_timeout(15_000)
        yield page
        browser.close()


def test_search_shows_highlighted_parallels(server_url, page):
    page.goto(server_url + "/")
    page.fill("#q", "Ordior arma, quibus caelo se gloria tollit Aeneadum")
    page.click("button[type=submit] >> text=Find parallels")
    page.wait_for_selector("#results-title")
    hits = page.locator("li.hit")
    assert hits.count() == 10
    first = hits.first
    assert first.locator(".line mark").count() >= 1  # matched words highlighted in the line
    assert first.locator(".qline mark").count() >= 1  # and in the query
    # exactly the matched word forms are marked, and the line and query read as written
    passage = "Ordior arma, quibus caelo se gloria tollit Aeneadum"
    hit = page.request.get(server_url + "/api/search", params={"q": passage, "k": 1}).json()["hits"][0]
    assert first.locator(".docid").text_content() == hit["citation"]["id"]
    for selector, side, text in ((".line", "line", hit["text"]), (".qline", "query", passage)):
        words = {w["start"]: w["form"] for m in hit["matches"] for w in m[side]}  # a word in two matches is marked once
        forms = [words[start] for start in sorted(words)]
        assert first.locator(f"{selector} mark").all_text_contents() == forms, side
        assert first.locator(selector).text_content() == text, side
    assert "Vergil" in page.inner_text("ol.hits") or "Statius" in page.inner_text("ol.hits")
    with page.expect_download() as download:  # the same ten parallels, as a spreadsheet reads them
        page.click("text=Download these parallels as CSV")
    rows = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert download.value.suggested_filename.endswith(".csv") and len(rows) == 11 and rows[1].split(",")[2] == hit["citation"]["id"]
    first.locator(".cite a").click()
    page.wait_for_selector("tr.here")
    assert page.locator("table.context tr").count() > 5


def test_the_author_list_shows_every_author_and_choosing_two_keeps_only_theirs(server_url, page):
    page.goto(server_url + "/")
    authors = page.locator("#author")
    assert authors.locator("option").count() == 4 and authors.evaluate("el => el.size") == 4  # all in view, no "0 selected" box
    assert "none chosen: all" in page.inner_text("label:has(#author)")
    page.fill("#q", "Ordior arma, quibus caelo se gloria tollit Aeneadum")
    authors.select_option(["lucan", "statius"])
    page.click("button[type=submit] >> text=Find parallels")
    page.wait_for_selector("#results-title")
    cited = page.locator("li.hit .docid").all_text_contents()
    assert len(cited) == 10 and {c.split("-")[0] for c in cited} <= {"lucan", "statius"}
    assert page.locator("#author option:checked").all_text_contents() == ["Lucan", "Statius"]  # the choice is kept


def test_long_paste_is_refused_with_a_message(server_url, page):
    page.goto(server_url + "/")
    page.fill("#q", "arma virumque cano " * 5000)  # ~100 kB
    page.click("button[type=submit] >> text=Find parallels")
    assert "too long" in page.inner_text("#count")
    assert page.locator("li.hit").count() == 0
    page.goto(server_url + "/?q=12345")
    assert "no Latin words" in page.inner_text(".error")


def test_benchmark_query_page_shows_gold_and_hits(server_url, page):
    page.goto(server_url + "/benchmark")
    assert page.locator("table.queries tbody tr").count() == 482
    page.fill("#filter", "vf-1-1-")
    page.locator("table.queries a", has_text="vf-1-1-").first.click()
    page.wait_for_selector("#gold")
    assert page.locator("#gold li").count() >= 1
    assert page.locator("#system li.hit").count() == 10
    assert "nDCG@10" in page.inner_text("#metrics")
    assert page.locator("#system .badge").count() == 10


def test_upload_then_search_again_and_show_more(server_url, page):
    """Upload a .tess file, search it, search it again without uploading, and follow the link to more hits."""
    from pathlib import Path

    page.goto(server_url + "/")
    page.click("details.upload summary")
    page.set_input_files("details.upload input[type=file]", str(Path(__file__).parent / "fixtures" / "user_texts" / "lucretius.sample.tess"))
    page.fill("details.upload textarea[name=q]", "Aeneadum genetrix alma Venus")
    page.fill("details.upload input[name=k]", "2")
    page.click("text=Upload and search")
    page.wait_for_selector("#results-title")
    assert page.locator("li.hit").count() == 2 and "Searched 7 lines" in page.inner_text("main")
    page.fill("#q-again", "caeli subter labentia signa")
    page.click("text=Search again")
    page.wait_for_selector("#results-title")
    assert "/upload/" in page.url and page.locator("li.hit").count() >= 1
    assert "labentia" in page.locator("li.hit .line mark").all_text_contents()
    page.fill("#q-again", "quae per te")  # four lines share a word
    page.fill("form.again input[name=k]", "2")
    page.click("text=Search again")
    page.wait_for_selector("#results-title")
    assert page.locator("li.hit").count() == 2
    page.click("text=Show up to 4 parallels")
    page.wait_for_selector("#results-title")
    assert page.locator("li.hit").count() > 2 and "k=4" in page.url
    assert page.locator("text=Show up to 8 parallels").count() == 0  # no more lines share a word
