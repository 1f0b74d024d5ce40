"""State: results depend neither on earlier calls nor on other instances (ROPE-KV-CACHE-REUSE)."""

from __future__ import annotations

import dataclasses

import numpy as np
from ropecheck.numeric.audit.function import policy
from ropecheck.numeric.audit.function.attribution import IN_PLACE_DTYPE
from ropecheck.numeric.audit.function.calls import AuditError, CallFailed, one_line
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.extract import (
    sweep_probes,
)
from ropecheck.numeric.audit.function.ideal import (
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
from ropecheck.numeric.audit.function.options import PRECISION_ORDER, SMALL_POSITIONS
from ropecheck.numeric.audit.function.scaling import Scaling

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

    Then (`call_order`) the orders a fresh instance meets in a model: (3) called first at an offset, then at
    the origin; (4) at the origin, after a longer call at an offset; (5) one instance called in each dtype in
    turn (the first dtype's output must not change). A plain function gets (5) only, on the instance the
    audit used: (3) and (4) need a fresh instance, since a cache already holding every audited position hides them.

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
            later = dtypes[dtypes.index(dtype) + 1:]
            across = f", calls in {', '.join(later)} among them" if later and ctx.session.shares_instance else ""
            problems.append(
                f"{dtype}: the first call's input (positions 0…{int(positions[-1])}) gives a different output"
                f" after the audit's other calls{across} (by {largest(gap):.3g}): an earlier call left state behind"
            )
    detail_other = "the target is a plain function: other instances were not tested"
    if ctx.session.can_rebuild:
        detail_other = other_configurations(ctx, ideal, dtypes, primary, problems)
    detail_other += "; " + call_order(ctx, ideal, dtypes, primary, problems)
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
        fix="key every cache by everything the rotation depends on (base, scaling, head size, dtype, device) and"
        " by the positions it holds: write a cached row only with the angles of its own position, and never"
        " convert a cached table in place to a call's dtype",
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


def call_order(ctx: AuditContext, ideal: Ideal, dtypes: list[str], primary: str, problems: list[str]) -> str:
    """Checks (3)–(5) of `check_state`: outputs judged against the reference after the orders of calls a cache
    keyed by length (or converted in place) gets wrong. Returns the passing summary; appends to `problems`."""
    dtype, precise = state_dtype(ctx, dtypes, primary)
    length = max(2, min(SMALL_POSITIONS, ctx.n // 4))
    # An offset far from the origin, where every pair's angle differs from position 0's: a cached row served
    # for the wrong position then shows.
    offset = max(1, min(ctx.n - 2 * length, max(length, ctx.n // 2)))
    origin = np.arange(length)
    later = np.arange(offset, offset + 2 * length)
    x = state_probes(ideal, origin, dtype)
    x_long = state_probes(ideal, later, dtype)
    expected, bound = ideal.expected(x, origin, dtype)
    fresh = ctx.session.rebuilt if ctx.session.can_rebuild else None
    allowed = 1.0
    if not precise:
        # Precision fails in every dtype: judge against the deviation the target shows in its first call.
        try:
            reference = (fresh(dtype, ctx.options.base, ctx.options.scaling, ctx.d) if fresh else
                         ctx.session.caller(dtype)).call(x, origin, dtype)[0]
            allowed = max(1.0, 4 * float(bound_ratio(np.abs(reference - expected), bound).max()))
        except CallFailed:
            pass

    def served_from(y: np.ndarray, start: int) -> bool:
        shifted, shifted_bound = ideal.expected(x, origin + start, dtype)
        return bool(bound_ratio(np.abs(y - shifted), shifted_bound).max() <= allowed)

    def wrong(y: np.ndarray) -> float:
        return float(bound_ratio(np.abs(y - expected), bound).max())

    if fresh is None:
        # The audit's own instance has served every position: a cache of the full length hides both orders.
        return "a plain function: call orders on a fresh instance were not tested" + dtype_interleaving(
            ctx, ideal, dtypes, problems)
    try:
        if fresh is not None:
            caller = fresh(dtype, ctx.options.base, ctx.options.scaling, ctx.d)
            caller.call(x_long[:, :length], later[:length], dtype)
            y = caller.call(x, origin, dtype)[0]
            if wrong(y) > allowed:
                text = (f"a fresh instance called first at positions {offset}…{offset + length - 1}, then at 0…"
                        f"{length - 1}, rotates the second call wrongly (off by {largest(np.abs(y - expected)):.3g})")
                if served_from(y, offset):
                    text += (": the cache is filled with the angles of the first call's positions and served as"
                             f" positions 0…{length - 1}")
                problems.append(text)
        caller = fresh(dtype, ctx.options.base, ctx.options.scaling, ctx.d)
        caller.call(x, origin, dtype)
        caller.call(x_long, later, dtype)
        y = caller.call(x, origin, dtype)[0]
        if wrong(y) > allowed:
            text = (f"after a longer call at positions {offset}…{offset + 2 * length - 1}, positions 0…{length - 1}"
                    f" are rotated wrongly (off by {largest(np.abs(y - expected)):.3g})")
            if served_from(y, offset):
                text += (f": they get the angles of positions {offset}…{offset + length - 1} — a cache written by a"
                         " call at an offset is served from row 0")
            problems.append(text)
    except CallFailed as error:
        problems.append(f"a call in another order raised {error.reason}")
    checked = "an offset call first, and a longer call at an offset before a call at the origin"
    across = dtype_interleaving(ctx, ideal, dtypes, problems)
    return f"{checked}{across} leave the outputs unchanged"


def dtype_interleaving(ctx: AuditContext, ideal: Ideal, dtypes: list[str], problems: list[str]) -> str:
    """(5): one instance called in its first dtype, then in each other dtype followed by the first again; the first
    dtype's output must not move. Built-ins are built per dtype (nothing to interleave)."""
    if len(dtypes) < 2 or not ctx.session.shares_instance:
        return ""
    first, others = dtypes[0], dtypes[1:]
    if ctx.session.can_rebuild:
        caller = ctx.session.rebuilt(first, ctx.options.base, ctx.options.scaling, ctx.d)
    else:
        caller = ctx.session.caller(first)
    positions = np.arange(min(SMALL_POSITIONS, ctx.n))
    x = round_to(state_probes(ideal, positions, "float64"), "bfloat16")  # exact in every audited dtype
    try:
        # A copy per call: a target that writes into x (a contract finding) must not move the probe itself.
        before = caller.call(x.copy(), positions, first)[0]
        _, loose = ctx.loose_bound(x, positions, first)
        if np.any(bound_ratio(np.abs(caller.call(x.copy(), positions, first)[0] - before), loose) > 1):
            return ""  # a repeated call already differs: contract's finding, not the dtype order's
        for other in others:
            caller.call(x.copy(), positions, other)
            after = caller.call(x.copy(), positions, first)[0]
            gap = np.abs(after - before)
            if np.any(bound_ratio(gap, loose) > 1):
                problems.append(
                    f"after one call in {other}, the same instance's {first} output changed (by {largest(gap):.3g}):"
                    f" {IN_PLACE_DTYPE}, so {first} results carry {other} rounding from then on"
                )
                break
    except CallFailed as error:
        problems.append(f"calls interleaved across dtypes raised {error.reason}")
    return f", and calls interleaved across {', '.join(dtypes)} on one instance"
