"""The tolerance model's bounds hold on computations really carried out in each dtype (ground truth: mpmath at
50 digits), and a degraded computation breaks the bound it does not deserve."""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import ml_dtypes
import mpmath
import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from ropecheck.numeric.reference import inverse_frequencies, tolerances
from ropecheck.numeric.reference.tolerances import DTYPES

from tests._reference_helpers import NUMPY_DTYPES, PINNED_POSITIONS, as_dtype, floats_in

THETAS = inverse_frequencies(32).hi
positions = st.integers(0, 2**31 - 1)
frequency_indices = st.integers(0, THETAS.size - 1)


def exact(value: float | int) -> mpmath.mpf:
    return mpmath.mpf(float(value)) if isinstance(value, float) else mpmath.mpf(int(value))


def error_of(computed: object, wanted: mpmath.mpf) -> float:
    """|computed − wanted| in mpmath; infinite for a computed inf or NaN."""
    value = float(computed)
    return float(abs(exact(value) - wanted)) if math.isfinite(value) else math.inf


def rotate_pairs(
    first: np.ndarray, second: np.ndarray, position: int, thetas: np.ndarray, dtype: str, angle_dtype: str
) -> tuple[np.ndarray, np.ndarray]:
    """A RoPE rotation as an implementation does it: angle and cos/sin in `angle_dtype`, the rest in `dtype`."""
    with np.errstate(over="ignore", invalid="ignore"):
        angle = as_dtype(position, angle_dtype) * as_dtype(thetas, angle_dtype)
        assert angle.dtype == NUMPY_DTYPES[angle_dtype]
        cos, sin = (as_dtype(function(angle), dtype) for function in (np.cos, np.sin))
        first, second = as_dtype(first, dtype), as_dtype(second, dtype)
        rotated = (first * cos - second * sin, first * sin + second * cos)
    assert all(part.dtype == NUMPY_DTYPES[dtype] for part in rotated)
    return rotated


def exact_rotation(first: float, second: float, position: int, theta: float) -> tuple[mpmath.mpf, mpmath.mpf]:
    angle = int(position) * exact(theta)
    cos, sin = mpmath.cos(angle), mpmath.sin(angle)
    return exact(first) * cos - exact(second) * sin, exact(first) * sin + exact(second) * cos


def in_dtype(low: float, high: float, count: int = 2) -> st.SearchStrategy[tuple]:
    """(dtype, angle dtype, `count` floats exact in dtype)."""
    return st.sampled_from(DTYPES).flatmap(
        lambda dtype: st.tuples(
            st.just(dtype), st.sampled_from(DTYPES), *(floats_in(dtype, low, high) for _ in range(count))
        )
    )


@pytest.mark.parametrize("dtype", DTYPES)
def test_formats_match_the_dtypes(dtype: str) -> None:
    information = ml_dtypes.finfo(NUMPY_DTYPES[dtype])
    assert tolerances.unit_roundoff(dtype) == float(information.eps) / 2
    assert tolerances.largest_finite(dtype) == float(information.max)
    limit = tolerances.exact_integer_limit(dtype)
    assert float(as_dtype(limit, dtype)) == limit and float(as_dtype(limit + 1, dtype)) != limit + 1
    assert tolerances.smallest_normal(dtype) == float(information.tiny)
    # Flush-to-zero aware (issue 15): XLA on CPU flushes subnormals in bfloat16, float32 and float64 (measured).
    flushed = dtype != "float16"
    expected = float(information.tiny) if flushed else float(information.smallest_subnormal) / 2
    assert tolerances.underflow_error(dtype) == expected


def test_gamma_guarantees_nothing_once_roundings_exhaust_the_precision() -> None:
    assert tolerances.gamma(0, "float32") == 0
    assert tolerances.gamma(255, "bfloat16") == pytest.approx(255 / 256 / (1 - 255 / 256))
    assert tolerances.gamma(256, "bfloat16") == math.inf


@given(angle_dtype=st.sampled_from(DTYPES), position=positions, index=frequency_indices)
@example(angle_dtype="float16", position=0, index=1)
@example(angle_dtype="bfloat16", position=256, index=1)
@example(angle_dtype="bfloat16", position=257, index=1)
@example(angle_dtype="float16", position=2048, index=3)
@example(angle_dtype="float16", position=2049, index=3)
@example(angle_dtype="float16", position=65504, index=15)
@example(angle_dtype="float32", position=2**24, index=1)
def test_angle_error_bound_holds(angle_dtype: str, position: int, index: int) -> None:
    theta = float(THETAS[index])
    with np.errstate(over="ignore"):
        angle = as_dtype(position, angle_dtype) * as_dtype(theta, angle_dtype)
    assert angle.dtype == NUMPY_DTYPES[angle_dtype]
    bound = tolerances.angle_error_bound(position, theta, angle_dtype)
    with mpmath.workdps(50):
        observed = error_of(angle, position * exact(theta))
    assert observed <= bound


