"""What a built-in target declares by itself: the base and scaling its library builds with by default.

`ropecheck audit NAME` (and `audit("NAME")`) audits a built-in against these unless the user declares otherwise —
the same reference `--all` uses — so a built-in that passes in the conformance table also passes alone. `--list`
prints them (`list_defaults`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["builtin_defaults", "list_defaults"]


def builtin_defaults(adapter: Any) -> tuple[float | None, str | None]:
    """(base, scaling spec) a RoPE adapter builds with when nothing is declared (its library's defaults).

    **Arguments:**

    - `adapter`: an `AdapterSpec` (`numeric.audit.adapters`).

    **Returns:**

    `(default_base, scaling spec or None)`.
    """
    from ropecheck.numeric.audit.function.scaling import scaling_spec

    return float(adapter.default_base), scaling_spec(adapter.default_scaling)


def list_defaults(adapter: Any) -> str:
    """The defaults of one built-in in a few words for `--list` (factor lists shortened)."""
    options: dict[str, Any] | None = getattr(adapter, "options", None)
    if options is not None:  # a kind adapter (sinusoidal, bias): its declared options
        return ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in options.items()) or "—"
    base, scaling = builtin_defaults(adapter)
    words = [f"base {base:g}"]
    if scaling:
        words.append(",".join(part for part in scaling.split(",") if not part.startswith(("short=", "long="))))
    return ", ".join(words)
