"""``workbench resources`` and ``workbench prompts``: what MCP servers publish, headless.

The TUI shows a server's resources, templates and prompts; these commands list them, read
one resource or render one prompt for scripts and CI, with the exit codes of ``call``: 0 when
it worked, 1 when a server failed or answered with an error, 2 for a usage error.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import click

from workbench.cli.live import _build, source_options
from workbench.cli.output import echo, echo_json, fail_usage, format_option
from workbench.sources.base import SourceState, SourceStatus

if TYPE_CHECKING:
    from workbench.core.mcp_catalog import ContentPart, PromptRender, ResourceRead
    from workbench.session import LiveSession
    from workbench.sources.mcp_source import McpSource

T = TypeVar("T")


class _Answer(Protocol):
    @property
    def error(self) -> str | None: ...


A = TypeVar("A", bound=_Answer)
_STATUSES: dict[int, SourceStatus] = {}
"""Each source's status while it was connected, by ``id``."""


def _status(source: McpSource) -> SourceStatus:
    return _STATUSES.get(id(source), source.status)


def _ready(source: McpSource) -> bool:
    """The server was connected (an empty listing is then an answer, not a failure)."""
    return _status(source).state is SourceState.READY


FORMAT_OPTION = format_option()
SERVER_OPTION = click.option(
    "--server",
    metavar="NAME",
    default=None,
    help="The MCP server to ask (its TOOL name; default: the one that lists it, or the only one).",
)
DEMO_OPTION = click.option("--demo", is_flag=True, help="Also start the embedded demo MCP server.")


@click.command()
@click.option("--read", "uri", metavar="URI", default=None, help="Read this resource.")
@SERVER_OPTION
@FORMAT_OPTION
@DEMO_OPTION
@source_options
def resources(
    uri: str | None, server: str | None, output_format: str, demo: bool, **options: Any
) -> None:
    """List the MCP servers' resources and templates, or read one resource (--read URI)."""
    session = _session(options, demo)

    async def work(sources: list[McpSource]) -> ResourceRead | None:
        if uri is None:
            return None
        chosen = _pick(sources, server, lambda source: _lists_resource(source, uri), uri)
        return await chosen.read_resource(uri)

    sources, read = _run(session, work)
    _finish(sources, read, output_format, _print_resources, _read_json, _read_lines)


@click.command()
@click.option("--get", "name", metavar="NAME", default=None, help="Render this prompt.")
@click.option(
    "--args",
    "args_text",
    metavar="JSON",
    default=None,
    help='The prompt\'s arguments as a JSON object of strings: \'{"code": "x = 1"}\'.',
)
@SERVER_OPTION
@FORMAT_OPTION
@DEMO_OPTION
@source_options
def prompts(
    name: str | None,
    args_text: str | None,
    server: str | None,
    output_format: str,
    demo: bool,
    **options: Any,
) -> None:
    """List the MCP servers' prompts, or render one (--get NAME --args JSON)."""
    if args_text is not None and name is None:
        fail_usage("--args goes with --get NAME")
    arguments = _prompt_arguments(args_text)
    session = _session(options, demo)

    async def work(sources: list[McpSource]) -> PromptRender | None:
        if name is None:
            return None
        chosen = _pick(
            sources, server, lambda source: any(p.name == name for p in source.prompts), name
        )
        known = next((p for p in chosen.prompts if p.name == name), None)
        missing = (
            [a.name for a in known.arguments if a.required and a.name not in arguments]
            if known
            else []
        )
        if missing:
            fail_usage(f"prompt {name!r} needs --args with {', '.join(missing)}")
        return await chosen.get_prompt(name, arguments)

    sources, rendered = _run(session, work)
    _finish(sources, rendered, output_format, _print_prompts, _render_json, _render_lines)


def _session(options: dict[str, Any], demo: bool) -> LiveSession:
    options["log_level"] = "off"  # nothing here shows a server log: no setLevel round trip
    session: LiveSession = _build(options, include_demo=demo, approval="manual", catalog=True)
    return session


def _run(
    session: LiveSession, work: Callable[[list[McpSource]], Awaitable[T]]
) -> tuple[list[McpSource], T]:
    from workbench.sources.mcp_source import McpSource

    async def run() -> tuple[list[McpSource], T]:
        await session.manager.start()
        sources = [s for s in session.manager.sources if isinstance(s, McpSource)]
        try:
            return sources, await work(sources)
        finally:
            # Listed as they were while connected, not as stopping leaves them.
            _STATUSES.update({id(s): s.status for s in sources})
            await session.manager.stop()

    return asyncio.run(run())


def _pick(
    sources: list[McpSource], server: str | None, lists_it: Callable[[McpSource], bool], what: str
) -> McpSource:
    """The server to ask: the one named, else the one that lists ``what``, else the only one."""
    if not sources:
        fail_usage("no MCP server: add one with --mcp, --config or --demo")
    if server is not None:
        for source in sources:
            if server == source.name:
                return source
        names = ", ".join(source.name for source in sources)
        fail_usage(f"no MCP server named {server!r} (servers: {names})")
    listing = [source for source in sources if lists_it(source)]
    if len(listing) == 1:
        return listing[0]
    if len(listing) > 1:
        names = ", ".join(source.name for source in listing)
        fail_usage(f"{what!r} is offered by several servers ({names}): choose one with --server")
    ready = [source for source in sources if source.status.state is SourceState.READY]
    if len(ready) == 1:
        return ready[0]
    fail_usage(f"no server lists {what!r}: choose one with --server")


