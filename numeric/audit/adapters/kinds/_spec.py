"""`KindAdapter`: one real library's sinusoidal table, bias or score function behind the audit contract."""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Callable
from typing import Any

__all__ = ["KindAdapter"]


@dataclasses.dataclass(frozen=True)
class KindAdapter:
    """A built-in target.

    **Fields:**

    - `name`: the TARGET name (`x-transformers.alibi`).
    - `kind`: `"sinusoidal"`, `"bias"` or `"scores"`.
    - `library`: the distribution name (for `--list` and the version column).
    - `module`: the import that must succeed.
    - `framework`: the framework the built callable takes and returns.
    - `builder`: `builder(dtype) -> callable` following the kind's contract.
    - `options`: the audit options the library's defaults declare.
    - `wraps`: what is called, in words (shown by `--list` and in the conformance table).
    - `table_positions`: N when the library's module holds a fixed table of N positions (audits stop at N − 1).
    """

    name: str
    kind: str
    library: str
    module: str
    framework: str
    builder: Callable[[str], Any]
    options: dict[str, Any]
    wraps: str
    table_positions: int | None = None

    def build(self, dtype: str) -> Any:
        """A fresh callable for one dtype."""
        return self.builder(dtype)

    def unavailable(self) -> str | None:
        """Why the adapter cannot run here (library missing), or None."""
        if importlib.util.find_spec(self.module.split(".")[0]) is None:
            return f"{self.library} is not installed"
        return None

    def version(self) -> str:
        """The installed version of the library, or "not installed"."""
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version(self.library)
        except PackageNotFoundError:
            return "not installed"
