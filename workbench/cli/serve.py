"""``workbench serve``: the workbench (or review, or live mode) in a browser, behind a token."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import click

from workbench.cli.live import _build, source_options, timeout_options
from workbench.cli.output import echo, fail_usage

LIVE_ONLY = (
    "mcp",
    "config_files",
    "tool_modules",
    "skills",
    "workspace",
    "allow",
    "allow_hosts",
    "timeout",
    "extend_on_progress",
)
CONFIRMATION = "auto-run"


def live_args(no_demo: bool, approval: str, options: dict[str, Any]) -> list[str]:
    """The arguments of ``workbench live`` that mean what these options mean (paths made
    absolute, so the served process reads the same files whatever its directory)."""
    args = ["live", "--approval", approval]
    if no_demo:
        args.append("--no-demo")
    for value in options["mcp"]:
        args += ["--mcp", value]
    for path in options["config_files"]:
        args += ["--config", str(Path(path).resolve())]
    for value in options["tool_modules"]:
        args += ["--tools", value]
    for path in options["skills"]:
        args += ["--skills", str(Path(path).resolve())]
    if options["workspace"] is not None:
        args += ["--workspace", str(Path(options["workspace"]).resolve())]
    for value in options["allow"]:
        args += ["--allow", value]
    for value in options["allow_hosts"]:
        args += ["--allow-host", value]
    args += ["--handshake-timeout", repr(float(options["handshake_timeout"]))]
    if options["timeout"] is not None:
        args += ["--timeout", repr(float(options["timeout"]))]
    if options["extend_on_progress"] is not None:
        args += ["--extend-on-progress", repr(float(options["extend_on_progress"]))]
    return args


def broad_allow_entries(allow: Sequence[str]) -> list[str]:
    """``--allow`` globs that match every tool: an allow-list that is auto-run in disguise."""
    probes = ("\x00any-tool", "\x00any-tool.\x00any-api")
    return [entry for entry in allow if any(fnmatchcase(probe, entry) for probe in probes)]


def confirm_auto_run(reason: str) -> None:
    """Ask for the confirmation that auto-run needs besides its flag; exit 2 without it."""
    echo(
        f"workbench: warning: {reason}: anyone with the URL can then run tools whose policy "
        "says 'required' without being asked (and as you, on this machine).",
        err=True,
    )
    try:
        answer = click.prompt(
            f"Type {CONFIRMATION} to serve it anyway", default="", show_default=False, err=True
        )
    except click.Abort:
        answer = ""
    if answer.strip() != CONFIRMATION:
        fail_usage(f"not confirmed: serve without {reason.split(':')[0]} or type {CONFIRMATION}")


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Anything but loopback also needs --expose.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    help="Port to listen on (default: a free one).",
)
@click.option(
    "--expose",
    is_flag=True,
    help="Allow a --host other than loopback: other machines can reach the server (plain "
    "HTTP, not encrypted; the token is the only key).",
)
@click.option(
    "--host-alias",
    "host_aliases",
    multiple=True,
    metavar="NAME[:PORT]",
    help="Another name browsers reach this server by (a DNS name, a proxy in front), "
    "accepted in the Host header (repeatable).",
)
@click.option(
    "--max-sessions",
    type=click.IntRange(1, 64),
    default=8,
    show_default=True,
    help="Browser tabs served at once (each runs its own workbench process).",
)
@click.option("--review", is_flag=True, help="Serve review mode (`workbench review`).")
@click.option(
    "--live",
    "live_mode",
    is_flag=True,
    help="Serve live mode (`workbench live`): reviewers can call tools, under the same "
    "approval policy as in a terminal.",
)
@click.option(
    "--fixtures",
    "fixture_paths",
    multiple=True,
    type=click.Path(path_type=Path, exists=True),
    help="Fixture file or directory to serve instead of the configured ones (repeatable).",
)
@click.option(
    "--approval",
    type=click.Choice(["manual", "allow-list", "auto-run"]),
    default=None,
    help="With --live: when calls ask first (default manual). auto-run also asks you to confirm.",
)
@click.option("--no-demo", is_flag=True, help="With --live: no embedded demo MCP server.")
@source_options
@timeout_options
def serve(
    host: str,
    port: int,
    expose: bool,
    host_aliases: tuple[str, ...],
    max_sessions: int,
    review: bool,
    live_mode: bool,
    fixture_paths: tuple[Path, ...],
    approval: str | None,
    no_demo: bool,
    **options: Any,
) -> None:
    """Serve the workbench to a browser, behind a random token.

    Prints a URL that carries the token; the page keeps it in the tab (never in a cookie,
    which every port of the host would receive) and a session without it is refused, as is
    any request whose Host or Origin is not this server. Listens on 127.0.0.1 unless told
    otherwise with --host and --expose. Each browser tab runs its own workbench process;
    ctrl+c stops them all.
    """
    from workbench.serve.access import is_loopback
    from workbench.serve.session_process import workbench_argv

    if review and live_mode:
        fail_usage("--review and --live are two different modes: pick one")
    if not live_mode:
        given = [name for name in LIVE_ONLY if options[name] not in ((), None)]
        if approval is not None or no_demo or given:
            names = [f"--{name.replace('_', '-')}" for name in given]
            names += ["--approval"] * (approval is not None) + ["--no-demo"] * no_demo
            fail_usage(f"{', '.join(names)} only apply to --live")
    if fixture_paths and (review or live_mode):
        fail_usage("--fixtures applies to the fixture workbench only (not --review or --live)")
    host = "127.0.0.1" if host.lower() == "localhost" else host.strip("[]")
    if not is_loopback(host) and not expose:
        fail_usage(
            f"--host {host} is reachable from other machines: add --expose to mean it "
            "(or keep 127.0.0.1 and use an SSH tunnel)"
        )

    title = "Workbench"
    if review:
        context = click.get_current_context().find_root()
        root = context.command
        if not isinstance(root, click.Group) or root.get_command(context, "review") is None:
            fail_usage("--review serves `workbench review`, which this version does not have")
        argv = workbench_argv("review")
        title = "Workbench review"
    elif live_mode:
        approval = approval or "manual"
        # Fail here, once, on options the served processes would fail on in every tab.
        _build(options, include_demo=not no_demo, approval=approval)
        broad = broad_allow_entries(options["allow"]) if approval == "allow-list" else []
        if approval == "auto-run":
            confirm_auto_run("--approval auto-run")
        elif broad:
            confirm_auto_run(f"--allow {broad[0]}: it allow-lists every tool")
        argv = workbench_argv(*live_args(no_demo, approval, options))
        title = "Workbench live"
    else:
        paths = [str(path.resolve()) for path in fixture_paths]
        argv = workbench_argv(*(arg for path in paths for arg in ("--fixtures", path)))

    if expose:
        echo(
            f"workbench: warning: serving on {host} to other machines, over plain HTTP: whoever "
            "has the URL can use this workbench, and anyone on the way can read the URL.",
            err=True,
        )
    _run(argv, host, port, host_aliases, max_sessions, title)


def _run(
    argv: list[str],
    host: str,
    port: int,
    host_aliases: tuple[str, ...],
    max_sessions: int,
    title: str,
) -> None:
    from workbench.serve.server import WorkbenchServer, serve_until_stopped

    server = WorkbenchServer(
        argv,
        host=host,
        port=port,
        title=title,
        host_aliases=host_aliases,
        max_sessions=max_sessions,
    )

    def announce(server: WorkbenchServer) -> None:
        for url in server.urls():
            echo(f"Workbench served at {url}")
        command = " ".join(["workbench", *argv[3:]])
        echo(f"  serving: {command} (one process per browser tab, at most {max_sessions})")
        echo("  ctrl+c stops it")
        sys.stdout.flush()

    try:
        asyncio.run(serve_until_stopped(server, announce))
    except OSError as error:
        fail_usage(f"cannot listen on {host}:{port}: {error.strerror or error}")
    if server.refusals:
        counts = ", ".join(
            f"{count} {refusal.name.lower().replace('_', ' ')}"
            for refusal, count in server.refusals.most_common()
        )
        echo(f"workbench serve: refused {server.refusals.total()} requests ({counts})", err=True)
