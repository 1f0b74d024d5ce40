"""State: results depend neither on earlier calls nor on other instances (ROPE-KV-CACHE-REUSE)."""

from __future__ import annotations

import dataclasses

import numpy as np
from ropecheck.numeric.audit import policy
from ropecheck.numeric.audit.calls import AuditError, CallFailed, one_line
from ropecheck.numeric.audit.context import AuditContext
from ropecheck.numeric.audit.extract import (
    sweep_probes,
)
from ropecheck.numeric.audit.ideal import (
    Ideal,
    bound_ratio,
    half_pairs,
    interleaved_pairs,
    largest,
    layout_of,
    round_to,
    scaling_factor,
    structure_of,
)
from ropecheck.numeric.audit.options import PRECISION_ORDER, SMALL_POSITIONS
from ropecheck.numeric.audit.scaling import Scaling

__all__ = ["CLAIMS", "NAME"]

NAME = "state"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-KV-CACHE-REUSE",)


def check_state(ctx: AuditContext, ideal: Ideal, dtypes: list[str], primary: str) -> None:
    """Results must not depend on earlier calls or on other instances (ROPE-KV-CACHE-REUSE).

    Two checks: (1) the contract's first input, called again after every other call of the audit, gives the
    same output (two outputs of the target compared with each other, so a library's own precision is not
    charged here); (2) where instances can be built (built-ins, factory classes), a second configuration —
    another base, another scaling (built-ins with a scaling), another head size — is built and called in the
    same process in both orders (first, then second, then first again; and second, then a fresh first), and
    every output is checked against its own configuration's reference.

    Check (2) is judged in the highest-precision dtype whose precision property passed, under the same policy
    bound; when precision failed in every dtype, a deviation counts only beyond four times the one the audited
    configuration itself shows on the same probes, so float32-formed angles are reported once, under
    spectrum and precision, and not again as state.
    """
    problems: list[str] = []
    for dtype in dtypes:
        x, positions, y = ctx.contract_outputs[dtype]
        try:
            again, _ = ctx.session.caller(dtype).call(x, positions, dtype)
        except CallFailed as error:
            problems.append(f"{dtype}: the first call's input now raises {error.reason}")
            continue
        _, bound = ctx.loose_bound(x, positions, dtype)
        gap = np.abs(again - y)
        if np.any(bound_ratio(gap, bound) > 1) or (np.isnan(y) != np.isnan(again)).any():
            problems.append(
                f"{dtype}: the first call's input (positions 0…{int(positions[-1])}) gives a different output"
                f" after the audit's other calls (by {largest(gap):.3g}): an earlier call left state behind"
            )
    detail_other = "the target is a plain function: other instances were not tested"
    if ctx.session.can_rebuild:
        detail_other = other_configurations(ctx, ideal, dtypes, primary, problems)
    ok = not problems
    detail = (
        f"Results do not depend on earlier calls; {detail_other}."
        if ok
        else "Results depend on state: " + "; ".join(problems) + "."
    )
    ctx.add(
        "state",
        ok,
        detail,
        fix="key every cache by everything the rotation depends on (base, scaling, head size, dtype, device)",
    )


def state_dtype(ctx: AuditContext, dtypes: list[str], primary: str) -> tuple[str, bool]:
    """(dtype the configurations are compared in, whether its precision property passed)."""
    passed = {f.dtype for f in ctx.findings if f.property == "precision" and f.ok}
    for dtype in PRECISION_ORDER:
        if dtype in dtypes and dtype in passed:
            return dtype, True
    return primary, False


def configurations(ctx: AuditContext, ideal: Ideal) -> list[tuple[str, float | None, Scaling | None, int, Ideal]]:
    """The second configurations: (label, base to build with, scaling, head size, its reference)."""
    options = ctx.options
    other_base = 500000.0 if ideal.base < 100000 else 10000.0
    out = [
        (
            f"base {other_base:g}",
            other_base,
            options.scaling,
            ctx.d,
            dataclasses.replace(
                ideal, base=other_base, theta_units=policy.frequency_error_units(other_base, scaling_factor(ideal))
            ),
        )
    ]
    if ctx.session.can_rescale and options.scaling is not None:
        scaling = dataclasses.replace(options.scaling, factor=2 * options.scaling.factor, short=None, long=None)
        units = policy.frequency_error_units(ideal.base, scaling.factor)
        other = dataclasses.replace(ideal, scaling=scaling, theta_units=units)
        out.append((f"scaling {scaling.spec()}", options.base, scaling, ctx.d, other))
    layout = layout_of(ideal)
    if ctx.session.can_resize and ideal.passthrough.size == 0 and layout and ctx.d >= 16:
        half = ctx.d // 2 + (ctx.d // 2) % 2
        pairs = (half_pairs if layout == "half" else interleaved_pairs)(half)
        other = dataclasses.replace(ideal, d=half, pairs=pairs, passthrough=np.arange(half, half))
        out.append((f"head size {half}", options.base, options.scaling, half, other))
    return out


