"""The coding agents' own tools (Claude Code, Codex, gemini-cli) as UI-only tool packages.

Each package has the manifest of the agent's documented tool inputs and surfaces for every
phase, and no runtime: the tools run inside the agent, and Workbench only draws the calls an
imported session made. They are built on :mod:`workbench.api` alone, like any outside package.
:mod:`workbench.tools.agent_packages` offers them to every project.
"""

AGENT_TOOL_MODULES: tuple[str, ...] = (
    "workbench.agents.claude_code",
    "workbench.agents.codex",
    "workbench.agents.gemini_cli",
)
