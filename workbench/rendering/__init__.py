"""Drawing a call's surfaces off screen: the case matrix, the renderer, text and SVG export.

The snapshot tests, the audit and review all draw through this package, so what a reviewer
accepts, what the audit checks and what CI compares are the same pixels.
"""