@given(exponent=st.integers(53, 80), offset=st.integers(1, 2**20), theta=st.sampled_from([1.0, 0.7, 1e-3, 0.123456789]))
@example(exponent=54, offset=1, theta=1.0)
def test_angle_error_bound_is_an_upper_bound_for_integers_beyond_float64(
    exponent: int, offset: int, theta: float
) -> None:
    """Issue 36: a Python int position beyond 2⁵³ is rounded when turned into float64 (2⁵⁴ + 1 → 2⁵⁴), and the
    float64 evaluation itself rounds; the returned bound must still be at least the model's exact value
    r·|m|·θ + (1 + 2u)·|m|·η + η, compared in exact rational arithmetic (the old code fell below it on every case)."""
    from fractions import Fraction

    from ropecheck.numeric.reference._formats import underflow_error, unit_roundoff

    position = 2**exponent + offset
    bound = tolerances.angle_error_bound(position, theta, "float64")
    relative = Fraction(float(tolerances.angle_relative_error("float64", True)))
    eta, u = Fraction(underflow_error("float64")), Fraction(unit_roundoff("float64"))
    exact_model = relative * position * Fraction(theta) + (1 + 2 * u) * position * eta + eta
    assert isinstance(bound, float)
    assert Fraction(bound) >= exact_model


@given(case=in_dtype(-8, 8), position=positions, index=frequency_indices)
@example(case=("float16", "float16", 1.0, -0.5), position=0, index=0)
@example(case=("bfloat16", "bfloat16", 1.0, -0.5), position=256, index=1)
@example(case=("bfloat16", "float32", 1.0, -0.5), position=257, index=1)
@example(case=("float16", "float32", 3.0, 0.25), position=2048, index=2)
@example(case=("float16", "float16", 3.0, 0.25), position=2049, index=2)
@example(case=("float16", "float16", 3.0, 0.25), position=65504, index=15)
@example(case=("float32", "float32", 3.0, 0.25), position=2**24, index=1)
@example(case=("float16", "float16", 65504.0, 65504.0), position=4095, index=0)
def test_rotation_output_bound_holds(case: tuple, position: int, index: int) -> None:
    dtype, angle_dtype, first, second = case
    theta = float(THETAS[index])
    rotated = rotate_pairs(
        np.array([first]), np.array([second]), position, THETAS[index : index + 1], dtype, angle_dtype
    )
    bound = tolerances.rotation_output_bound(abs(first) + abs(second), position, theta, dtype, angle_dtype=angle_dtype)
    with mpmath.workdps(50):
        wanted = exact_rotation(first, second, position, theta)
        observed = max(error_of(got[0], want) for got, want in zip(rotated, wanted, strict=True))
    assert bound == math.inf or observed <= bound


def test_rotation_output_bound_is_infinite_where_the_dtype_overflows() -> None:
    """Issue 36: the pointwise theorem is over the reals (no overflow); at the float16 edge, m = 4095 and
    x = (65504, 65504), the computed rotation overflows to ±inf while the exact value is finite, so the bound must
    be inf there (it was 262400) — and stays finite where every intermediate fits (x = (1, 1))."""
    rotated = rotate_pairs(np.array([65504.0]), np.array([65504.0]), 4095, THETAS[:1], "float16", "float16")
    assert not all(np.isfinite(part[0]) for part in rotated)
    assert tolerances.rotation_output_bound(2 * 65504.0, 4095, float(THETAS[0]), "float16") == math.inf
    assert math.isfinite(tolerances.rotation_output_bound(2.0, 4095, float(THETAS[0]), "float16"))


def exact_relative_score(query: np.ndarray, key: np.ndarray, distance: int) -> mpmath.mpf:
    """qᵀR(distance)k = Σᵢ cos(rθᵢ)(q₁k₁ + q₂k₂) + sin(rθᵢ)(q₂k₁ − q₁k₂), interleaved pairs."""
    total = mpmath.mpf(0)
    for index, theta in enumerate(THETAS):
        q1, q2, k1, k2 = (
            exact(float(v)) for v in (query[2 * index], query[2 * index + 1], key[2 * index], key[2 * index + 1])
        )
        angle = distance * exact(float(theta))
        total += mpmath.cos(angle) * (q1 * k1 + q2 * k2) + mpmath.sin(angle) * (q2 * k1 - q1 * k2)
    return total


