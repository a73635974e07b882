"""HttpPageFetcher and crawlSinglePage against a real local server: readable text, caps, HTTP
errors, refusals, content types."""

from __future__ import annotations

import httpx
import pytest

from tests.net.local_server import LocalServer, Reply, closed_port
from workbench.net.ssrf import safe_client
from workbench.tools.web_browsing.runtime import WebBrowsingRuntime
from workbench.tools.web_browsing.services import (
    MAX_PAGE_CHARS,
    HttpPageFetcher,
    OfflineSearchService,
    SearxngSearchService,
    WebError,
)

ARTICLE = """<!doctype html>
<html><head><title>  The   Article
</title><style>body { color: red }</style><script>var secret = "tracking";</script></head>
<body>
<header><h1>Site name</h1><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
<main>
<h1>Main heading</h1>
<p>First paragraph with <b>bold</b> and <a href="/x">a link</a>.</p>
<h2>Section</h2>
<p>Second   paragraph,
spread over lines.</p>
<ul><li>one</li><li>two</li></ul>
<noscript>Enable JavaScript</noscript>
<form><button>Subscribe</button></form>
</main>
<footer>Copyright footer</footer>
</body></html>"""


async def fetch_failure(fetcher: HttpPageFetcher, url: str) -> WebError:
    with pytest.raises(WebError) as error:
        await fetcher.fetch(url)
    return error.value


async def test_fetcher_returns_the_page(server: LocalServer, client: httpx.AsyncClient) -> None:
    server.route("/article", Reply(body=ARTICLE))
    page = await HttpPageFetcher(client).fetch(server.url("/article"))
    assert (page.url, page.final_url, page.status, page.content_type) == (
        server.url("/article"),
        server.url("/article"),
        200,
        "text/html; charset=utf-8",
    )
    assert page.body == ARTICLE and not page.truncated_body


