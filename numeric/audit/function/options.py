"""The audit's options: defaults and the validation of everything a user passes (one-line `AuditError`s)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from ropecheck.numeric.audit._numerics import tolerances
from ropecheck.numeric.audit.function.calls import FRAMEWORKS, AuditError
from ropecheck.numeric.audit.function.scaling import Scaling, parse_scaling

__all__ = [
    "ALL_DTYPES", "DEFAULT_DTYPES", "DIRECTIONS", "OUTPUT_LAYOUTS", "PARTIAL_PLACEMENTS", "PRECISION_ORDER", "Options",
    "validate",
]

#: The dtypes models run in; float64 is audited on request (`dtypes=...`), never by default.
DEFAULT_DTYPES = ("float32", "bfloat16", "float16")
ALL_DTYPES = ("float32", "bfloat16", "float16", "float64")
DIRECTIONS = ("counter-clockwise", "clockwise")
PARTIAL_PLACEMENTS = ("first", "p-rope")
#: Declarable fixed output orders of a RoPE: `interleaved` writes the half-split pair (i, i + d/2) to (2i, 2i + 1)
#: (keras-hub's Gemma: `stack([x1·cos − x2·sin, x2·cos + x1·sin], axis=-1)`).
OUTPUT_LAYOUTS = ("interleaved",)
#: Most precise first: the dtype the structure is extracted in.
PRECISION_ORDER = ("float64", "float32", "float16", "bfloat16")
#: Positions 0…SMALL_POSITIONS−1 give the small matrices of the structure, identity and state checks.
SMALL_POSITIONS = 33


@dataclasses.dataclass
class Options:
    base: float | None
    layout: str | None
    scaling: Scaling | None
    rotary_dim: int | None
    max_position: int
    dtypes: tuple[str, ...]
    framework: str
    head_dim: int | None
    timeout: float
    budget: float
    progress: bool
    module_cast: bool = False
    direction: str = "counter-clockwise"
    partial: str | None = None
    strict: bool = False
    dtypes_explicit: bool = True
    #: Accept a fixed-length table shorter than `max_position` (audit 0…N−1 and pass) instead of failing.
    accept_short_table: bool = False
    #: A declared fixed output permutation (`OUTPUT_LAYOUTS`), None: the output is the rotation as computed
    #: (a permutation is still detected and reported).
    output_layout: str | None = None


#: The keywords of `audit` that `validate` reads (the RoPE kind's options), named once: the API passes its own
#: arguments by these names and the CLI its flags (`--rotary-dim` is `rotary_dim`).
OPTION_KEYWORDS = tuple(field.name for field in dataclasses.fields(Options) if field.name != "dtypes_explicit")


def option_keywords(values: Any) -> dict[str, Any]:
    """The `OPTION_KEYWORDS` an object (parsed command-line flags) or a mapping holds, skipping unset ones (None,
    or an empty `--dtypes`), so that `audit`'s defaults apply.

    **Arguments:**

    - `values`: an `argparse.Namespace`, or a mapping such as a function's arguments.

    **Returns:**

    `{keyword: value}` for `audit(...)` or `validate(...)`.
    """
    read = values.get if isinstance(values, dict) else lambda key: getattr(values, key, None)
    return {key: value for key in OPTION_KEYWORDS if (value := read(key)) is not None and value != ""}


def validate(**raw: Any) -> Options:
    base = raw["base"]
    if base is not None:
        base = float(base)
        if not (base > 1 and math.isfinite(base)):
            raise AuditError(f"--base must be a finite number > 1, got {raw['base']!r}")
    layout = raw["layout"]
    if layout is not None:
        layout = {"half-split": "half", "rotate_half": "half", "neox": "half", "gptj": "interleaved"}.get(
            layout, layout
        )
        if layout not in ("interleaved", "half"):
            raise AuditError(f"--layout must be interleaved or half, got {raw['layout']!r}")
    scaling = raw["scaling"]
    if isinstance(scaling, str):
        try:
            scaling = parse_scaling(scaling)
        except ValueError as error:
            raise AuditError(str(error)) from None
    elif scaling is not None and not isinstance(scaling, Scaling):
        raise AuditError(f"scaling must be a spec string such as 'linear:4', got {type(scaling).__name__}")
    dtypes = raw["dtypes"]
    dtypes_explicit = dtypes is not None
    if dtypes is None:
        dtypes = DEFAULT_DTYPES
    if isinstance(dtypes, str):
        dtypes = [part.strip() for part in dtypes.split(",") if part.strip()]
    dtypes = tuple(dict.fromkeys(str(d) for d in dtypes))
    unknown = [d for d in dtypes if d not in tolerances.DTYPES]
    if unknown or not dtypes:
        raise AuditError(f"unknown dtype(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(ALL_DTYPES)}")
    framework = raw["framework"]
    if framework not in ("auto", *FRAMEWORKS):
        raise AuditError(f"--framework must be auto, numpy, torch or jax, got {framework!r}")
    max_position = int(raw["max_position"])
    if max_position < 2:
        raise AuditError(f"--max-position must be at least 2, got {max_position}")
    if max_position > 2**31:
        raise AuditError(f"--max-position above 2^31 is not supported, got {max_position}")
    head_dim, rotary_dim = raw["head_dim"], raw["rotary_dim"]
    if head_dim is not None and (int(head_dim) <= 0 or int(head_dim) % 2):
        raise AuditError(f"--head-dim must be a positive even number, got {head_dim}")
    if rotary_dim is not None:
        rotary_dim = int(rotary_dim)
        if rotary_dim <= 0 or rotary_dim % 2 or (head_dim is not None and rotary_dim > int(head_dim)):
            raise AuditError(f"--rotary-dim must be even, positive and at most the head dimension, got {rotary_dim}")
    if not float(raw["timeout"]) > 0:
        raise AuditError("--timeout must be positive")
    direction = {"ccw": "counter-clockwise", "cw": "clockwise"}.get(raw.get("direction") or "", raw.get("direction"))
    direction = direction or "counter-clockwise"
    if direction not in DIRECTIONS:
        raise AuditError(f"--direction must be counter-clockwise or clockwise, got {raw.get('direction')!r}")
    partial = raw.get("partial")
    if partial is not None and partial not in PARTIAL_PLACEMENTS:
        raise AuditError(f"--partial must be first or p-rope, got {partial!r}")
    output_layout = raw.get("output_layout")
    if output_layout is not None and output_layout not in OUTPUT_LAYOUTS:
        raise AuditError(f"--output-layout must be {' or '.join(OUTPUT_LAYOUTS)}, got {output_layout!r}")
    budget = float(raw["budget"])
    if not budget > 0:
        raise AuditError("--budget must be positive")
    return Options(
        base=base,
        layout=layout,
        scaling=scaling,
        rotary_dim=rotary_dim,
        max_position=max_position,
        dtypes=dtypes,
        framework=framework,
        head_dim=None if head_dim is None else int(head_dim),
        timeout=float(raw["timeout"]),
        budget=budget,
        progress=bool(raw["progress"]),
        module_cast=bool(raw.get("module_cast", False)),
        direction=direction,
        partial=partial,
        strict=bool(raw.get("strict", False)),
        dtypes_explicit=dtypes_explicit,
        accept_short_table=bool(raw.get("accept_short_table", False)),
        output_layout=output_layout,
    )
