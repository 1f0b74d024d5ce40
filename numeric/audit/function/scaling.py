"""Reference formulas for RoPE context-extension scalings, evaluated in high precision (ROPE-FREQUENCIES).

The auditor compares an implementation's per-pair angles with m·θᵢ for the θᵢ below. Plain RoPE (RoFormer,
Su et al. 2021, Eq. 15) has θᵢ = base^(−2i/d), i = 0…d/2−1, with d the rotary dimension. Each scaling changes
θᵢ (and possibly multiplies cos and sin by an attention factor g):

- `linear:F` — Position Interpolation (Chen et al. 2023, arXiv:2306.15595), positions m ↦ m/F: θᵢ′ = θᵢ/F.
- `ntk:F` — NTK-aware scaled RoPE (bloc97 2023; Peng et al. 2023 §3.2): base′ = base·F^(d/(d−2)).
- `dynamic:F[,orig=N]` — dynamic NTK as Hugging Face transformers defines it:
  base′ = base·(F·s/N − (F − 1))^(d/(d−2)) with s = max(N, the call's largest position + 1).
- `yarn:F[,orig=N,beta_fast=32,beta_slow=1,truncate=false,attn=G|softmax]` — YaRN (Peng et al. 2023,
  arXiv:2309.00071, Eq. 18–20), below;
  attention factor g = 0.1·ln F + 1.
- `llama3:F[,orig=N,low=1,high=4]` — Llama 3 (Meta 2024, `apply_scaling`): band smoothing, below.
- `longrope:F[,orig=N,short=…,long=…]` — LongRoPE (Ding et al. 2024, arXiv:2402.13753), Phi-3: θᵢ′ = θᵢ/λᵢ with
  λ the long factors when the call's largest position + 1 > N, else the short ones; g = √(1 + ln F / ln N).

Every other kind has g = 1. `attn=G` overrides g (YaRN, LongRoPE); `attn=softmax` declares that g is applied in
the softmax scale (scores × g²) instead of in cos/sin, so the rotation itself is audited with g = 1.

**YaRN** (as in transformers `_compute_yarn_parameters`): with the correction dimension
c(r) = d·ln(N/(2π·r)) / (2·ln base), low = ⌊c(β_fast)⌋ ∨ 0, high = ⌈c(β_slow)⌉ ∧ (d − 1) (without ⌊⌋ and ⌈⌉
with `truncate=false`, HF's `truncate: False`), the ramp
γᵢ = clamp((i − low)/(high − low), 0, 1) (high += 0.001 when equal) and the extrapolation weight wᵢ = 1 − γᵢ:
θᵢ′ = (θᵢ/F)·(1 − wᵢ) + θᵢ·wᵢ. High-frequency pairs (many rotations within N) keep θᵢ, low-frequency pairs are
interpolated by F. cos and sin are multiplied by g = 0.1·ln F + 1 (1 for F ≤ 1).

**Llama 3**: wavelength λᵢ = 2π/θᵢ; with λ_low = N/low and λ_high = N/high: θᵢ′ = θᵢ/F when λᵢ > λ_low,
θᵢ when λᵢ < λ_high, otherwise (1 − s)·θᵢ/F + s·θᵢ with s = (N/λᵢ − low)/(high − low).

Defaults: `orig` = 2048 (8192 for llama3, the Llama 3.1 value), `low` = 1, `high` = 4; LongRoPE's factor lists
default to all ones (short) and a linear ramp from 1 to F (long), as the built-in adapters do. Lists are given
with `/` between values: `longrope:4,orig=2048,short=1/1/1/1,long=1/2/3/4`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Any

import mpmath
import numpy as np
from ropecheck.numeric.audit._numerics import DoubleDouble

__all__ = ["SCALING_KINDS", "Scaling", "parse_scaling", "scaled_inverse_frequencies"]

SCALING_KINDS = ("linear", "ntk", "dynamic", "yarn", "llama3", "longrope")
_DIGITS = 60
_DEFAULT_ORIGINAL = {"dynamic": 2048, "yarn": 2048, "longrope": 2048, "llama3": 8192}
_KEYS = {
    "linear": set(),
    "ntk": set(),
    "dynamic": {"orig"},
    "yarn": {"orig", "beta_fast", "beta_slow", "attn", "truncate"},
    "llama3": {"orig", "low", "high"},
    "longrope": {"orig", "short", "long", "attn"},
}


@dataclasses.dataclass(frozen=True)
class Scaling:
    """A declared context-extension scaling (see the module docstring for the formulas).

    **Fields:**

    - `kind`: one of `SCALING_KINDS`.
    - `factor`: F.
    - `original`: N, the original context length (None where the kind has none).
    - `low`, `high`: Llama 3's low/high frequency factors.
    - `beta_fast`, `beta_slow`: YaRN's rotation counts.
    - `attention`: an explicit attention factor g overriding the paper's formula.
    - `short`, `long`: LongRoPE's per-pair factors (None: the defaults).
    - `truncate`: YaRN only — round the correction range to integers (floor/ceil, as the paper and HF's default);
      `truncate=false` keeps it fractional (HF's `truncate: False`).
    - `attention_in_softmax`: `attn=softmax` — the attention factor g is applied in the softmax scale (scores
      multiplied by g², e.g. by the attention kernel), so cos/sin carry no factor and the audit expects g = 1.
    """

    kind: str
    factor: float
    original: int | None = None
    low: float = 1.0
    high: float = 4.0
    beta_fast: float = 32.0
    beta_slow: float = 1.0
    attention: float | None = None
    short: tuple[float, ...] | None = None
    long: tuple[float, ...] | None = None
    truncate: bool = True
    attention_in_softmax: bool = False

    @property
    def depends_on_call(self) -> bool:
        """Whether θ depends on the largest position of the call (dynamic NTK, LongRoPE)."""
        return self.kind in ("dynamic", "longrope")

    def attention_factor(self) -> float:
        """g: YaRN's 0.1·ln F + 1, LongRoPE's √(1 + ln F / ln N), else 1 (or the explicit override)."""
        if self.attention_in_softmax:
            return 1.0
        if self.attention is not None:
            return float(self.attention)
        if self.kind == "yarn":
            return 1.0 if self.factor <= 1 else 0.1 * math.log(self.factor) + 1.0
        if self.kind == "longrope":
            original = self.original or _DEFAULT_ORIGINAL["longrope"]
            return 1.0 if self.factor <= 1 else math.sqrt(1 + math.log(self.factor) / math.log(original))
        return 1.0

    def spec(self) -> str:
        """The spec string that parses back to this scaling."""
        parts = [f"{self.kind}:{self.factor:g}"]
        if self.original is not None:
            parts.append(f"orig={self.original}")
        if self.kind == "llama3":
            parts += [f"low={self.low:g}", f"high={self.high:g}"]
        if self.kind == "yarn" and (self.beta_fast, self.beta_slow) != (32.0, 1.0):
            parts += [f"beta_fast={self.beta_fast:g}", f"beta_slow={self.beta_slow:g}"]
        if self.kind == "yarn" and not self.truncate:
            parts.append("truncate=false")
        if self.attention_in_softmax:
            parts.append("attn=softmax")
        elif self.attention is not None:
            parts.append(f"attn={self.attention:g}")
        for name in ("short", "long"):
            values = getattr(self, name)
            if values is not None:
                parts.append(f"{name}=" + "/".join(f"{v:g}" for v in values))
        return ",".join(parts)

    def to_json(self) -> dict[str, Any]:
        """The scaling in a report: its spec, kind, factor, original length and attention factor."""
        return {
            "spec": self.spec(),
            "kind": self.kind,
            "factor": self.factor,
            "original": self.original,
            "attention_factor": self.attention_factor(),
        }

    def to_huggingface(self) -> dict[str, Any]:
        """The scaling as a Hugging Face `rope_scaling` dict (for the built-in adapters)."""
        kind = {"ntk": "dynamic"}.get(self.kind, self.kind)
        out: dict[str, Any] = {"type": kind, "factor": self.factor}
        if self.original is not None:
            out["original_max_position_embeddings"] = self.original
        if self.kind == "llama3":
            out.update(low_freq_factor=self.low, high_freq_factor=self.high)
        if self.kind == "yarn":
            out.update(beta_fast=self.beta_fast, beta_slow=self.beta_slow)
            if not self.truncate:
                out["truncate"] = False
        if self.attention_in_softmax:
            out["attention_factor"] = 1.0
        elif self.attention is not None:
            out["attention_factor"] = self.attention
        if self.short is not None:
            out["short_factor"] = list(self.short)
        if self.long is not None:
            out["long_factor"] = list(self.long)
        return out


def parse_scaling(spec: str) -> Scaling:
    """Parse `kind:F[,key=value,...]` (see the module docstring).

    **Arguments:**

    - `spec`: e.g. `"linear:4"`, `"yarn:8,orig=4096"`, `"llama3:8,orig=8192,low=1,high=4"`.

    **Returns:**

    The `Scaling`.

    **Raises:**

    `ValueError` with a one-line reason for an unknown kind, a missing or non-positive factor, or an unknown key.
    """
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in SCALING_KINDS:
        raise ValueError(f"unknown scaling {kind!r} in {spec!r}; expected one of {', '.join(SCALING_KINDS)}")
    fields = [part.strip() for part in rest.split(",") if part.strip()]
    if not fields or "=" in fields[0]:
        raise ValueError(f"scaling {spec!r} needs a factor, e.g. {kind}:4")
    try:
        factor = float(fields[0])
    except ValueError:
        raise ValueError(f"scaling factor {fields[0]!r} in {spec!r} is not a number") from None
    if not factor > 0 or not math.isfinite(factor):
        raise ValueError(f"scaling factor must be positive, got {fields[0]!r}")
    values: dict[str, Any] = {}
    for field in fields[1:]:
        key, equals, value = field.partition("=")
        key = key.strip()
        if not equals or key not in _KEYS[kind]:
            allowed = ", ".join(sorted(_KEYS[kind])) or "none"
            raise ValueError(f"unknown option {field!r} for scaling {kind!r} (options: {allowed})")
        try:
            if key == "orig":
                values["original"] = int(value)
                if values["original"] <= 0:
                    raise ValueError
            elif key in ("short", "long"):
                values[key] = tuple(float(v) for v in value.split("/"))
            elif key == "truncate":
                if value.strip().lower() not in ("true", "false"):
                    raise ValueError
                values["truncate"] = value.strip().lower() == "true"
            elif key == "attn" and value.strip().lower() == "softmax":
                values["attention_in_softmax"] = True
            else:
                values[{"attn": "attention"}.get(key, key)] = float(value)
        except ValueError:
            raise ValueError(f"bad value in {field!r} of scaling {spec!r}") from None
    if kind in _DEFAULT_ORIGINAL:
        values.setdefault("original", _DEFAULT_ORIGINAL[kind])
    if kind == "llama3" and values.get("high", 4.0) <= values.get("low", 1.0):
        raise ValueError("llama3 scaling needs high > low")
    return Scaling(kind=kind, factor=factor, **values)


def _plain(rotary_dim: int, base: mpmath.mpf) -> list[mpmath.mpf]:
    return [base ** (-mpmath.mpf(2 * i) / rotary_dim) for i in range(rotary_dim // 2)]


def _yarn(scaling: Scaling, rotary_dim: int, base: mpmath.mpf) -> list[mpmath.mpf]:
    original = mpmath.mpf(scaling.original or _DEFAULT_ORIGINAL["yarn"])

    def correction_dim(rotations: float) -> mpmath.mpf:
        return (rotary_dim * mpmath.log(original / (rotations * 2 * mpmath.pi))) / (2 * mpmath.log(base))

    low_value, high_value = correction_dim(scaling.beta_fast), correction_dim(scaling.beta_slow)
    if scaling.truncate:
        low_value, high_value = mpmath.floor(low_value), mpmath.ceil(high_value)
    low_value = max(low_value, mpmath.mpf(0))
    high_value = min(high_value, mpmath.mpf(rotary_dim - 1))
    if low_value == high_value:
        high_value += mpmath.mpf("0.001")
    thetas = []
    for i, theta in enumerate(_plain(rotary_dim, base)):
        ramp = min(max((i - low_value) / (high_value - low_value), mpmath.mpf(0)), mpmath.mpf(1))
        extrapolation = 1 - ramp
        thetas.append(theta / scaling.factor * (1 - extrapolation) + theta * extrapolation)
    return thetas


def _llama3(scaling: Scaling, rotary_dim: int, base: mpmath.mpf) -> list[mpmath.mpf]:
    original = mpmath.mpf(scaling.original or _DEFAULT_ORIGINAL["llama3"])
    low, high, factor = mpmath.mpf(scaling.low), mpmath.mpf(scaling.high), mpmath.mpf(scaling.factor)
    low_wavelength, high_wavelength = original / low, original / high
    thetas = []
    for theta in _plain(rotary_dim, base):
        wavelength = 2 * mpmath.pi / theta
        if wavelength > low_wavelength:
            thetas.append(theta / factor)
        elif wavelength < high_wavelength:
            thetas.append(theta)
        else:
            smooth = (original / wavelength - low) / (high - low)
            thetas.append((1 - smooth) * theta / factor + smooth * theta)
    return thetas


def _longrope(scaling: Scaling, rotary_dim: int, base: mpmath.mpf, sequence_length: int) -> list[mpmath.mpf]:
    pairs = rotary_dim // 2
    original = scaling.original or _DEFAULT_ORIGINAL["longrope"]
    short = scaling.short or (1.0,) * pairs
    long = scaling.long or tuple(1.0 + (scaling.factor - 1.0) * i / max(pairs - 1, 1) for i in range(pairs))
    factors = long if sequence_length > original else short
    if len(factors) != pairs:
        raise ValueError(f"longrope needs {pairs} factors (one per pair of the rotary dimension), got {len(factors)}")
    return [theta / mpmath.mpf(factor) for theta, factor in zip(_plain(rotary_dim, base), factors, strict=True)]


def scaled_inverse_frequencies_mp(
    rotary_dim: int, base: float, scaling: Scaling | None, sequence_length: int = 1
) -> list[mpmath.mpf]:
    """θᵢ′ for i = 0…rotary_dim/2 − 1 as mpmath numbers at the current precision (see the module docstring).

    **Arguments:**

    - `rotary_dim`: the rotary dimension d (even).
    - `base`: the θ base.
    - `scaling`: the declared scaling, or None for plain RoPE.
    - `sequence_length`: the call's largest position + 1 (only dynamic NTK and LongRoPE use it).

    **Returns:**

    A list of `rotary_dim // 2` mpmath numbers.
    """
    base_value = mpmath.mpf(base)
    if scaling is None:
        return _plain(rotary_dim, base_value)
    factor = mpmath.mpf(scaling.factor)
    exponent = mpmath.mpf(rotary_dim) / (rotary_dim - 2) if rotary_dim > 2 else mpmath.mpf(1)
    if scaling.kind == "linear":
        return [theta / factor for theta in _plain(rotary_dim, base_value)]
    if scaling.kind == "ntk":
        return _plain(rotary_dim, base_value * factor**exponent)
    if scaling.kind == "dynamic":
        original = scaling.original or _DEFAULT_ORIGINAL["dynamic"]
        length = mpmath.mpf(max(sequence_length, original))
        return _plain(rotary_dim, base_value * (factor * length / original - (factor - 1)) ** exponent)
    if scaling.kind == "yarn":
        return _yarn(scaling, rotary_dim, base_value)
    if scaling.kind == "llama3":
        return _llama3(scaling, rotary_dim, base_value)
    return _longrope(scaling, rotary_dim, base_value, sequence_length)


def scaled_inverse_frequencies(
    rotary_dim: int, base: float, scaling: Scaling | None, sequence_length: int = 1
) -> DoubleDouble:
    """θᵢ′ in three float64 limbs, ready for `ropecheck.numeric._reference.reference_cos_sin` (ROPE-FREQUENCIES).

    **Arguments:**

    - as for `scaled_inverse_frequencies_mp`.

    **Returns:**

    A `DoubleDouble` of shape `(rotary_dim // 2,)` with all three limbs set (shared: do not modify).
    """
    # θ depends on the call's length only for dynamic NTK and LongRoPE: other calls share one cached result.
    length = sequence_length if scaling is not None and scaling.depends_on_call else 1
    return _scaled_inverse_frequencies(rotary_dim, float(base), scaling, length)


@functools.lru_cache(maxsize=256)
def _scaled_inverse_frequencies(
    rotary_dim: int, base: float, scaling: Scaling | None, sequence_length: int
) -> DoubleDouble:
    with mpmath.workdps(_DIGITS):
        values = scaled_inverse_frequencies_mp(rotary_dim, base, scaling, sequence_length)
        limbs = []
        for value in values:
            hi = float(value)
            lo = float(value - hi)
            limbs.append((hi, lo, float(value - hi - lo)))
    hi, lo, tail = (np.array(column, dtype=np.float64) for column in zip(*limbs, strict=True))
    return DoubleDouble(hi=hi, lo=lo, tail=tail)


def scaling_spec(scaling: dict[str, Any] | None) -> str | None:
    """A Hugging Face style scaling dict (an adapter's `default_scaling`) as a `--scaling` spec string.

    **Arguments:**

    - `scaling`: e.g. `{"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 2048}`, or None.

    **Returns:**

    The spec (`"yarn:4,orig=2048"`) that `numeric.audit.function.scaling.parse_scaling` reads back to the same
    reference,
    or None for no scaling.
    """
    if not scaling or scaling.get("type") in (None, "default"):
        return None
    kind = str(scaling["type"])
    parts = [f"{kind}:{float(scaling['factor']):g}"]
    if "original_max_position_embeddings" in scaling:
        parts.append(f"orig={int(scaling['original_max_position_embeddings'])}")
    if kind == "llama3":
        parts += [f"low={float(scaling['low_freq_factor']):g}", f"high={float(scaling['high_freq_factor']):g}"]
    if kind == "yarn" and (scaling.get("beta_fast", 32.0), scaling.get("beta_slow", 1.0)) != (32.0, 1.0):
        parts += [f"beta_fast={float(scaling['beta_fast']):g}", f"beta_slow={float(scaling['beta_slow']):g}"]
    for key, name in (("short_factor", "short"), ("long_factor", "long")):
        if key in scaling:
            parts.append(f"{name}=" + "/".join(f"{float(v):g}" for v in scaling[key]))
    return ",".join(parts)