def other_configurations(ctx: AuditContext, ideal: Ideal, dtypes: list[str], primary: str, problems: list[str]) -> str:
    """Build the audited configuration A and each second configuration B in both orders; check each output
    against its own reference (see `state`). Returns the passing summary."""
    dtype, precise = state_dtype(ctx, dtypes, primary)
    positions = np.arange(min(SMALL_POSITIONS, ctx.n))
    labels = []
    for label, base, scaling, head_dim, reference in configurations(ctx, ideal):
        labels.append(label)
        try:
            first = ctx.session.rebuilt(dtype, ctx.options.base, ctx.options.scaling, ctx.d)
            second = ctx.session.rebuilt(dtype, base, scaling, head_dim)
            second_fresh = ctx.session.rebuilt(dtype, base, scaling, head_dim)
        except AuditError as error:
            problems.append(f"an instance with {label} cannot be built: {error}")
            continue
        except Exception as error:
            problems.append(f"an instance with {label} cannot be built: {one_line(error)}")
            continue
        x_a = state_probes(ideal, positions, dtype)
        x_b = state_probes(reference, positions, dtype)
        try:
            # Order 1: A, then B, then A again.
            y_a = first.call(x_a, positions, dtype)[0]
            y_b = second.call(x_b, positions, dtype)[0]
            y_a_again = first.call(x_a, positions, dtype)[0]
            # Order 2: B (fresh), then a fresh A.
            y_b_first = second_fresh.call(x_b, positions, dtype)[0]
            first_after = ctx.session.rebuilt(dtype, ctx.options.base, ctx.options.scaling, ctx.d)
            y_a_after = first_after.call(x_a, positions, dtype)[0]
        except CallFailed as error:
            problems.append(f"an instance with {label} raised {error.reason}")
            continue
        expected_a, bound_a = ideal.expected(x_a, positions, dtype)
        expected_b, bound_b = reference.expected(x_b, positions, dtype)
        own = float(bound_ratio(np.abs(y_a - expected_a), bound_a).max())
        allowed = 1.0 if precise else max(1.0, 4 * own)
        for y, order in ((y_b, "built and called after the audited one"), (y_b_first, "built first")):
            ratio = bound_ratio(np.abs(y - expected_b), bound_b)
            if ratio.max() > allowed:
                gap = largest(np.abs(y - expected_b))
                text = f"an instance with {label} ({order}) does not rotate by its own θ (off by {gap:.3g})"
                if label.startswith(("base", "scaling")):
                    as_first = bound_ratio(np.abs(y - ideal.expected(x_b, positions, dtype)[0]), bound_b)
                    if as_first.max() <= allowed:
                        text += ": it returns the audited configuration's rotation — a cache shared across"
                        text += " instances, keyed without the " + label.split()[0]
                problems.append(text)
        _, loose = ctx.loose_bound(x_a, positions, dtype)
        if np.any(bound_ratio(np.abs(y_a_again - y_a), loose) > 1):
            problems.append(f"calling an instance with {label} changed an earlier instance's output")
        if bound_ratio(np.abs(y_a_after - expected_a), bound_a).max() > allowed:
            gap = largest(np.abs(y_a_after - expected_a))
            problems.append(
                f"an instance of the audited configuration built after one with {label} does not rotate by its"
                f" own θ (off by {gap:.3g})"
            )
    judged = (
        f"judged in {dtype} under the precision policy"
        if precise
        else f"judged in {dtype} against the audited configuration's own deviation (precision fails in every dtype)"
    )
    return (
        f"instances with {', '.join(labels)} built and called in the same process, in both orders, each rotate"
        f" by their own θ ({judged})"
    )


def state_probes(ideal: Ideal, positions: np.ndarray, dtype: str) -> np.ndarray:
    """Basis probes (1 on each pair's first, then second coordinate) plus one random vector, per position."""
    probes, _ = sweep_probes(ideal.d, structure_of(ideal))
    rows = np.broadcast_to(probes[:3, np.newaxis, :], (min(3, len(probes)), positions.size, ideal.d))
    return round_to(np.ascontiguousarray(rows), dtype)


# -- report -------------------------------------------------------------------------------------------
