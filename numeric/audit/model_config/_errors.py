"""The one error a config reader raises (a one-line message the command line prints, exit 2)."""

from __future__ import annotations

__all__ = ["ConfigError"]


class ConfigError(ValueError):
    """A config that cannot be read: missing file, invalid JSON, unknown rope type, a bad value (one line)."""