def computed_score(query: np.ndarray, key: np.ndarray, m: int, n: int, dtype: str, angle_dtype: str) -> np.ndarray:
    rotated_query = rotate_pairs(query[0::2], query[1::2], m, THETAS, dtype, angle_dtype)
    rotated_key = rotate_pairs(key[0::2], key[1::2], n, THETAS, dtype, angle_dtype)
    products = np.concatenate([rotated_query[part] * rotated_key[part] for part in (0, 1)])
    score = np.add.reduce(products, dtype=NUMPY_DTYPES[dtype])
    assert score.dtype == NUMPY_DTYPES[dtype]
    return score


@given(
    case=in_dtype(0, 1, count=0).flatmap(lambda c: st.tuples(*map(st.just, c), st.integers(0, 2**32 - 1))),
    m=positions,
    n=positions,
)
@example(case=("float16", "float16", 0), m=0, n=2049)
@example(case=("bfloat16", "float32", 1), m=256, n=257)
@example(case=("float16", "float32", 2), m=2048, n=65504)
@example(case=("float32", "float32", 3), m=2**24, n=0)
def test_relative_score_bound_holds(case: tuple, m: int, n: int) -> None:
    dtype, angle_dtype, seed = case
    generator = np.random.default_rng(seed)
    query, key = (as_dtype(generator.standard_normal(2 * THETAS.size), dtype) for _ in range(2))
    score = computed_score(query, key, m, n, dtype, angle_dtype)
    norms = [float(np.linalg.norm(vector.astype(np.float64))) for vector in (query, key)]
    bound = tolerances.relative_score_bound(*norms, m, n, THETAS, dtype, angle_dtype)
    with mpmath.workdps(50):
        observed = error_of(score, exact_relative_score(query, key, n - m))
    assert bound == math.inf or observed <= bound


jax_dtypes = st.sampled_from(("float16", "bfloat16", "float32"))


@given(
    case=jax_dtypes.flatmap(
        lambda dtype: st.tuples(st.just(dtype), st.lists(floats_in(dtype, -4, 4), min_size=32, max_size=32))
    )
)
@example(case=("bfloat16", [1.0] * 32))
@example(case=("float16", [2049.0 / 1024, -3.0, 0.5, 0.25] * 8))
def test_dot_product_bound_holds_for_jax(case: tuple) -> None:
    dtype, values = case
    vector = jnp.asarray(as_dtype(values, dtype))
    reversed_vector = vector[::-1]
    assert vector.dtype == NUMPY_DTYPES[dtype]
    result = jnp.dot(vector, reversed_vector)
    assert result.dtype == NUMPY_DTYPES[dtype]
    with mpmath.workdps(50):
        terms = [exact(a) * exact(b) for a, b in zip(values, values[::-1], strict=True)]
        observed = error_of(result, mpmath.fsum(terms))
        bound = tolerances.dot_product_bound(float(mpmath.fsum(abs(t) for t in terms)), len(values), dtype)
    assert observed <= bound


@given(case=in_dtype(-70000, 70000, count=1))
@example(case=("float16", "float16", 2049.0))
@example(case=("bfloat16", "bfloat16", 257.0))
@example(case=("float16", "float16", 65504.0))
def test_expression_bound_holds_for_the_pythagorean_identity(case: tuple) -> None:
    dtype, _, angle = case
    value = as_dtype(angle, dtype)
    cos, sin = np.cos(value), np.sin(value)
    residual = cos * cos + sin * sin - as_dtype(1, dtype)
    assert residual.dtype == NUMPY_DTYPES[dtype]
    assert float(abs(residual)) <= tolerances.expression_bound(3.0, 4, dtype, trig_weight=4.0)


@given(
    case=jax_dtypes.flatmap(
        lambda dtype: st.tuples(st.just(dtype), st.lists(floats_in(dtype, -4, 4), min_size=8, max_size=8))
    )
)
@example(case=("float16", [-4.0, 4.0, 0.0, 1.0] * 2))
@example(case=("bfloat16", [4.0] * 7 + [-4.0]))
def test_softmax_row_bound_holds_for_jax(case: tuple) -> None:
    dtype, logits = case
    row = jnp.asarray(as_dtype(logits, dtype))
    probabilities = np.asarray(jax.nn.softmax(row))
    assert probabilities.dtype == NUMPY_DTYPES[dtype]
    bound = tolerances.softmax_row_bound(max(logits) - min(logits), len(logits), dtype)
    with mpmath.workdps(50):
        weights = [mpmath.exp(exact(x) - exact(max(logits))) for x in logits]
        total = mpmath.fsum(weights)
        relative = max(
            float(abs(exact(float(got)) / (w / total) - 1)) for got, w in zip(probabilities, weights, strict=True)
        )
    assert relative <= bound


