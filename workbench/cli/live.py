"""Live commands: ``workbench live`` (the TUI on real sources), ``call`` and ``tools``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from workbench.cli.output import Done, echo, echo_json, fail_usage, format_option, path_option
from workbench.core.interventions import LOG_LEVELS

if TYPE_CHECKING:
    from workbench.sources.health import SourcesReport

F = TypeVar("F", bound=Callable[..., Any])


def source_options(function: F) -> F:
    """The options every live command shares: where tools come from and how calls are approved."""
    options = [
        click.option(
            "--mcp",
            "mcp",
            multiple=True,
            metavar="COMMAND|URL",
            help="An MCP server: a command run over stdio ('python -m my_server') "
            "or a streamable-HTTP URL (repeatable).",
        ),
        path_option(
            "--config",
            "config_files",
            "An mcp.json with an mcpServers mapping (command/args/env or url/headers) "
            "(repeatable).",
            multiple=True,
        ),
        click.option(
            "--tools",
            "tool_modules",
            multiple=True,
            metavar="MODULE[:ATTR]",
            help="A Python module exposing a ToolPackage (PACKAGE, or ATTR) (repeatable).",
        ),
        path_option(
            "--skills",
            "skills",
            "A folder of SKILL.md skills to offer as a tool (repeatable).",
            directory=True,
            multiple=True,
        ),
        path_option(
            "--workspace",
            "workspace",
            "Workspace for file tools and the path-scope audit (default: the current directory).",
            directory=True,
        ),
        click.option(
            "--allow",
            "allow",
            multiple=True,
            metavar="TOOL.API",
            help="Allow-list for --approval allow-list (globs, repeatable).",
        ),
        click.option(
            "--allow-host",
            "allow_hosts",
            multiple=True,
            metavar="HOST|CIDR",
            help="Let HTTP tools reach this private address (repeatable).",
        ),
        path_option(
            "--root",
            "roots",
            "A folder MCP servers are offered as a root (roots/list; repeatable). "
            "Default: none, so no server is handed a folder you did not name.",
            directory=True,
            multiple=True,
        ),
        click.option(
            "--oauth",
            is_flag=True,
            help="Sign in to --mcp URLs that ask for it (OAuth authorization code with PKCE): "
            "the sign-in URL is printed; tokens are kept readable by you only. Client "
            'credentials and pre-registered clients: "oauth" in --config.',
        ),
        click.option(
            "--open-browser",
            is_flag=True,
            help="With --oauth: also open the sign-in page in your browser.",
        ),
        click.option(
            "--inherit-env",
            is_flag=True,
            help="Start stdio servers with this process's whole environment (API keys "
            "included). Default: only HOME, LOGNAME, PATH, SHELL, TERM and USER, plus the "
            "server's own env from --config.",
        ),
        click.option(
            "--log-level",
            type=click.Choice([*LOG_LEVELS, "off"]),
            default="info",
            show_default=True,
            help="The level MCP servers are asked to log at (logging/setLevel); off asks "
            "for nothing.",
        ),
        click.option(
            "--header",
            "headers",
            multiple=True,
            metavar="'NAME: VALUE'",
            help="An HTTP header for every --mcp URL, e.g. 'Authorization: Bearer ${TOKEN}' "
            "(${VAR} is read from the environment) (repeatable).",
        ),
        click.option(
            "--handshake-timeout",
            type=float,
            default=20.0,
            show_default=True,
            help="Seconds an MCP server has to answer the handshake.",
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


TIMEOUT_HELP = (
    "Hard limit in seconds on each call, from start to result (clamped to 1..800; default: "
    "the API's, else 120)."
)
EXTEND_HELP = (
    "Let each progress report restart the --timeout window, up to MAX seconds for the whole "
    "call (clamped to 1..800). Off by default: --timeout is a hard limit."
)


def timeout_options(function: F) -> F:
    """``--timeout`` and ``--extend-on-progress``: how long one call may run."""
    function = click.option(
        "--extend-on-progress",
        "extend_on_progress",
        type=float,
        default=None,
        metavar="MAX",
        help=EXTEND_HELP,
    )(function)
    return click.option("--timeout", type=float, default=None, metavar="S", help=TIMEOUT_HELP)(
        function
    )


def _build(
    options: dict[str, Any], *, include_demo: bool, approval: str, catalog: bool = True
) -> Any:
    from workbench.session import LiveOptions, SetupError, build_session

    try:
        return build_session(
            LiveOptions(
                mcp=options["mcp"],
                config_files=options["config_files"],
                tool_modules=options["tool_modules"],
                skills=options["skills"],
                include_demo=include_demo,
                workspace=options["workspace"],
                approval=approval,  # type: ignore[arg-type]
                allow=options["allow"],
                allow_hosts=options["allow_hosts"],
                handshake_timeout_s=options["handshake_timeout"],
                timeout_s=options.get("timeout"),
                extend_on_progress_s=options.get("extend_on_progress"),
                roots=options["roots"],
                inherit_env=options["inherit_env"],
                oauth=options["oauth"],
                open_browser=options["open_browser"],
                log_level=None if options["log_level"] == "off" else options["log_level"],
                headers=options["headers"],
                catalog=catalog,
            )
        )
    except SetupError as error:
        fail_usage(str(error))


@click.command()
@source_options
@timeout_options
@click.option("--no-demo", is_flag=True, help="Do not start the embedded demo MCP server.")
@click.option(
    "--approval",
    type=click.Choice(["manual", "allow-list", "auto-run"]),
    default="manual",
    show_default=True,
    help="When calls ask a human first.",
)
def live(no_demo: bool, approval: str, **options: Any) -> None:
    """Open the TUI in live mode: call real tools and watch every surface.

    By default: the bundled Python tools in-process and an embedded demo MCP server. Add MCP
    servers (--mcp, --config), Python toolkits (--tools) and skill folders (--skills).
    """
    session = _build(options, include_demo=not no_demo, approval=approval)
    from workbench.app.app import WorkbenchApp

    WorkbenchApp(live_session=session, screenshot_dir=session.config.screenshot_dir).run()


def _origin(session: Any, entry: Any) -> str:
    """Where a listed tool came from: its package's origin, or the source that offers it."""
    origin = session.origins.get((entry.source.name, entry.tool))
    if origin is not None:
        return str(origin)
    kinds = {"mcp": "MCP server", "http": "HTTP tools of the manifest files"}
    return f"{kinds.get(entry.source.kind, entry.source.kind)} {entry.source.name}"


