"""Surfaces shared by the agents' tool packages, one module per family of tools."""
