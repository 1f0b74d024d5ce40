"""The RoPE kind: what is probed and which properties apply (GUIDE §5, certification by extraction).

A RoPE is linear in x for a fixed position: basis probes give M(p), from which the pairing, direction and
per-pair angles are read (`numeric.audit.extract`); the spectrum is compared with base^(−2i/r) under the declared
scaling; the sweep compares the outputs at every position and dtype with the high-precision reference; shifted,
shuffled and repeated positions, linearity, identity at 0 and state complete the properties.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ropecheck.numeric.audit import policy
from ropecheck.numeric.audit.calls import AuditError
from ropecheck.numeric.audit.context import AuditContext
from ropecheck.numeric.audit.extract import extract_matrices, find_structure
from ropecheck.numeric.audit.ideal import Ideal, sample_positions
from ropecheck.numeric.audit.options import PRECISION_ORDER, SMALL_POSITIONS
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
        matrices = matrices_small
        if large.size:
            matrices_large = extract_matrices(ctx.session.caller(primary), large, primary, ctx.d)
            matrices = np.concatenate([matrices_small, matrices_large])
        structure = find_structure(
            matrices, np.concatenate([small, large]), primary, ctx.theta_units, ctx.attention_factor
        )
        # Root causes first, each adjusting the ideal so that what it explains is judged against what the
        # target does (numeric.audit.attribution): pairing, direction, magnitude, a position offset, the base.
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
