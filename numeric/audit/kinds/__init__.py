"""Kinds of positional encoding the audit certifies, and how a kind plugs in.

A *kind* says what is probed and which properties apply. It is an object with:

- `name`: the kind's name in reports (`AuditReport.kind`), e.g. `"rope"`;
- `properties`: the property names it reports, in report order (modules of `ropecheck.numeric.audit.properties`, or its
  own, each with `NAME`, `CLAIMS` and a check taking an `AuditContext`);
- `run(ctx) -> dict`: probe the target through `ctx.call` (a raise is "could not call", never a mathematical
  failure), record findings with `ctx.add`, and return the kind's header fields for `AuditReport`
  (for RoPE: layout, direction, base, base_source, rotary_dim; a kind leaves the ones it has no use for unset).

The report types (`Finding`, `AuditReport`, the verdict "pass"/"fail", exit codes 0/1/2, the JSON shape) are
shared by every kind (`ropecheck.numeric.audit.function.results`); root-cause attribution and the summary paragraph
(`ropecheck.numeric.audit.function.attribution`) work on findings only. Register a kind in `KINDS` below; `audit(...,
kind=NAME)`
selects it (default `"rope"`).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Protocol

__all__ = ["ALL_KINDS", "ENCODING_KINDS", "KINDS", "Kind", "get_kind"]


class Kind(Protocol):
    """The interface of a kind (see the module docstring)."""

    name: str
    properties: tuple[str, ...]

    def run(self, ctx: Any) -> dict[str, Any]:
        """Probe the target, record findings on `ctx`, return the report's header fields."""
        ...


#: Kind name → "module:attribute" of its instance (loaded on first use).
KINDS: dict[str, str] = {"rope": "ropecheck.numeric.audit.kinds.rope:KIND"}


def get_kind(name: str) -> Kind:
    """The kind registered under `name` (`KeyError` when none is)."""
    module, _, attribute = KINDS[name].partition(":")
    return getattr(import_module(module), attribute)


#: The kinds with their own probes and report fields (`numeric.audit.kinds.encodings`): kind → "module:function".
ENCODING_KINDS: dict[str, str] = {
    "sinusoidal": "ropecheck.numeric.audit.kinds.sinusoidal:audit_sinusoidal",
    "bias": "ropecheck.numeric.audit.kinds.bias:audit_bias",
    "scores": "ropecheck.numeric.audit.kinds.scores:audit_scores",
}

#: Every kind `audit(..., kind=...)` and `ropecheck audit --kind` accept.
ALL_KINDS: tuple[str, ...] = (*KINDS, *ENCODING_KINDS)