def _parse_args(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        fail_usage(f"--args is not valid JSON: {error.msg} at column {error.colno}")
    if not isinstance(value, dict):
        fail_usage("--args must be a JSON object")
    return value


@click.command()
@click.argument("name", metavar="TOOL.API|FILE#VARIANT")
@click.option(
    "--args",
    "args_text",
    default=None,
    help="The arguments as a JSON object (default: {}, or the fixture variant's).",
)
@timeout_options
@format_option()
@click.option(
    "--approval",
    type=click.Choice(["headless", "auto-run", "allow-list"]),
    default="headless",
    show_default=True,
    help="headless: calls that need approval are blocked; auto-run: 'required' "
    "ones run ('always' never does).",
)
@path_option(
    "--answers",
    "answers_file",
    "Answers to what a server asks mid-call (JSON or YAML: elicitation-1, sampling-1, "
    "or elicitation/sampling for any); without it every request is declined.",
)
@click.option("--demo", is_flag=True, help="Also start the embedded demo MCP server.")
@source_options
def call(
    name: str,
    args_text: str | None,
    output_format: str,
    approval: str,
    answers_file: Path | None,
    demo: bool,
    **options: Any,
) -> None:
    """Make one call headless and print the result.

    TOOL.API names the call: for an MCP server TOOL is its key in --config, or for --mcp the
    server's own name from its handshake, slugified; SOURCE/TOOL.API is always unambiguous; a
    bare API name works when only one tool has it. FILE#VARIANT (as `workbench check` and the
    TUI print it) calls that fixture variant's API with its args, live. A server's elicitation
    or sampling request is declined unless --answers scripts it; each request and its answer is
    printed. Exit code 0 on success, 1 on a failed result, 2 on usage errors.
    """
    from workbench.config import ConfigError
    from workbench.sources.answers import ScriptedAnswers
    from workbench.sources.headless import UsageProblem, call_once

    if "#" in name:
        name, variant_args = _fixture_call(name)
        args = variant_args if args_text is None else _parse_args(args_text)
    else:
        args = _parse_args(args_text or "{}")
    answers = ScriptedAnswers()
    if answers_file is not None:
        try:
            answers = ScriptedAnswers.load(answers_file)
        except ConfigError as error:
            fail_usage("\n".join(problem.format() for problem in error.problems))
    session = _build(options, include_demo=demo, approval=approval, catalog=False)
    try:
        record = asyncio.run(call_once(session, name, args, input_gate=answers))
    except UsageProblem as error:
        fail_usage(str(error))
    state = record.state
    result = state.result
    assert result is not None
    from workbench.cli.call_report import call_payload, exchange_lines

    if output_format == "json":
        echo_json(call_payload(record, session.manager))
    else:
        echo(result.content)
        for line in exchange_lines(state):
            echo(line, err=True)
        if result.error is not None:
            echo(f"[{state.phase.value}] {result.error.type}: {result.error.message}", err=True)
    # The sources are stopped and their processes gone (call_once's finally): nothing is left.
    raise Done(0 if result.success else 1)


def _fixture_call(address: str) -> tuple[str, dict[str, Any]]:
    """``TOOL.API`` and the args of the fixture variant at ``address``."""
    from workbench.project import open_project

    catalog = open_project().catalog
    try:
        ref = catalog.resolve_ref(address)
    except LookupError as error:
        fail_usage(str(error))
    return f"{ref.tool}.{ref.api}", dict(ref.variant.args)


@click.command()
@click.option(
    "--openai",
    "as_openai",
    is_flag=True,
    help="Print the aggregated tool list as OpenAI function schemas (JSON).",
)
@format_option("Output format of the listing.")
@click.option("--demo", is_flag=True, help="Also start the embedded demo MCP server.")
@source_options
def tools(as_openai: bool, output_format: str, demo: bool, **options: Any) -> None:
    """List every tool of every source, with connection states and name conflicts."""
    # The listing shows no server log: asking servers to log (logging/setLevel) is a round
    # trip for nothing.
    options["log_level"] = "off"
    session = _build(options, include_demo=demo, approval="manual", catalog=False)

    async def gather() -> tuple[list[Any], list[dict[str, Any]], SourcesReport]:
        try:
            # Inside the try: a ctrl-c during the start must stop what did start.
            await session.manager.start()
            return session.manager.entries(), session.manager.openai_tools(), session.report()
        finally:
            await session.manager.stop()

    entries, functions, report = asyncio.run(gather())
    _print_tools(session, entries, report, functions, as_openai, output_format)
    failed = report.failed
    for source in failed:
        # A server that did not start (a 401, a crash) fails the listing: CI must not pass it.
        echo(f"workbench: {source.name} failed: {source.detail}", err=True)
    # The sources are stopped and their processes gone (gather's finally): nothing is left.
    raise Done(1 if failed else 0)


APP_ONLY_MARK = "[app only: not offered to the model]"


def _app_only(api: Any) -> bool:
    """An MCP App tool whose ``_meta.ui.visibility`` leaves the model out."""
    return api.ui is not None and not api.ui.model_visible


def _print_tools(
    session: Any,
    entries: list[Any],
    report: SourcesReport,
    functions: list[dict[str, Any]],
    as_openai: bool,
    output_format: str,
) -> None:
    conflicts = report.conflicts
    if as_openai:
        echo_json(functions)
        return
    if output_format == "json":
        listing = {
            "sources": [
                {
                    "name": source.name,
                    "state": source.state,
                    "detail": source.detail,
                    "problems": source.problems,
                }
                for source in report.sources
            ],
            "tools": [
                {
                    "source": entry.source.name,
                    "tool": entry.tool,
                    "origin": _origin(session, entry),
                    "apis": [api.name for api in entry.manifest.api],
                    # MCP Apps: APIs only the app's UI may call, never offered to the model.
                    "app_only": [api.name for api in entry.manifest.api if _app_only(api)],
                }
                for entry in entries
            ],
            "conflicts": conflicts,
            "problems": report.packages,
        }
        echo_json(listing)
        return
    for source in report.sources:
        name = source.name
        echo(f"[{source.state}] {name}" + (f" — {source.detail}" if source.detail else ""))
        for problem in source.problems:
            echo(f"    ⚠ {problem}")
        for entry in entries:
            if entry.source.name == name:
                flag = (
                    "  ⚠ conflict: also in "
                    + ", ".join(source for source in conflicts[entry.tool] if source != name)
                    if entry.tool in conflicts
                    else ""
                )
                echo(f"    {entry.tool} — {_origin(session, entry)}{flag}")
                for api in entry.manifest.api:
                    mark = f"  {APP_ONLY_MARK}" if _app_only(api) else ""
                    echo(f"      .{api.name}{mark}")
    for problem in report.packages:
        # Tool packages that did not load (a broken plugin, a bad --tools spec).
        echo(f"⚠ {problem}")
    if conflicts:
        echo(f"{len(conflicts)} name conflict(s): address them as SOURCE/TOOL.API", err=True)
