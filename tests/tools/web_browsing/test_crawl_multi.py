"""crawlMultiPages against a real local server: per-page failures, AllPagesFailed, output and
progress through CallContext, concurrency."""

from __future__ import annotations

import pytest

from tests.net.local_server import LocalServer, Reply
from tests.tools.web_browsing.conftest import Recorder
from workbench.tools.web_browsing.runtime import CRAWL_CONCURRENCY, WebBrowsingRuntime
from workbench.tools.web_browsing.services import (
    MAX_PAGE_CHARS,
    OfflinePageFetcher,
    OfflineSearchService,
    load_corpus,
)


def html(title: str, text: str) -> str:
    return f"<html><head><title>{title}</title></head><body><p>{text}</p></body></html>"


async def test_each_page_succeeds_or_fails_on_its_own(
    server: LocalServer, online: WebBrowsingRuntime, recorder: Recorder
) -> None:
    server.route("/ok", Reply(body=html("Fine", "All good here.")))
    server.route("/hop", Reply.redirect("http://169.254.169.254/latest/meta-data/"))
    ok, missing, hop = server.url("/ok"), server.url("/missing"), server.url("/hop")
    result = await online.invoke("crawlMultiPages", {"urls": [ok, missing, hop]}, recorder.ctx())
    assert result.success and result.error is None
    assert result.state["succeeded"] == 1 and result.state["failed"] == 2
    pages = result.state["results"]
    assert [page["url"] for page in pages] == [ok, missing, hop]
    assert pages[0]["title"] == "Fine" and pages[0]["content"] == "All good here."
    assert pages[1] == {
        "url": missing,
        "error": {"type": "HttpError", "message": f"{missing} answered HTTP 404"},
        "status": 404,
    }
    assert pages[2]["error"]["type"] == "RequestRefused" and pages[2]["status"] is None
    sections = result.content.split("\n\n---\n\n")
    assert sections[0] == f"# Fine\n{ok}\n\nAll good here."
    assert sections[1] == f"{missing}: FAILED (HttpError): {missing} answered HTTP 404"
    assert sections[2].startswith(f"{hop}: FAILED (RequestRefused): refused 169.254.169.254")


async def test_output_lines_and_progress_are_reported(
    server: LocalServer, online: WebBrowsingRuntime, recorder: Recorder
) -> None:
    server.route("/ok", Reply(body=html("Fine", "x" * 1234)))
    ok, missing = server.url("/ok"), server.url("/missing")
    await online.invoke("crawlMultiPages", {"urls": [ok, missing]}, recorder.ctx())
    stdout = recorder.text("stdout").splitlines()
    assert sorted(line for line in stdout if line.startswith("→")) == sorted(
        [f"→ fetching {ok}", f"→ fetching {missing}"]
    )
    assert f"✓ {ok} (1,234 characters)" in stdout
    assert recorder.text("stderr") == f"✗ {missing}: HttpError\n"
    assert {stream for stream, _ in recorder.output} == {"stdout", "stderr"}
    assert recorder.progress == [(1, 2, "1 of 2 pages"), (2, 2, "2 of 2 pages")]


async def test_truncated_pages_say_so_in_the_output(
    server: LocalServer, online: WebBrowsingRuntime, recorder: Recorder
) -> None:
    server.route("/long", Reply(body=html("Long", "word " * (MAX_PAGE_CHARS // 4))))
    await online.invoke("crawlMultiPages", {"urls": [server.url("/long")]}, recorder.ctx())
    assert recorder.text("stdout").endswith(", truncated)\n")


async def test_all_pages_failing_is_all_pages_failed(
    server: LocalServer, online: WebBrowsingRuntime, recorder: Recorder
) -> None:
    server.route("/boom", Reply(500))
    urls = [server.url("/missing"), server.url("/boom"), "ftp://127.0.0.1/x"]
    result = await online.invoke("crawlMultiPages", {"urls": urls}, recorder.ctx())
    assert not result.success and result.error is not None
    assert result.error.type == "AllPagesFailed" and result.error.message == "all 3 pages failed"
    assert result.content.startswith("all 3 pages failed.\n")
    assert result.state["succeeded"] == 0 and result.state["failed"] == 3
    assert [page["error"]["type"] for page in result.state["results"]] == [
        "HttpError",
        "HttpError",
        "RequestRefused",
    ]
    assert recorder.text("stderr").count("✗") == 3
    assert recorder.progress[-1] == (3, 3, "3 of 3 pages")


async def test_fetches_run_concurrently_but_at_most_crawl_concurrency_at_once(
    server: LocalServer, online: WebBrowsingRuntime, recorder: Recorder
) -> None:
    count = 2 * CRAWL_CONCURRENCY
    for index in range(count):
        server.route(
            f"/slow/{index}", Reply(body=html(f"Page {index}", f"text {index}"), delay=0.2)
        )
    urls = [server.url(f"/slow/{index}") for index in range(count)]
    result = await online.invoke("crawlMultiPages", {"urls": urls}, recorder.ctx())
    assert result.success and result.state["succeeded"] == count
    assert [page["title"] for page in result.state["results"]] == [
        f"Page {index}" for index in range(count)
    ]
    assert 2 <= server.max_in_flight <= CRAWL_CONCURRENCY
    kinds = [text[0] for _, text in recorder.output]
    assert kinds[:CRAWL_CONCURRENCY] == ["→"] * CRAWL_CONCURRENCY
    assert kinds[CRAWL_CONCURRENCY] == "✓"
    assert [done for done, _, _ in recorder.progress] == list(range(1, count + 1))


async def test_hostile_pages_reach_the_model_inert(
    server: LocalServer, online: WebBrowsingRuntime
) -> None:
    server.route(
        "/evil",
        Reply(
            body=html(
                "[bold]x[/] \x1b]52;c;aGk=\x07", "paste \x1b]52;c;cGF5bG9hZA==\x07 me \x1b[2J"
            )
        ),
    )
    server.route("/ok", Reply(body=html("Fine", "ok")))
    result = await online.invoke(
        "crawlMultiPages", {"urls": [server.url("/evil"), server.url("/ok")]}
    )
    assert result.success
    assert "\x1b" not in result.content and "\x07" not in result.content
    assert "# [bold]x[/]" in result.content and "paste me" in " ".join(result.content.split())
    assert result.state["results"][0]["title"] == "[bold]x[/] \x1b]52;c;aGk=\x07"


async def test_offline_corpus_crawl(recorder: Recorder) -> None:
    runtime = WebBrowsingRuntime(OfflineSearchService(), OfflinePageFetcher())
    known = [page.url for page in load_corpus()[:3]]
    result = await runtime.invoke(
        "crawlMultiPages", {"urls": [*known, "https://unknown.example/"]}, recorder.ctx()
    )
    assert result.success and result.state["succeeded"] == 3 and result.state["failed"] == 1
    assert result.state["results"][-1]["error"]["type"] == "PageNotFound"
    assert result.state["results"][-1]["status"] == 404
    assert len(recorder.progress) == 4


@pytest.mark.parametrize("urls", [[], None])
async def test_no_urls_is_an_empty_success(urls: list[str] | None, recorder: Recorder) -> None:
    runtime = WebBrowsingRuntime(OfflineSearchService(), OfflinePageFetcher())
    result = await runtime.invoke("crawlMultiPages", {"urls": urls}, recorder.ctx())
    assert result.success and result.content
    assert result.state == {"results": [], "succeeded": 0, "failed": 0}
    assert recorder.output == [] and recorder.progress == []
