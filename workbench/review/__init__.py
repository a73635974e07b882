"""Acceptance review, the pure part: what a person decided about each snapshot case.

A snapshot case is one surface drawn at a phase, width and theme. A reviewer looks at it and
accepts or rejects it; the decision names the picture it was about (a content hash), so it
stops applying the moment the case draws differently. Decisions live in one text file in the
repository (:mod:`workbench.review.decisions`); :mod:`workbench.review.board` joins them with
freshly drawn cases into what the queue, the CI gate and the reports show. No Textual here.
"""
