"""The RoPE kind: what is probed and which properties apply (GUIDE §5, certification by extraction).

A RoPE is linear in x for a fixed position: basis probes give M(p), from which the pairing, direction and
per-pair angles are read (`numeric.audit.function.extract`); the spectrum is compared with base^(−2i/r) under the
declared
scaling; the sweep compares the outputs at every position and dtype with the high-precision reference; shifted,
shuffled and repeated positions, linearity, identity at 0 and state complete the properties.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ropecheck.numeric.audit.function import policy
from ropecheck.numeric.audit.function.calls import AuditError
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.extract import (
    extract_matrices,
    find_structure,
    interleaved_output,
    output_permutation,
)
from ropecheck.numeric.audit.function.ideal import Ideal, sample_positions
from ropecheck.numeric.audit.function.options import PRECISION_ORDER, SMALL_POSITIONS
from ropecheck.numeric.audit.properties import PROPERTIES
from ropecheck.numeric.audit.properties.contract import check_contract
from ropecheck.numeric.audit.properties.direction import check_direction
from ropecheck.numeric.audit.properties.identity import check_identity, measure_offset
from ropecheck.numeric.audit.properties.linearity import check_linearity
from ropecheck.numeric.audit.properties.norm import measure_gain
from ropecheck.numeric.audit.properties.pairing import check_pairing
from ropecheck.numeric.audit.properties.positions import check_positions
from ropecheck.numeric.audit.properties.precision import check_precision
from ropecheck.numeric.audit.properties.relative import check_relative
from ropecheck.numeric.audit.properties.spectrum import check_spectrum
from ropecheck.numeric.audit.properties.state import check_state
from ropecheck.numeric.audit.properties.switch_points import check_switch_points

__all__ = ["KIND", "RopeKind"]


def header(ctx: AuditContext, ideal: Ideal | None, layout: str, direction: str) -> dict[str, Any]:
    """The RoPE header fields of the report."""
    return {
        "layout": layout,
        "direction": direction,
        "rotary_dim": 0 if ideal is None else ideal.rotary_dim,
        "base": None if ideal is None or ideal.base != ideal.base else ideal.base,
        "base_source": ctx.base_source,
    }


def read_output_order(ctx: AuditContext, matrices: np.ndarray) -> np.ndarray:
    """Find a fixed output permutation P (y = P·R(p)·x, M(0) = P) or check the declared `--output-layout`; from
    then on every call is read as P⁻¹·y, so the remaining properties (precision first) judge the rotation itself.

    **Returns:** the small matrices read the same way (rows = outputs).
    """
    sigma = output_permutation(matrices[0]) if matrices.size and ctx.d > 0 else None
    declared = ctx.options.output_layout
    wanted = interleaved_output(ctx.d) if declared == "interleaved" else None
    if wanted is not None and (sigma is None or not np.array_equal(sigma, wanted)):
        found = "the rotation as computed" if sigma is None else "another fixed order"
        ctx.output_order_problem = (f"declared --output-layout {declared} (the half-split pairs (i, i + d/2) written"
                                    f" to (2i, 2i + 1)), but at position 0 the output is {found}")
    if sigma is None:
        return matrices
    if wanted is not None and np.array_equal(sigma, wanted):
        ctx.output_order_text = ("the output is written in the declared --output-layout interleaved (pair (i, i + d/2)"
                                 " to coordinates (2i, 2i + 1)); read back as P⁻¹·y")
    else:
        named = " (the half-split pairs written interleaved: --output-layout interleaved)" if np.array_equal(
            sigma, interleaved_output(ctx.d)) else ""
        shown = ", ".join(map(str, sigma[:8])) + (", …" if sigma.size > 8 else "")
        ctx.output_order_text = (f"the output is a fixed permutation of a rotation, y = P·R(p)·x with y[i] = z[σ(i)],"
                                 f" σ = ({shown}){named} (detected: M(0) = P); q and k written alike keep every score,"
                                 " and the properties below are judged on P⁻¹·y")
    order = np.argsort(sigma)
    ctx.session.read_outputs_in(order)
    for dtype, (x, positions, y) in list(ctx.contract_outputs.items()):
        ctx.contract_outputs[dtype] = (x, positions, y[..., order])
    ctx.notes.append(ctx.output_order_text[0].upper() + ctx.output_order_text[1:] + ".")
    return matrices[:, order, :]


class RopeKind:
    """Rotary position embeddings `fn(x, positions) -> y`, x of shape `(..., L, d)`."""

    name = "rope"
    properties = PROPERTIES

    def run(self, ctx: AuditContext) -> dict[str, Any]:
        options = ctx.options
        ctx.theta_units = policy.frequency_error_units(
            options.base or 10000.0, 1.0 if options.scaling is None else options.scaling.factor
        )
        usable = [dtype for dtype in options.dtypes if check_contract(ctx, dtype)]
        if not usable:
            reasons = {info.get("reason", "") for info in ctx.dtype_info.values()}
            failed_contract = [f for f in ctx.findings if not f.ok]
            if not failed_contract:
                raise AuditError(f"the target cannot be called in any requested dtype: {'; '.join(sorted(reasons))}")
            return {"layout": "unknown", "direction": "unknown"}
        primary = min(usable, key=PRECISION_ORDER.index)
        small = np.arange(min(SMALL_POSITIONS, ctx.n))
        large = sample_positions(ctx.n, small.size)
        matrices_small = extract_matrices(ctx.session.caller(primary), small, primary, ctx.d)
        matrices_small = read_output_order(ctx, matrices_small)
        matrices = matrices_small
        if large.size:
            matrices_large = extract_matrices(ctx.session.caller(primary), large, primary, ctx.d)
            matrices = np.concatenate([matrices_small, matrices_large])
        structure = find_structure(
            matrices, np.concatenate([small, large]), primary, ctx.theta_units, ctx.attention_factor
        )
        # Root causes first, each adjusting the ideal so that what it explains is judged against what the
        # target does (numeric.audit.function.attribution): pairing, direction, magnitude, a position offset, the base.
        ideal = check_pairing(ctx, structure)
        ideal = check_direction(ctx, structure, ideal)
        ideal = measure_gain(ctx, ideal, matrices_small, small, primary)
        ideal = measure_offset(ctx, ideal, matrices_small, small, primary)
        ideal, spectrum = check_spectrum(ctx, ideal, matrices_small, small, primary, structure)
        ctx.theta_units = ideal.theta_units
        # The sweep finds each dtype's precision class; every later check is judged at it.
        check_precision(ctx, ideal, usable)
        ideal.classes.update(ctx.precision_class)
        spectrum.report(ctx)
        if not ideal.offset:
            for dtype in usable:
                matrix = matrices_small if dtype == primary else None
                check_identity(ctx, ideal, matrix, dtype)
        for dtype in usable:
            check_linearity(ctx, ideal, dtype)
        for dtype in usable:
            check_relative(ctx, ideal, dtype)
            check_positions(ctx, ideal, dtype)
            check_switch_points(ctx, ideal, dtype)
        check_state(ctx, ideal, usable, primary)
        return header(ctx, ideal, structure.layout, structure.direction)


KIND = RopeKind()
