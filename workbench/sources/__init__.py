"""Live tool sources: things that can run a tool call and report its events."""
