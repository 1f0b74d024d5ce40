"""Small helpers shared by the three kinds: dtype lists, side-effect probes, fixed-seed positions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from ropecheck.numeric.audit.function.calls import AuditError, Caller, CallFailed, TargetHung
from ropecheck.numeric.audit.kinds._calls import call_framework, convert, framework_copy
from ropecheck.numeric.reference import tolerances

__all__ = ["SEED", "check_dtypes", "modifies_arguments", "precision_order", "random_positions", "sentence"]

#: Every random probe of the three kinds comes from this seed (reports are reproducible).
SEED = 20240611
_ORDER = ("float64", "float32", "float16", "bfloat16")


def contract_each_dtype(
    session: Any,
    wanted: Sequence[str],
    contract: Callable[[Any, str | None], dict[str, Any]],
    on_supported: Callable[[str, Any, dict[str, Any]], None],
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Run a kind's contract probe in every requested dtype (once, dtype-less, when the target does not take a
    dtype) and hand each supported dtype to `on_supported(label, caller, outcome)`.

    **Returns:** `(dtype_info, usable)`: per dtype label its status (and reason), and the labels that passed.
    """
    dtype_info: dict[str, dict[str, Any]] = {}
    usable: list[str] = []
    for dtype in wanted if session.controls_dtype else (None,):
        caller = session.caller(dtype)
        reason = caller.supports(dtype) if dtype else None
        if reason:
            dtype_info[str(dtype)] = {"status": "unsupported", "reason": reason}
            continue
        outcome = contract(caller, dtype)
        label = outcome.get("dtype", str(dtype))
        dtype_info[label] = outcome
        if outcome["status"] == "supported":
            usable.append(label)
            on_supported(label, caller, outcome)
    return dtype_info, usable


def check_dtypes(dtypes: Sequence[str] | str) -> tuple[str, ...]:
    """Parse `float32,bfloat16` or a sequence; `AuditError` for an unknown name or an empty list."""
    names = [part.strip() for part in dtypes.split(",")] if isinstance(dtypes, str) else list(dtypes)
    names = [name for name in names if name]
    if not names:
        raise AuditError("--dtypes needs at least one dtype")
    for name in names:
        if name not in tolerances.DTYPES:
            raise AuditError(f"unknown dtype {name!r} in --dtypes; known: {', '.join(tolerances.DTYPES)}")
    return tuple(dict.fromkeys(names))


def precision_order(dtype: str) -> int:
    """Sort key: the most precise dtype first (unknown names last)."""
    return _ORDER.index(dtype) if dtype in _ORDER else len(_ORDER)


def modifies_arguments(caller: Caller, probe: tuple[Any, ...]) -> bool:
    """Whether a call changes one of its (framework) arguments in place."""
    arguments = [convert(caller, value) for value in probe]
    before = [framework_copy(argument) for argument in arguments]
    try:
        call_framework(caller, arguments)
    except CallFailed:
        return False
    except TargetHung as error:
        raise AuditError(str(error)) from None
    return any(not np.array_equal(old, framework_copy(new), equal_nan=True) for old, new in zip(before, arguments,
                                                                                                 strict=True))


def random_positions(count: int, high: int = 1 << 14, seed: int = SEED) -> np.ndarray:
    """`count` distinct sorted positions below `high`, from the fixed seed."""
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(high, size=min(count, high), replace=False)).astype(np.int64)


def unit_roundoff(dtype: str) -> float:
    """u of a dtype name (float64 for an unknown one: conservative for comparisons of a target with itself)."""
    return tolerances.unit_roundoff(dtype) if dtype in tolerances.DTYPES else tolerances.unit_roundoff("float32")


def sentence(text: str) -> str:
    """The text with its first letter upper-cased (the rest untouched, unlike `str.capitalize`)."""
    return text[:1].upper() + text[1:]
