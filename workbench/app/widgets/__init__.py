"""Workbench widgets, one per module."""