@given(case=in_dtype(0, 1, count=0), distance=st.integers(-(2**20), 2**20))
@example(case=("float16", "float16"), distance=2049)
@example(case=("bfloat16", "float32"), distance=257)
@example(case=("float32", "float32"), distance=0)
def test_partial_sums_modulus_bound_holds(case: tuple, distance: int) -> None:
    dtype, angle_dtype = case
    with np.errstate(over="ignore", invalid="ignore"):
        angle = as_dtype(distance, angle_dtype) * as_dtype(THETAS, angle_dtype)
        real, imaginary = (np.cumsum(as_dtype(f(angle), dtype), dtype=NUMPY_DTYPES[dtype]) for f in (np.cos, np.sin))
        total = np.add.reduce(np.sqrt(real * real + imaginary * imaginary), dtype=NUMPY_DTYPES[dtype])
    assert total.dtype == NUMPY_DTYPES[dtype]
    bound = tolerances.partial_sums_modulus_bound(distance, THETAS, dtype, angle_dtype=angle_dtype)
    with mpmath.workdps(50):
        terms = [mpmath.expj(distance * exact(float(theta))) for theta in THETAS]
        partial, wanted = mpmath.mpc(0), mpmath.mpf(0)
        for term in terms:
            partial += term
            wanted += abs(partial)
        observed = error_of(total, wanted)
    assert bound == math.inf or observed <= bound


@pytest.mark.parametrize("position", [p for p in PINNED_POSITIONS if 2048 < p <= 65504])
def test_float16_angles_break_a_float32_budget(position: int) -> None:
    """Meta-test: the float32 model must reject a rotation whose angle was secretly formed in float16."""
    first, second, index = 1.0, 0.5, 1
    rotated = rotate_pairs(
        np.array([first]), np.array([second]), position, THETAS[index : index + 1], "float32", "float16"
    )
    with mpmath.workdps(50):
        wanted = exact_rotation(first, second, position, float(THETAS[index]))
        observed = max(error_of(got[0], want) for got, want in zip(rotated, wanted, strict=True))
    bound = tolerances.rotation_output_bound(first + second, position, float(THETAS[index]), "float32")
    check = tolerances.Check(observed=observed, bound=bound)
    assert not check.ok and check.ratio > 100


def test_float16_angles_break_a_float32_score_budget() -> None:
    generator = np.random.default_rng(7)
    query, key = (as_dtype(generator.standard_normal(2 * THETAS.size), "float32") for _ in range(2))
    m, n = 3000, 10
    score = computed_score(query, key, m, n, "float32", "float16")
    norms = [float(np.linalg.norm(vector.astype(np.float64))) for vector in (query, key)]
    with mpmath.workdps(50):
        observed = error_of(score, exact_relative_score(query, key, n - m))
    assert observed > tolerances.relative_score_bound(*norms, m, n, THETAS, "float32", "float32")


@pytest.mark.parametrize("angle_dtype", DTYPES)
def test_largest_position_within_is_the_edge_of_the_budget(angle_dtype: str) -> None:
    budget = 5e-2

    def bound(position: int) -> float:
        return tolerances.relative_score_bound(
            1.0, 1.0, position, position, THETAS, "float32", angle_dtype, accumulation_dtype="float32"
        )

    largest = tolerances.largest_position_within(budget, THETAS, angle_dtype, dtype="float32")
    assert largest >= 0 and bound(largest) <= budget < bound(largest + 1)


def test_largest_position_within_reports_an_impossible_budget() -> None:
    assert tolerances.largest_position_within(1e-3, THETAS, "bfloat16") == -1


def test_check_reports_its_worst_case() -> None:
    check = tolerances.Check.from_cases([1e-7, 3e-7, 1e-9], [1e-6, 1e-6, 1e-10])
    assert check.to_json() == {"max_error": 1e-9, "bound": 1e-10, "ratio": pytest.approx(10.0), "cases": 3}
    assert not check.ok
    assert tolerances.Check(observed=0.5, bound=1.0).ok


def test_mpmath_tolerance_follows_the_working_precision() -> None:
    assert tolerances.mpmath_tolerance(50) == pytest.approx(1e-40)
    with pytest.raises(ValueError):
        tolerances.mpmath_tolerance(tolerances.MPMATH_GUARD_DIGITS)
