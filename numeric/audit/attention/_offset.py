"""A common position offset: logits(ids, arange + c) == logits(ids, arange) for fixed spectra.

Every relative angle (m + c − n − c)·θ is unchanged (ROPE-QK-RELATIVE; a cached prefix moved by c is the same
prefix re-phased, ROPE-PREFIX-REPHASE), so only the rounding of the angles differs: held to the rounded-angle
bound, the model's own sensitivity to its cos/sin entries (autodiff) times the float32 angle rounding.

Claims served: ROPE-QK-RELATIVE, ROPE-PREFIX-REPHASE.
"""

from __future__ import annotations

from ropecheck.numeric.reference.tolerances import rounded_angle_entry_error, rounded_angle_logits_bound

from ._common import LENGTH, largest_difference, reorder_bound, switch_length, tokens
from ._model import TinyModel
from ._report import AttentionFinding, numeric_finding
from ._sensitivity import logit_sensitivity

__all__ = ["OFFSET", "check_position_offset"]

CLAIMS = ("ROPE-QK-RELATIVE", "ROPE-PREFIX-REPHASE")
OFFSET = 1000
#: The last token rows compared (they attend to every token; autodiff cost grows with the rows bounded).
ROWS = 1


def attention_factor(tiny: TinyModel) -> float:
    from ._sensitivity import rotary_modules

    factors = [getattr(m, "attention_scaling", 1.0) for m in rotary_modules(tiny)]
    values = [v for f in factors for v in (f.values() if isinstance(f, dict) else [f])]
    return max([1.0, *map(float, values)])


def check_position_offset(tiny: TinyModel) -> AttentionFinding:
    """Logits with positions arange + c equal those with arange (c = 1000, or below a spectrum switch)."""
    import torch

    if not tiny.rope or not tiny.takes_positions:
        return AttentionFinding("position-offset", CLAIMS, "not applicable", "the model takes no rotary positions")
    switch = switch_length(tiny)
    length = LENGTH if switch is None else min(LENGTH, switch // 2)
    offset = OFFSET if switch is None else switch - length - 1
    ids = tokens(1, length, seed=8)
    base = torch.arange(length)[None]
    plain, _ = tiny.step(ids, position_ids=base)
    moved, _ = tiny.step(ids, position_ids=base + offset)
    plain, moved = plain[:, -ROWS:], moved[:, -ROWS:]
    observed = largest_difference(plain, moved)
    sensitivity = max(logit_sensitivity(tiny, ids, base, rows=ROWS),
                      logit_sensitivity(tiny, ids, base + offset, rows=ROWS))
    entry = rounded_angle_entry_error(float(offset + length), "float32", attention_factor(tiny))
    bound = rounded_angle_logits_bound(sensitivity, entry, reorder_bound(tiny, length, plain, moved))
    return numeric_finding("position-offset", CLAIMS, observed, bound,
                           f"positions moved by {offset}", "the scores depend on absolute positions",
                           offset=offset, sensitivity=sensitivity)
