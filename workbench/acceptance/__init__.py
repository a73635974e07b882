"""Acceptance review, drawn: every snapshot case rendered now and set beside its committed
snapshot and the decision about it (the board), and what is made of the board: the CI gate's
JUnit and JSON, and the HTML and Markdown reports."""
