"""Scaling reference formulas (numeric.audit.function.scaling) against a float64 transcription of Hugging Face
transformers'
rope-init functions, and the spec parser."""

from __future__ import annotations

import math

import numpy as np
import pytest
from ropecheck.numeric.audit.function.scaling import Scaling, parse_scaling, scaled_inverse_frequencies

D, BASE = 64, 10000.0


def _plain(d: int = D, base: float = BASE) -> np.ndarray:
    return 1.0 / base ** (np.arange(0, d, 2) / d)


def _hf_yarn(factor: float, original: int, beta_fast: float = 32, beta_slow: float = 1) -> np.ndarray:
    def correction_dim(rotations: float) -> float:
        return (D * math.log(original / (rotations * 2 * math.pi))) / (2 * math.log(BASE))

    low = max(math.floor(correction_dim(beta_fast)), 0)
    high = min(math.ceil(correction_dim(beta_slow)), D - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(D // 2) - low) / (high - low), 0, 1)
    extrapolation = 1 - ramp
    return _plain() / factor * (1 - extrapolation) + _plain() * extrapolation


def _hf_llama3(factor: float, original: int, low: float, high: float) -> np.ndarray:
    inv = _plain()
    wavelength = 2 * math.pi / inv
    out = np.where(wavelength > original / low, inv / factor, inv)
    smooth = (original / wavelength - low) / (high - low)
    medium = ~(wavelength < original / high) & ~(wavelength > original / low)
    return np.where(medium, (1 - smooth) * out / factor + smooth * out, out)


def _hi(scaling: Scaling | None, length: int = 1) -> np.ndarray:
    return scaled_inverse_frequencies(D, BASE, scaling, length).hi


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("linear:4", _plain() / 4),
        ("ntk:4", _plain(base=BASE * 4 ** (D / (D - 2)))),
        ("yarn:8,orig=4096", _hf_yarn(8, 4096)),
        ("yarn:16,orig=2048,beta_fast=16,beta_slow=2", _hf_yarn(16, 2048, 16, 2)),
        ("llama3:8,orig=8192,low=1,high=4", _hf_llama3(8, 8192, 1, 4)),
        ("llama3:32,orig=2048,low=2,high=8", _hf_llama3(32, 2048, 2, 8)),
    ],
)
def test_scaled_frequencies_match_transformers(spec: str, expected: np.ndarray) -> None:
    np.testing.assert_allclose(_hi(parse_scaling(spec)), expected, rtol=1e-13)


def test_dynamic_ntk_depends_on_the_call_length() -> None:
    scaling = parse_scaling("dynamic:4,orig=2048")
    np.testing.assert_allclose(_hi(scaling, 1000), _plain(), rtol=1e-15)
    length = 8192
    base = BASE * (4 * length / 2048 - 3) ** (D / (D - 2))
    np.testing.assert_allclose(_hi(scaling, length), _plain(base=base), rtol=1e-13)
    assert scaling.depends_on_call


def test_longrope_switches_factors_and_attention_factor() -> None:
    pairs = D // 2
    short = "/".join(["1"] * pairs)
    long = "/".join(str(1 + i / 4) for i in range(pairs))
    scaling = parse_scaling(f"longrope:4,orig=2048,short={short},long={long}")
    np.testing.assert_allclose(_hi(scaling, 2048), _plain(), rtol=1e-15)
    np.testing.assert_allclose(_hi(scaling, 2049), _plain() / (1 + np.arange(pairs) / 4), rtol=1e-15)
    assert scaling.attention_factor() == pytest.approx(math.sqrt(1 + math.log(4) / math.log(2048)))


def test_yarn_attention_factor_and_spec_round_trip() -> None:
    scaling = parse_scaling("yarn:8,orig=4096")
    assert scaling.attention_factor() == pytest.approx(0.1 * math.log(8) + 1)
    assert parse_scaling(scaling.spec()) == scaling
    assert parse_scaling("linear:4").attention_factor() == 1.0


@pytest.mark.parametrize(
    "spec", ["", "rope:2", "linear", "linear:-1", "linear:x", "yarn:2,foo=1", "llama3:8,low=4,high=1"]
)
def test_bad_specs_are_rejected_in_one_line(spec: str) -> None:
    with pytest.raises(ValueError) as error:
        parse_scaling(spec)
    assert "\n" not in str(error.value)
