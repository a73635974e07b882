"""``workbench hosts``: the host profiles a project sees, with the source of every number."""

from __future__ import annotations

import click

from workbench.cli.output import echo, echo_json


@click.command()
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text")
def hosts(output_format: str) -> None:
    """List the host profiles (bundled and the project's own), the project's targets and
    each rule's source. A broken profile is reported as ``file:line: field: message``, exit 1."""
    from workbench.config import load_config
    from workbench.hosts import load_hosts

    host_set = load_hosts(load_config())
    if output_format == "json":
        echo_json(
            {
                "targets": list(host_set.targets),
                "hosts": {
                    name: {**profile.model_dump(mode="json"), "origin": host_set.origins[name]}
                    for name, profile in sorted(host_set.profiles.items())
                },
                "problems": [problem.to_json() for problem in host_set.problems],
            }
        )
    else:
        for name, profile in sorted(host_set.profiles.items()):
            target = " (targeted)" if name in host_set.targets else ""
            echo(f"{name}{target}: {profile.title}, {profile.version}")
            rule = profile.model
            caps = " or ".join(cap.describe() for cap in rule.caps) or "no cap"
            echo(f"  model: {caps}; reads the {rule.reads}; cuts {', '.join(rule.applies_to)}")
            for cap in rule.caps:
                echo(f"    {cap.describe()}: {cap.source}")
            if profile.user is None:
                echo(f"  user:  {profile.user_note or 'the whole card'}")
            else:
                user = profile.user
                echo(
                    f"  user:  first {user.head} and last {user.tail} lines, "
                    f"then {user.elision!r}; expand: {user.expand}"
                )
                echo(f"    {user.source}")
        for problem in host_set.problems:
            echo(f"workbench: error: {problem.format()}", err=True)
    if host_set.problems:
        raise SystemExit(1)
