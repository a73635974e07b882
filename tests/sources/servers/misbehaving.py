"""A real stdio MCP server for the tests, with tools that misbehave on purpose.

python misbehaving.py [--garbage-first] [--exit-before-handshake CODE] [--marker FILE]
"""

import argparse
import os
import sys
import time

import anyio
from mcp.server.mcpserver import Context, MCPServer

parser = argparse.ArgumentParser()
parser.add_argument("--garbage-first", action="store_true")
parser.add_argument("--exit-before-handshake", type=int, default=None)
parser.add_argument("--marker", default=None, help="file written when a call is cancelled")
options = parser.parse_args()

if options.exit_before_handshake is not None:
    print("fatal: config file missing (pretend)", file=sys.stderr, flush=True)
    sys.exit(options.exit_before_handshake)

if options.garbage_first:
    # Not JSON-RPC: the client must log it and carry on.
    sys.stdout.write("this is not json\n{broken json\n")
    sys.stdout.flush()

server = MCPServer("Misbehaving Server", log_level="ERROR")


@server.tool(structured_output=False)
def ok(text: str = "fine") -> str:
    return f"ok: {text}"


@server.tool(structured_output=False)
def getenv(name: str) -> str:
    return os.environ.get(name, "<unset>")


@server.tool(structured_output=False)
async def crash_mid_call(after: float = 0.2) -> str:
    await anyio.sleep(after)
    os._exit(7)


@server.tool(structured_output=False)
async def hang() -> str:
    try:
        await anyio.sleep(3600)
    except anyio.get_cancelled_exc_class():
        if options.marker:
            with open(options.marker, "w") as handle:
                handle.write(f"interrupted at {time.time()}\n")
        raise
    return "never"


@server.tool(structured_output=False)
def huge(megabytes: int = 3) -> str:
    line = "x" * 99 + "\n"
    return line * (megabytes * 10_000)


@server.tool(structured_output=False)
async def slow_progress(ctx: Context, steps: int = 6, delay: float = 0.3) -> str:
    for index in range(steps):
        await ctx.report_progress(index + 1, steps, f"step {index + 1}")
        await anyio.sleep(delay)
    return f"finished {steps} steps"


if __name__ == "__main__":
    server.run()
