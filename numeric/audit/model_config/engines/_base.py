"""What an engine adapter hands back: one `Observation` per (layer type, length regime).

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path
from typing import Any

__all__ = ["EngineUnavailable", "Observation", "source_line"]


class EngineUnavailable(Exception):
    """The engine is not installed here (its verdict is "not available", never a failure)."""


@dataclasses.dataclass
class Observation:
    """What one engine computes for one (layer type, regime) of a config.

    **Fields:** `layer_type`, `regime` (as in `Expected`), `inv_freq` (θᵢ as the engine holds them, or None where it
    was not observed), `attention_factor` (the factor on cos and sin, read at position 0), `softmax_scale` (None
    where the engine has no attention module to read), `dtype` (the format θ and cos/sin are formed in), `where`
    (quantity → "file:line" of the engine code that computes it), `error` (the engine could not be built or called
    for this config: the message, and nothing else is observed), `call_error` (built, but a call at a position the
    regime needs raised: the message; the values observed still count), `rotates` (whether the layer was seen to
    apply the rotation; None where not observed), `unknown_model_type` (the engine has no class for the config's
    model type: `error` says so, and it is no defect of the engine's values), `query_factors` (position → the
    factor the layer's attention puts on q there, for families that scale q with the position; None where not
    observed).
    """

    layer_type: str
    regime: str | int
    inv_freq: list[float] | None = None
    attention_factor: float | None = None
    softmax_scale: float | None = None
    dtype: str = "float32"
    where: dict[str, str] = dataclasses.field(default_factory=dict)
    error: str | None = None
    call_error: str | None = None
    rotates: bool | None = None
    unknown_model_type: bool = False
    query_factors: dict[str, float] | None = None

    def to_json(self) -> dict[str, Any]:
        """The observation as plain data (the subprocess engines print this)."""
        return dataclasses.asdict(self)


def source_line(function: Any, needle: str | None = None, root: str | None = None) -> str:
    """`file:line` of `function`, or of the first line in it containing `needle` (the key an engine reads).

    **Arguments:** `function` (a function or class), `needle` (a text to find in its source), `root` (a package
    folder to print the file relative to).

    **Returns:** e.g. `transformers/modeling_rope_utils.py:379`; "" when the source cannot be read.
    """
    try:
        lines, start = inspect.getsourcelines(function)
        file = Path(inspect.getsourcefile(function) or "")
    except (OSError, TypeError):
        return ""
    line = start
    if needle is not None:
        for offset, text in enumerate(lines):
            if needle in text:
                line = start + offset
                break
    if root is not None:
        try:
            file = file.relative_to(Path(root).parent)
        except ValueError:
            pass
    return f"{file}:{line}"
