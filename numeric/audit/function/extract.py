"""Extraction: the per-position linear map of a black-box RoPE, its pairing, direction and angles (GUIDE §5).

A RoPE is linear in x for a fixed position, so probing with the d basis vectors, batched across positions
(x of shape `(d, L, d)`), gives M(p) for every position of the call: column j of M(p) is the output for eⱼ. From
M(p): which coordinates mix (the pairing and layout), the sign of the sine entry (direction), the angle φᵢ(p) of
every pair, and whether each 2×2 block is a rotation at all. The long sweep over every position then needs only
three probes per position (`sweep_probes`): the sum of the first coordinates of all pairs, the sum of the second
ones, and one random vector that exposes any mixing the first two would alias.

Serves ROPE-PAIR-FORMULA, ROPE-COMPLEX-IS-ROTATION and ROPE-FREQUENCIES.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from ropecheck.numeric.audit.function import policy
from ropecheck.numeric.audit.function.calls import Caller

__all__ = [
    "Structure",
    "block_angles",
    "estimate_frequencies",
    "extract_matrices",
    "find_structure",
    "sweep_probes",
]


def extract_matrices(caller: Caller, positions: np.ndarray, dtype: str, d: int) -> np.ndarray:
    """M(p) for every position of one call, from the d basis probes.

    **Arguments:**

    - `caller`: the target.
    - `positions`: integer positions, shape `(L,)`.
    - `dtype`: the dtype of the probes.
    - `d`: the head dimension.

    **Returns:**

    float64 array of shape `(L, d, d)` with `M[l] @ x = fn(x, positions)[l]`.
    """
    probes = np.broadcast_to(np.eye(d)[:, np.newaxis, :], (d, positions.size, d))
    y, _ = caller.call(np.ascontiguousarray(probes), positions, dtype)
    return np.ascontiguousarray(y.transpose(1, 2, 0))


@dataclasses.dataclass
class Structure:
    """The pairing found in M(p).

    **Fields:**

    - `pairs`: `(n, 2)` int array of coordinate pairs (a, b), a < b, in frequency order (sorted by a).
    - `passthrough`: coordinates that never mix (left as they are, e.g. partial rotary).
    - `layout`: `"interleaved"` (2i, 2i+1), `"half"` (i, i + r/2), `"p-rope"` (i, i + d/2 for i < r/2, the rest
      passed through), `"other"` or `"none"` (nothing rotates).
    - `rotary_dim`: r = 2n.
    - `direction`: `"counter-clockwise"`, `"clockwise"`, `"mixed"` or `"unknown"`.
    - `problems`: why M(p) is not a 2×2 rotation per pair (empty when it is).
    - `worst_ratio`: the largest structural deviation over its bound.
    """

    pairs: np.ndarray
    passthrough: np.ndarray
    layout: str
    rotary_dim: int
    direction: str
    problems: list[str]
    worst_ratio: float
    unchanged: bool = True


def _components(support: np.ndarray) -> list[list[int]]:
    d = support.shape[0]
    parent = list(range(d))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for j, k in zip(*np.nonzero(support), strict=True):
        root_j, root_k = find(int(j)), find(int(k))
        if root_j != root_k:
            parent[max(root_j, root_k)] = min(root_j, root_k)
    groups: dict[int, list[int]] = {}
    for i in range(d):
        groups.setdefault(find(i), []).append(i)
    return sorted(groups.values())


def _layout(pairs: np.ndarray, d: int) -> str:
    if pairs.size == 0:
        return "none"
    r = 2 * len(pairs)
    if set(pairs.reshape(-1).tolist()) != set(range(r)):
        return _partial_layout(pairs, d) or "other"
    index = np.arange(len(pairs))
    if np.array_equal(pairs[:, 0], 2 * index) and np.array_equal(pairs[:, 1], 2 * index + 1):
        return "interleaved"
    if np.array_equal(pairs[:, 0], index) and np.array_equal(pairs[:, 1], index + r // 2):
        return "half"
    return "other"


def _partial_layout(pairs: np.ndarray, d: int) -> str | None:
    """p-RoPE's placement: pairs (i, i + d/2) for i < r/2 over the whole head, the rest passed through."""
    index = np.arange(len(pairs))
    if 0 < 2 * len(pairs) < d and np.array_equal(pairs[:, 0], index) and np.array_equal(pairs[:, 1], index + d // 2):
        return "p-rope"
    return None


#: A coordinate pair mixes when its accumulated mass is at least this fraction of the strongest mixing either
#: coordinate shows (see `mixing_support`).
MIXING_FRACTION = 1e-3


def mixing_support(
    matrices: np.ndarray, positions: np.ndarray, dtype: str, theta_units: float, attention_factor: float
) -> np.ndarray:
    """Which coordinates mix, by one statistical test accumulated over every probed position.

    For each coordinate pair (j, k) the mass S_jk = Σ_p |M_jk(p)| + |M_kj(p)| is summed over all positions. A slow
    pair (θ ≈ 10⁻⁷ rad/position) has a tiny sine at any one position but a mass that grows with Σ p, while an entry
    the ideal has at 0 stays at 0 (or at rounding noise) everywhere. (j, k) mix when S_jk exceeds both the noise
    floor — L times the per-entry bound at position 1, the smallest bound of any position that rotates — and
    `MIXING_FRACTION` of the strongest mass of j or of k (so rounding noise beside a real rotation is not mixing,
    while a leak of 0.1 % of a rotation is). The same test decides pairs, pass-through coordinates and layouts.

    **Arguments:**

    - `matrices`: `(L, d, d)` per-position maps.
    - `positions`: `(L,)` their positions.
    - `dtype`, `theta_units`, `attention_factor`: as for `entry_bound`.

    **Returns:**

    A symmetric boolean `(d, d)` array, False on the diagonal.
    """
    d = matrices.shape[-1]
    # Positions whose map is not finite (e.g. positions beyond float16's range) carry no evidence of pairing.
    finite = np.isfinite(matrices).all(axis=(1, 2))
    off_diagonal = np.abs(matrices[finite]) * (1 - np.eye(d))
    mass = off_diagonal.sum(axis=0)
    mass = mass + mass.T
    floor = int(finite.sum()) * float(entry_bound(np.ones(1, dtype=np.int64), dtype, theta_units, attention_factor)[0])
    strongest = mass.max(axis=1)
    relative = MIXING_FRACTION * np.maximum(strongest[:, np.newaxis], strongest[np.newaxis, :])
    return (mass > floor) & (mass > relative)


def entry_bound(
    positions: np.ndarray,
    dtype: str,
    theta_units: float,
    attention_factor: float,
    precision: policy.PrecisionClass | None = None,
) -> np.ndarray:
    """A frequency-independent per-entry bound for basis probes: the policy bound at θ = 1, the largest θ of
    any RoPE (θ₀ = base⁰), shape `(L,)`."""
    bound = policy.output_bound(
        1.0,
        positions,
        np.ones(1),
        dtype,
        theta_units=theta_units,
        attention_factor=attention_factor,
        precision=precision,
    )
    return bound[:, 0]


def find_structure(
    matrices: np.ndarray, positions: np.ndarray, dtype: str, theta_units: float, attention_factor: float
) -> Structure:
    """Pairing, layout, direction and rotation-ness of M(p) (GUIDE §5 conventions).

    **Arguments:**

    - `matrices`: `(L, d, d)` from `extract_matrices` (several calls concatenated); position 1 must be among
      `positions` for the direction.
    - `positions`: the positions of the rows.
    - `dtype`: the probes' dtype.
    - `theta_units`: k_θ of the policy.
    - `attention_factor`: g.

    **Returns:**

    A `Structure`.
    """
    d = matrices.shape[-1]
    beta = entry_bound(positions, dtype, theta_units, attention_factor)[:, np.newaxis, np.newaxis]
    support = mixing_support(matrices, positions, dtype, theta_units, attention_factor)
    problems: list[str] = []
    pairs, passthrough = [], []
    for group in _components(support):
        if len(group) == 1:
            passthrough.append(group[0])
        elif len(group) == 2:
            pairs.append(group)
        else:
            shown = ", ".join(map(str, group[:8])) + (", …" if len(group) > 8 else "")
            problems.append(f"coordinates {shown} mix together: not a 2×2 rotation per pair")
    pair_array = np.array(sorted(pairs), dtype=np.int64).reshape(-1, 2)
    worst = 0.0
    if pair_array.size:
        a, b = pair_array[:, 0], pair_array[:, 1]
        diagonal_gap = np.abs(matrices[:, a, a] - matrices[:, b, b])
        antisymmetry_gap = np.abs(matrices[:, a, b] + matrices[:, b, a])
        ratio = np.maximum(diagonal_gap, antisymmetry_gap) / (2 * beta[:, :, 0])
        worst = float(ratio.max())
        if worst > 1:
            row, column = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
            pa, pb = int(a[column]), int(b[column])
            block = matrices[row][np.ix_([pa, pb], [pa, pb])]
            problems.append(
                f"the block of coordinates ({pa}, {pb}) at position {int(positions[row])} is not a rotation:"
                f" [[{block[0, 0]:.6g}, {block[0, 1]:.6g}], [{block[1, 0]:.6g}, {block[1, 1]:.6g}]]"
            )
    passthrough_array = np.array(passthrough, dtype=np.int64)
    if passthrough_array.size:
        identity_gap = np.abs(matrices[:, passthrough_array, passthrough_array] - 1.0)
        tolerance = policy.passthrough_bound(np.ones(1), dtype)[0]
        if identity_gap.max() > tolerance and pair_array.size:
            column = int(passthrough_array[int(np.argmax(identity_gap.max(axis=0)))])
            problems.append(f"coordinate {column} does not mix with any other but is not left unchanged either")
    direction = _direction(matrices, positions, pair_array, beta)
    if problems:
        worst = max(worst, math.inf if not pair_array.size else worst)
    unchanged = True
    if passthrough_array.size:
        gap = np.abs(matrices[:, passthrough_array, passthrough_array] - 1.0)
        unchanged = bool(np.nanmax(gap, initial=0.0) <= policy.passthrough_bound(np.ones(1), dtype)[0])
    return Structure(
        unchanged=unchanged,
        pairs=pair_array,
        passthrough=passthrough_array,
        layout=_layout(pair_array, d),
        rotary_dim=2 * len(pair_array),
        direction=direction,
        problems=problems,
        worst_ratio=worst,
    )


def _direction(matrices: np.ndarray, positions: np.ndarray, pairs: np.ndarray, beta: np.ndarray) -> str:
    """Sign of the sine entry M[b, a] at the smallest positive position: θ·p < π there for every RoPE."""
    if pairs.size == 0:
        return "unknown"
    positive = np.nonzero(positions > 0)[0]
    if positive.size == 0:
        return "unknown"
    row = int(positive[np.argmin(positions[positive])])
    a, b = pairs[:, 0], pairs[:, 1]
    sine = (matrices[row, b, a] - matrices[row, a, b]) / 2
    clear = np.abs(sine) > beta[row, 0, 0]
    if not clear.any():
        return "unknown"
    signs = set(np.sign(sine[clear]).tolist())
    if signs == {1.0}:
        return "counter-clockwise"
    if signs == {-1.0}:
        return "clockwise"
    return "mixed"


def block_angles(matrices: np.ndarray, pairs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """φᵢ(p) = atan2(s, c) and the scale ρ = √(c² + s²) of every pair's block, c and s averaged over the block's
    two copies (so a rotation's rounding noise partly cancels).

    **Arguments:**

    - `matrices`: `(L, d, d)`.
    - `pairs`: `(n, 2)`.

    **Returns:**

    `(phi, rho)`, each `(L, n)`.
    """
    a, b = pairs[:, 0], pairs[:, 1]
    cosine = (matrices[:, a, a] + matrices[:, b, b]) / 2
    sine = (matrices[:, b, a] - matrices[:, a, b]) / 2
    return np.arctan2(sine, cosine), np.hypot(cosine, sine)


def estimate_frequencies(phi: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """θ̂ᵢ by least squares on the unwrapped angles of consecutive positions (slope with intercept, so an offset
    such as an off-by-one position does not bias it).

    **Arguments:**

    - `phi`: `(L, n)` angles at `positions`, which must be consecutive integers.
    - `positions`: `(L,)`.

    **Returns:**

    `(n,)` estimates.
    """
    unwrapped = np.unwrap(phi, axis=0)
    centred = positions.astype(np.float64) - positions.mean()
    return (centred[:, np.newaxis] * (unwrapped - unwrapped.mean(axis=0))).sum(axis=0) / (centred**2).sum()


def sweep_probes(d: int, structure: Structure, seed: int = 20240611) -> tuple[np.ndarray, np.ndarray]:
    """The three probes of the long sweep, as float64 vectors of length d (to be rounded to each dtype).

    - A: 1 at the first coordinate a of every pair and at every pass-through coordinate;
    - B: 1 at the second coordinate b of every pair;
    - R: a fixed random vector (uniform in [−1, 1], drawn from `seed`).

    **Arguments:**

    - `d`: head dimension.
    - `structure`: the pairing.
    - `seed`: seed of R.

    **Returns:**

    `(probes, random)` with probes of shape `(3, d)`.
    """
    probes = np.zeros((3, d))
    probes[0, structure.pairs[:, 0]] = 1.0
    probes[0, structure.passthrough] = 1.0
    probes[1, structure.pairs[:, 1]] = 1.0
    random = np.random.default_rng(seed).uniform(-1.0, 1.0, size=d)
    probes[2] = random
    return probes, random


def nice_candidates(value: float) -> list[float]:
    """`value` rounded to 1…6 significant digits, then itself: the bases worth trying first when inferring one."""
    if not (value > 0 and math.isfinite(value)):
        return [value]
    candidates = []
    for digits in range(1, 7):
        rounded = float(f"{value:.{digits - 1}e}")
        if rounded not in candidates:
            candidates.append(rounded)
    return [*candidates, value]


def output_permutation(matrix: np.ndarray) -> np.ndarray | None:
    """σ with y[i] = g·z[σ(i)] when M(0) is a scaled permutation matrix other than the identity (the target
    writes its rotation's coordinates in a fixed other order, y = P·R(p)·x: R(0) = I leaves M(0) = g·P).

    **Arguments:**

    - `matrix`: M(0), `(d, d)`, as `extract_matrices` gives it (rows are outputs).

    **Returns:**

    σ as an int array, or None when M(0) is no permutation or the identity.
    """
    magnitude = np.abs(matrix)
    scale = magnitude.max(axis=1, keepdims=True)
    if not np.all(np.isfinite(magnitude)) or np.any(scale <= 0):
        return None
    sigma = np.argmax(magnitude, axis=1)
    # Structure, not precision: off-entries well below the largest one in every row, one output per input.
    others = magnitude.copy()
    others[np.arange(matrix.shape[0]), sigma] = 0.0
    if np.any(others > 2.0**-6 * scale) or np.unique(sigma).size != sigma.size:
        return None
    if np.ptp(scale) > 2.0**-6 * float(scale.max()) or np.any(matrix[np.arange(matrix.shape[0]), sigma] < 0):
        return None
    if np.array_equal(sigma, np.arange(sigma.size)):
        return None
    return sigma


def interleaved_output(d: int) -> np.ndarray:
    """σ of `--output-layout interleaved`: output 2i holds coordinate i, output 2i + 1 coordinate i + d/2."""
    sigma = np.empty(d, dtype=np.int64)
    sigma[0::2] = np.arange(d // 2)
    sigma[1::2] = np.arange(d // 2) + d // 2
    return sigma