def _lists_resource(source: McpSource, uri: str) -> bool:
    if any(resource.uri == uri for resource in source.resources):
        return True
    # A template lists a family: demo://chapters/{number} offers demo://chapters/3.
    return any(
        uri.startswith(template.uri_template.split("{", 1)[0])
        for template in source.templates
        if "{" in template.uri_template
    )


def _prompt_arguments(text: str | None) -> dict[str, str]:
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        fail_usage(f"--args is not valid JSON: {error.msg} at column {error.colno}")
    if not isinstance(value, dict) or not all(isinstance(item, str) for item in value.values()):
        fail_usage("--args must be a JSON object of strings (prompt arguments are text)")
    return value


def _part_json(part: ContentPart) -> dict[str, Any]:
    return {
        "uri": part.uri,
        "mimeType": part.mime_type or None,
        "text": part.text,
        "characters": part.chars if part.text is not None else None,
        "bytes": part.size if part.text is None else None,
        "truncated": part.truncated,
        "description": part.describe(),
    }


def _finish(
    sources: list[McpSource],
    answer: A | None,
    output_format: str,
    print_listing: Callable[[list[McpSource], str], None],
    as_json: Callable[[A], dict[str, Any]],
    as_lines: Callable[[A], Iterator[str]],
) -> None:
    """Print what the servers publish (no ``answer`` was asked for) or the one ``answer``,
    then exit 1 when a server failed or answered with an error."""
    if answer is None:
        print_listing(sources, output_format)
        _exit_on_failures(sources)
        return
    if output_format == "json":
        echo_json(as_json(answer))
    elif answer.error is None:
        for line in as_lines(answer):
            echo(line)
    if answer.error is not None:
        echo(f"workbench: {answer.error}", err=True)
        raise SystemExit(1)


def _read_json(read: ResourceRead) -> dict[str, Any]:
    return {"uri": read.uri, "error": read.error, "parts": [_part_json(p) for p in read.parts]}


def _read_lines(read: ResourceRead) -> Iterator[str]:
    for part in read.parts:
        if len(read.parts) > 1:
            yield f"── {part.uri} ({part.describe()})"
        yield part.text if part.text is not None else f"[{part.describe()}]"
        if part.truncated:
            yield f"… showing {len(part.text or ''):,} of {part.chars:,} characters"


def _render_json(rendered: PromptRender) -> dict[str, Any]:
    return {
        "name": rendered.name,
        "arguments": rendered.arguments,
        "description": rendered.description,
        "messages": [{"role": m.role, "text": m.text} for m in rendered.messages],
        "error": rendered.error,
    }


def _render_lines(rendered: PromptRender) -> Iterator[str]:
    for message in rendered.messages:
        yield f"── {message.role}"
        yield message.text


def _status_line(source: McpSource) -> str:
    status = _status(source)
    detail = status.detail
    return f"[{status.state.value}] {source.name}" + (f" — {detail}" if detail else "")


def _servers_json(sources: list[McpSource], listing: Callable[[McpSource], dict[str, Any]]) -> None:
    """Each server's state and what ``listing`` says it publishes, as JSON."""
    servers = []
    for source in sources:
        status = _status(source)
        about = {"server": source.name, "state": status.state.value, "detail": status.detail}
        servers.append({**about, **listing(source)})
    echo_json({"servers": servers})


def _some(value: str) -> str | None:
    return value or None


def _print_resources(sources: list[McpSource], output_format: str) -> None:
    if output_format == "json":
        _servers_json(
            sources,
            lambda source: {
                "resources": [
                    {
                        "uri": r.uri,
                        "name": r.name,
                        "title": _some(r.title),
                        "mimeType": _some(r.mime_type),
                        "description": _some(r.description),
                    }
                    for r in source.resources
                ],
                "templates": [
                    {
                        "uriTemplate": t.uri_template,
                        "name": t.name,
                        "description": _some(t.description),
                    }
                    for t in source.templates
                ],
            },
        )
        return
    for source in sources:
        echo(_status_line(source))
        for resource in source.resources:
            kind = f"  {resource.mime_type}" if resource.mime_type else ""
            about = f"  {resource.description}" if resource.description else ""
            echo(f"    {resource.uri}{kind}{about}")
        for template in source.templates:
            about = f"  {template.description}" if template.description else ""
            echo(f"    {template.uri_template}  (template){about}")
        if _ready(source) and not (source.resources or source.templates):
            echo("    (no resources)")


def _print_prompts(sources: list[McpSource], output_format: str) -> None:
    if output_format == "json":
        _servers_json(
            sources,
            lambda source: {
                "prompts": [
                    {
                        "name": p.name,
                        "title": _some(p.title),
                        "description": _some(p.description),
                        "arguments": [
                            {
                                "name": a.name,
                                "required": a.required,
                                "description": _some(a.description),
                            }
                            for a in p.arguments
                        ],
                    }
                    for p in source.prompts
                ]
            },
        )
        return
    for source in sources:
        echo(_status_line(source))
        for prompt in source.prompts:
            arguments = ", ".join(a.name + ("*" if a.required else "") for a in prompt.arguments)
            about = f"  {prompt.description}" if prompt.description else ""
            echo(f"    {prompt.name}({arguments}){about}")
        if _ready(source) and not source.prompts:
            echo("    (no prompts)")


def _exit_on_failures(sources: list[McpSource]) -> None:
    failed = [source for source in sources if _status(source).state is SourceState.FAILED]
    if failed:
        for source in failed:
            echo(f"workbench: {source.name} failed: {_status(source).detail}", err=True)
        raise SystemExit(1)
