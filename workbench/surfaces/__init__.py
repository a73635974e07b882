"""Surfaces: the registry, generic fallbacks, crash boundary and card composition (Rich only)."""
