"""Placeholder."""

ADAPTERS: list = []
