"""Identity: position 0 leaves x unchanged (up to the attention factor g)."""

from __future__ import annotations

import numpy as np

from numeric.audit.context import AuditContext
from numeric.audit.extract import (
    entry_bound,
)
from numeric.audit.ideal import (
    Ideal,
)

__all__ = ["CLAIMS", "NAME"]

NAME = "identity"
#: The ledger claims this property bears on (a failure means they do not transfer to the target).
CLAIMS: tuple[str, ...] = ("ROPE-PAIR-FORMULA", "ROPE-RELATIVE-MATRIX")


def check_identity(ctx: AuditContext, ideal: Ideal, matrix: np.ndarray, dtype: str) -> None:
    expected = ideal.attention_factor * np.eye(ctx.d)
    expected[ideal.passthrough, ideal.passthrough] = 1.0
    beta = entry_bound(np.zeros(1, dtype=np.int64), dtype, ideal.theta_units, ideal.attention_factor)[0]
    error = np.abs(matrix[0] - expected)
    worst = float(error.max())
    ok = worst <= beta
    if ok:
        detail = "Position 0 leaves x unchanged" + (
            f" (up to the attention factor {ideal.attention_factor:.6g})." if ideal.attention_factor != 1 else "."
        )
    else:
        row, column = np.unravel_index(int(np.argmax(error)), error.shape)
        detail = (
            f"Position 0 is not the identity: M(0)[{row}, {column}] = {matrix[0][row, column]:.6g}, expected "
            f"{expected[row, column]:.6g} (an off-by-one position, or an angle offset?)."
        )
    ctx.add("identity", ok, detail, dtype=dtype, max_error=worst, bound=beta, position=0)
