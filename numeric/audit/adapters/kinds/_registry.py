"""The built-in targets of the three kinds (x-transformers, transformers, keras-hub), found by name."""

from __future__ import annotations

from ropecheck.numeric.audit.adapters.kinds._spec import KindAdapter

__all__ = ["find_adapter", "list_kind_adapters"]


def list_kind_adapters() -> list[KindAdapter]:
    """Every built-in target of the three kinds, in a stable order (their libraries load on this first call)."""
    from ropecheck.numeric.audit.adapters.kinds import _keras_hub, _transformers, _x_transformers

    return [*_x_transformers.ADAPTERS, *_transformers.ADAPTERS, *_keras_hub.ADAPTERS]


def find_adapter(name: str) -> KindAdapter | None:
    """The built-in target of that name, or None."""
    if ":" in name:
        return None
    try:
        adapters = list_kind_adapters()
    except ImportError:
        return None
    return next((adapter for adapter in adapters if adapter.name == name), None)
