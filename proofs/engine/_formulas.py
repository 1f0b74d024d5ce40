"""The one place where each formula of the ledger is written (SymPy).

Proofs build their statements from these functions and the numeric mirrors evaluate the same objects
(lambdified), so a formula is never restated by hand in a second place. Conventions (GUIDE.md §5):
*counter-clockwise* rotations `[[cos, −sin], [sin, cos]]`, *interleaved* pairs `(2i, 2i+1)`, and
`θᵢ = base^(−2i/d)` for `i = 0 … d/2 − 1`.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

DEFAULT_BASE = sp.Integer(10000)
UNIT_SCALE = sp.Integer(1)

# ------------------------------------------------------------------------------------------ symbols
m, n = sp.symbols("m n", integer=True)
p, q_pos = sp.symbols("p q", integer=True)
delta = sp.Symbol("delta", integer=True)
theta = sp.Symbol("theta", positive=True)
omega = sp.Symbol("omega", positive=True)
i_index = sp.Symbol("i", integer=True, nonnegative=True)
d_dim = sp.Symbol("d", integer=True, positive=True, even=True)


def real_vector(name: str, length: int) -> sp.Matrix:
    """A column vector of real symbols `name1 … name<length>`."""
    return sp.Matrix(sp.symbols(f"{name}1:{length + 1}", real=True))


def real_matrix(name: str, rows: int, cols: int) -> sp.Matrix:
    """A matrix of real symbols `name_ij`."""
    return sp.Matrix(rows, cols, lambda r, c: sp.Symbol(f"{name}_{r + 1}{c + 1}", real=True))


# ---------------------------------------------------------------------------------------- rotations
def rotation(angle: sp.Expr) -> sp.Matrix:
    """The counter-clockwise 2×2 rotation `[[cos a, −sin a], [sin a, cos a]]` (ROPE-PAIR-FORMULA)."""
    return sp.Matrix([[sp.cos(angle), -sp.sin(angle)], [sp.sin(angle), sp.cos(angle)]])


def block_diagonal(blocks: Sequence[sp.Matrix]) -> sp.Matrix:
    """Block-diagonal matrix from square blocks."""
    return sp.diag(*blocks)


def rope_matrix(position: sp.Expr, thetas: Sequence[sp.Expr]) -> sp.Matrix:
    """`R^d_{Θ,position}`: block-diagonal rotations by `position·θᵢ` on interleaved pairs (RoFormer Eq. 15)."""
    return block_diagonal([rotation(position * t) for t in thetas])


def rope_frequency(index: sp.Expr, d: sp.Expr, base: sp.Expr = DEFAULT_BASE) -> sp.Expr:
    """`θᵢ = base^(−2i/d)` with 0-based `i` (ROPE-FREQUENCIES)."""
    return base ** (-2 * index / d)


def rope_frequencies(d: int, base: int = 10000) -> list[sp.Expr]:
    """The `d/2` exact frequencies for an explicit even `d`."""
    return [rope_frequency(sp.Integer(i), sp.Integer(d), sp.Integer(base)) for i in range(d // 2)]


def dot(a: sp.Matrix, b: sp.Matrix) -> sp.Expr:
    """Real inner product `aᵀb` of two column vectors."""
    return (a.T * b)[0, 0]


def hermitian_dot(a: Sequence[sp.Expr], b: Sequence[sp.Expr]) -> sp.Expr:
    """Complex inner product `⟨a, b⟩ = Σ aⱼ·conj(bⱼ)` (linear in the first argument)."""
    return sp.Add(*[x * sp.conjugate(y) for x, y in zip(a, b, strict=True)])


def complex_as_pair(z: sp.Expr) -> sp.Matrix:
    """A complex number as the real pair `(Re z, Im z)`."""
    return sp.Matrix([sp.re(z), sp.im(z)])


def cross2(a: sp.Matrix, b: sp.Matrix) -> sp.Expr:
    """The 2-D cross term `a₁b₂ − a₂b₁`."""
    return a[0] * b[1] - a[1] * b[0]


# ------------------------------------------------------------------------------ sinusoidal encoding
def sinusoidal_encoding(position: sp.Expr, frequencies: Sequence[sp.Expr]) -> sp.Matrix:
    """`PE(p)` with `PE_{2i} = sin(p·ωᵢ)`, `PE_{2i+1} = cos(p·ωᵢ)` (Vaswani et al. 2017, §3.5)."""
    entries: list[sp.Expr] = []
    for w in frequencies:
        entries += [sp.sin(position * w), sp.cos(position * w)]
    return sp.Matrix(entries)


def sinusoidal_frequency(index: sp.Expr, d: sp.Expr, base: sp.Expr = DEFAULT_BASE) -> sp.Expr:
    """`ωᵢ = base^(−2i/d)`: the angular frequency of the pair `(2i, 2i+1)`."""
    return base ** (-2 * index / d)


def cosine_sum(distance: sp.Expr, frequencies: Sequence[sp.Expr], weights: Sequence[sp.Expr] | None = None) -> sp.Expr:
    """`Σᵢ hᵢ·cos(Δ·ωᵢ)`: the sinusoidal dot product (h = 1) and the RoPE score for pair weights h."""
    weights = weights if weights is not None else [sp.Integer(1)] * len(frequencies)
    return sp.Add(*[h * sp.cos(distance * w) for h, w in zip(weights, frequencies, strict=True)])


# ---------------------------------------------------------------------------------------- attention
def softmax_rows(scores: sp.Matrix) -> sp.Matrix:
    """Row-wise softmax `exp(A_ij) / Σ_k exp(A_ik)`."""
    rows, cols = scores.shape
    out = sp.zeros(rows, cols)
    for r in range(rows):
        exps = [sp.exp(scores[r, c]) for c in range(cols)]
        total = sp.Add(*exps)
        for c in range(cols):
            out[r, c] = exps[c] / total
    return out


def attention(queries: sp.Matrix, keys: sp.Matrix, values: sp.Matrix, scale: sp.Expr = UNIT_SCALE) -> sp.Matrix:
    """`softmax(Q Kᵀ · scale) V` with one token per row."""
    return softmax_rows(queries * keys.T * scale) * values


def permutation_matrix(order: Sequence[int]) -> sp.Matrix:
    """`P` with `(P X)_i = X_{order[i]}`."""
    size = len(order)
    return sp.Matrix(size, size, lambda r, c: 1 if order[r] == c else 0)


def rope_rows(rows: sp.Matrix, positions: Sequence[sp.Expr], thetas: Sequence[sp.Expr]) -> sp.Matrix:
    """Apply RoPE to each row of a token matrix at the given positions (rows are tokens)."""
    out = []
    for r, position in enumerate(positions):
        out.append((rope_matrix(position, thetas) * rows[r, :].T).T)
    return sp.Matrix.vstack(*out)


# ---------------------------------------------------------------------------------- decay (RoFormer)
def partial_sums(terms: Sequence[sp.Expr]) -> list[sp.Expr]:
    """`S_j = Σ_{k<j} z_k` for `j = 1 … len(terms)` (RoFormer §3.4.3)."""
    sums: list[sp.Expr] = []
    running: sp.Expr = sp.Integer(0)
    for z in terms:
        running = running + z
        sums.append(running)
    return sums


def roformer_relative_bound(distance: sp.Expr, thetas: Sequence[sp.Expr]) -> sp.Expr:
    """The RoFormer relative upper bound `(1/(d/2))·Σ_{j=1}^{d/2} |S_j|` with `S_j = Σ_{k<j} e^{iΔθ_k}`."""
    sums = partial_sums([sp.exp(sp.I * distance * t) for t in thetas])
    # evaluate=False keeps |S_j| as a modulus instead of SymPy expanding it into sqrt(re² + im²) of trig sums.
    return sp.Add(*[sp.Abs(s, evaluate=False) for s in sums]) / len(thetas)


def elu_plus_one(x: sp.Expr) -> sp.Expr:
    """The positive feature map `elu(x) + 1` of linear attention (Katharopoulos et al. 2020)."""
    return sp.Piecewise((x + 1, x > 0), (sp.exp(x), True))
