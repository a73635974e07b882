"""``workbench serve``: the workbench in a browser, for reviewers who do not live in a terminal.

Each browser tab gets its own workbench process (the same command a terminal would run, so the
same approval policy), relayed over a WebSocket by textual-serve's protocol. The server is a
local dev server that can run commands, and is locked like one: :mod:`.access` (token, Host,
Origin), :mod:`.server` (routes, headers, caps), :mod:`.session_process` (processes that never
outlive their session or the server).

No Textual is imported here: the server only relays bytes; the app runs in its own process.
"""