async def test_fetcher_follows_redirects_and_reports_the_final_url(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    server.route("/old", Reply.redirect("/article", 301))
    server.route("/article", Reply(body=ARTICLE))
    page = await HttpPageFetcher(client).fetch(server.url("/old"))
    assert page.url == server.url("/old") and page.final_url == server.url("/article")


async def test_fetcher_decodes_the_declared_charset(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    server.route(
        "/latin",
        Reply(
            body="<p>café crème</p>".encode("latin-1"), content_type="text/html; charset=iso-8859-1"
        ),
    )
    server.route(
        "/bogus",
        Reply(body="<p>naïve</p>".encode(), content_type="text/html; charset=no-such-charset"),
    )
    fetcher = HttpPageFetcher(client)
    assert (await fetcher.fetch(server.url("/latin"))).body == "<p>café crème</p>"
    assert (await fetcher.fetch(server.url("/bogus"))).body == "<p>naïve</p>"


async def test_fetcher_caps_the_body(server: LocalServer, client: httpx.AsyncClient) -> None:
    server.route("/big", Reply(body="<p>" + "x" * 50_000 + "</p>"))
    page = await HttpPageFetcher(client, max_bytes=1000).fetch(server.url("/big"))
    assert page.truncated_body and len(page.body) == 1000


@pytest.mark.parametrize("status", [404, 410, 500, 503])
async def test_http_errors(server: LocalServer, client: httpx.AsyncClient, status: int) -> None:
    server.route("/gone", Reply(status, "<p>nope</p>"))
    error = await fetch_failure(HttpPageFetcher(client), server.url("/gone"))
    assert error.error_type == "HttpError"
    assert error.body == {"url": server.url("/gone"), "status": status}


@pytest.mark.parametrize(
    "target",
    [
        "http://169.254.169.254/latest/meta-data/",
        "http://10.0.0.5/",
        "http://[::1]/",
        "http://192.168.1.1/router",
    ],
)
async def test_redirect_to_a_private_address_is_refused(
    server: LocalServer, client: httpx.AsyncClient, target: str
) -> None:
    server.route("/hop", Reply.redirect(target))
    error = await fetch_failure(HttpPageFetcher(client), server.url("/hop"))
    assert error.error_type == "RequestRefused"
    assert error.body["url"] == server.url("/hop") and error.body["reason"]


async def test_unlisted_local_server_is_refused(server: LocalServer) -> None:
    server.route("/", Reply(body="<p>secret</p>"))
    async with safe_client() as guarded:
        error = await fetch_failure(HttpPageFetcher(guarded), server.url("/"))
    assert error.error_type == "RequestRefused" and error.body["reason"] == "a loopback address"
    assert server.requests == []


async def test_redirect_loop(server: LocalServer) -> None:
    server.route("/loop", Reply.redirect("/loop"))
    async with safe_client(allow=["127.0.0.1"], max_redirects=2) as guarded:
        error = await fetch_failure(HttpPageFetcher(guarded), server.url("/loop"))
    assert error.error_type == "TooManyRedirects"


async def test_connection_refused_is_fetch_failed(client: httpx.AsyncClient) -> None:
    url = f"http://127.0.0.1:{closed_port()}/"
    error = await fetch_failure(HttpPageFetcher(client), url)
    assert error.error_type == "FetchFailed" and error.body == {"url": url}


async def test_slow_page_is_fetch_timeout(server: LocalServer) -> None:
    server.route("/slow", Reply(body="<p>late</p>", delay=0.5))
    async with safe_client(allow=["127.0.0.1"], timeout=0.1) as hasty:
        error = await fetch_failure(HttpPageFetcher(hasty), server.url("/slow"))
    assert error.error_type == "FetchTimeout"


@pytest.mark.parametrize("url", ["ftp://127.0.0.1/file", "file:///etc/passwd", "not a url"])
async def test_non_http_urls_never_leave(client: httpx.AsyncClient, url: str) -> None:
    error = await fetch_failure(HttpPageFetcher(client), url)
    assert error.error_type == "RequestRefused"


async def test_invalid_url_is_typed(client: httpx.AsyncClient) -> None:
    error = await fetch_failure(HttpPageFetcher(client), "http://[::1/")
    assert error.error_type == "InvalidUrl"


# --- crawlSinglePage --------------------------------------------------------------------------


async def test_crawl_returns_readable_text(server: LocalServer, online: WebBrowsingRuntime) -> None:
    server.route("/article", Reply(body=ARTICLE))
    url = server.url("/article")
    result = await online.invoke("crawlSinglePage", {"url": url})
    assert result.success
    assert (
        result.content == f"# The Article\n{url}\n\n# Main heading\n\nFirst paragraph with bold "
        "and a link.\n\n## Section\n\nSecond paragraph, spread over lines.\n\n- "
        "one\n\n- two"
    )
    for chrome in (
        "secret",
        "color: red",
        "Site name",
        "Home",
        "About",
        "Enable JavaScript",
        "Subscribe",
        "Copyright",
    ):
        assert chrome not in result.content
    (page,) = result.state["results"]
    assert page == {
        "url": url,
        "finalUrl": url,
        "status": 200,
        "contentType": "text/html",
        "title": "The Article",
        "content": result.content.split("\n\n", 1)[1],
        "length": len(page["content"]),
        "truncated": False,
    }


async def test_crawl_reports_a_body_cut_by_the_byte_cap(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    server.route(
        "/big",
        Reply(
            body="<html><head><title>Big</title></head><body><p>"
            + "word " * 5_000
            + "</p></body></html>"
        ),
    )
    runtime = WebBrowsingRuntime(OfflineSearchService(), HttpPageFetcher(client, max_bytes=2_000))
    result = await runtime.invoke("crawlSinglePage", {"url": server.url("/big")})
    assert result.success
    (page,) = result.state["results"]
    assert page["truncated"] and page["length"] < 2_000 and page["bodyLimit"] == 2_000
    assert result.content.endswith(
        f"[truncated: showing its first {page['length']:,} characters; the page exceeded "
        "max_body_bytes = 2,000 bytes (counted after decompression); the read stopped there. "
        "Raise it with max_body_bytes = 4000 under [tool.workbench.limits] in pyproject.toml.]"
    )
    assert f"of {page['length']:,} characters" not in result.content


async def test_crawl_caps_long_text_for_the_model(
    server: LocalServer, online: WebBrowsingRuntime
) -> None:
    text = "".join(f"<p>paragraph {index} " + "lorem ipsum " * 20 + "</p>" for index in range(200))
    server.route("/long", Reply(body=f"<title>Long</title>{text}"))
    result = await online.invoke("crawlSinglePage", {"url": server.url("/long")})
    (page,) = result.state["results"]
    assert (
        page["truncated"]
        and page["length"] > MAX_PAGE_CHARS
        and len(page["content"]) == MAX_PAGE_CHARS
    )
    assert result.content.endswith(
        f"[truncated: showing {MAX_PAGE_CHARS:,} of {page['length']:,} characters]"
    )


async def test_crawl_404_is_an_http_error(server: LocalServer, online: WebBrowsingRuntime) -> None:
    url = server.url("/missing")
    result = await online.invoke("crawlSinglePage", {"url": url})
    assert not result.success and result.error is not None
    assert result.error.type == "HttpError"
    assert result.error.body == {"url": url, "status": 404}
    assert result.content == f"{url} answered HTTP 404"
    assert result.state["results"] == [
        {
            "url": url,
            "error": {"type": "HttpError", "message": f"{url} answered HTTP 404"},
            "status": 404,
        }
    ]


async def test_crawl_redirect_to_metadata_is_refused(
    server: LocalServer, online: WebBrowsingRuntime
) -> None:
    server.route(
        "/hop", Reply.redirect("http://169.254.169.254/latest/meta-data/iam/security-credentials/")
    )
    result = await online.invoke("crawlSinglePage", {"url": server.url("/hop")})
    assert not result.success and result.error is not None
    assert result.error.type == "RequestRefused"
    assert "cloud metadata" in result.content
    assert server.paths() == ["/hop"]


@pytest.mark.parametrize(
    ("content_type", "body", "text"),
    [
        (
            "text/plain; charset=utf-8",
            "just some text\nover two lines",
            "just some text\nover two lines",
        ),
        ("application/json", '{"a": 1}', '{"a": 1}'),
        ("text/markdown", "# Title\n\nbody", "# Title\n\nbody"),
    ],
)
async def test_crawl_of_non_html_keeps_the_body(
    server: LocalServer, online: WebBrowsingRuntime, content_type: str, body: str, text: str
) -> None:
    server.route("/doc", Reply(body=body, content_type=content_type))
    url = server.url("/doc")
    result = await online.invoke("crawlSinglePage", {"url": url})
    assert result.success
    (page,) = result.state["results"]
    assert (
        page["contentType"] == content_type.split(";")[0]
        and page["title"] == ""
        and page["content"] == text
    )
    assert result.content == f"# {url}\n{url}\n\n{text}"


async def test_crawl_of_html_without_a_content_type_is_still_extracted(
    server: LocalServer, online: WebBrowsingRuntime
) -> None:
    server.route(
        "/bare",
        Reply(
            body="  <html><title>Bare</title><script>x()</script><p>Body</p></html>",
            content_type=None,
        ),
    )
    result = await online.invoke("crawlSinglePage", {"url": server.url("/bare")})
    assert result.state["results"][0]["title"] == "Bare"
    assert result.state["results"][0]["content"] == "Body"
    assert result.state["results"][0]["contentType"] == ""


async def test_crawl_of_binary_content_has_no_control_characters_in_content(
    server: LocalServer, online: WebBrowsingRuntime
) -> None:
    server.route(
        "/image.png",
        Reply(body=b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x1b[2J\x07", content_type="image/png"),
    )
    result = await online.invoke("crawlSinglePage", {"url": server.url("/image.png")})
    assert result.success
    assert not any(char in result.content for char in "\x00\x1a\x1b\x07")


async def test_crawl_of_a_page_without_readable_text(
    server: LocalServer, online: WebBrowsingRuntime
) -> None:
    server.route(
        "/app",
        Reply(
            body="<html><head><title>App</title></head><body><div "
            "id=root></div><script>render()</script></body></html>"
        ),
    )
    url = server.url("/app")
    result = await online.invoke("crawlSinglePage", {"url": url})
    assert result.success
    assert result.content == f"{url}: no readable text (the page may need JavaScript)."


async def test_hostile_title_and_body_reach_the_model_inert(
    server: LocalServer, online: WebBrowsingRuntime
) -> None:
    title = "[bold]x[/] \x1b]52;c;aGk=\x07"
    server.route(
        "/evil",
        Reply(
            body=f"<html><head><title>{title}</title></head><body><p>Click "
            "\x1b]8;;https://evil.example\x1b\\here\x1b]8;;\x1b\\ "
            "now\x1b[2J</p></body></html>"
        ),
    )
    result = await online.invoke("crawlSinglePage", {"url": server.url("/evil")})
    assert result.success
    assert "\x1b" not in result.content and "\x07" not in result.content
    assert result.content.startswith("# [bold]x[/]")
    assert "Click here now" in result.content
    (page,) = result.state["results"]
    assert page["title"] == title
    assert "\x1b]8;;" in page["content"]


async def test_hostile_url_does_not_reach_the_model(online: WebBrowsingRuntime) -> None:
    result = await online.invoke("crawlSinglePage", {"url": "http://127.0.0.1/\x1b]52;c;aGk=\x07"})
    assert not result.success
    assert "\x1b" not in result.content and "\x07" not in result.content


async def test_a_gzip_gzip_bomb_page_is_cut_at_the_body_cap(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    from tests.net.bombs import gzip_gzip_bomb

    headers = {"Content-Encoding": "gzip, gzip"}
    server.route(
        "/bomb", Reply(body=gzip_gzip_bomb(64), content_type="text/plain", headers=headers)
    )
    fetcher = HttpPageFetcher(client, max_bytes=1024 * 1024)
    runtime = WebBrowsingRuntime(OfflineSearchService(), fetcher)
    result = await runtime.invoke("crawlSinglePage", {"url": server.url("/bomb")})
    (page,) = result.state["results"]
    assert page["truncated"] and page["bodyLimit"] == 1024 * 1024
    assert page["length"] == 1024 * 1024  # 64 MiB on the way, 1 MiB read.
    assert result.content.endswith(
        "[the page exceeded max_body_bytes = 1 MiB (counted after decompression); the read "
        'stopped there. Raise it with max_body_bytes = "2MiB" under [tool.workbench.limits] '
        "in pyproject.toml.]"
    )


async def test_searxng_answering_past_the_cap_names_it(
    server: LocalServer, client: httpx.AsyncClient
) -> None:
    server.route("/search", Reply(body=b"{" + b" " * 20_000, content_type="application/json"))
    service = SearxngSearchService(server.origin, client, max_bytes=4096)
    with pytest.raises(WebError) as caught:
        await service.search("anything")
    assert caught.value.error_type == "LimitExceeded"
    assert caught.value.body["cap"] == "max_body_bytes"
    assert "exceeded max_body_bytes = 4 KiB" in caught.value.message
