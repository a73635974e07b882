"""The Textual app: thin UI over the pure core."""
