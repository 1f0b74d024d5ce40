"""The errors `audit-config` reports as such (a one-line message the command line prints, exit 2): a config that
cannot be read, and a failure inside ropecheck's own engine adapter code (never blamed on the engine)."""

from __future__ import annotations

__all__ = ["AdapterError", "ConfigError"]


class ConfigError(ValueError):
    """A config that cannot be read: missing file, invalid JSON, unknown rope type, a bad value (one line)."""


class AdapterError(RuntimeError):
    """A failure inside ropecheck's own adapter code while driving an engine: ropecheck's bug, to be reported."""
