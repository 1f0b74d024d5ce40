"""The properties of the sinusoidal kind, evaluated in order; the first failure is the root cause.

Each method adds its findings to the shared `FindingLog`, with the claims of `CLAIMS` and a fix in words, and
records what it could not evaluate (and why) instead of failing a property a root cause already explains.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
from ropecheck.numeric._encoding_reference import SCHEMES, sinusoidal_frequencies
from ropecheck.numeric.audit.function.calls import BadOutput, Caller, CallFailed
from ropecheck.numeric.audit.kinds._calls import KindSession, call_float64, caller_call
from ropecheck.numeric.audit.kinds._common import SEED, random_positions, sentence
from ropecheck.numeric.audit.kinds._report import FindingLog
from ropecheck.numeric.audit.kinds.names import KIND_PROPERTIES
from ropecheck.numeric.audit.properties.sinusoidal_hints import column_indexed, position_rounding_hint, write_into
from ropecheck.numeric.audit.properties.sinusoidal_numeric import (
    certified_position,
    gram_shift_check,
    precision_sweep,
    shift_check,
    transferred_bound,
)
from ropecheck.numeric.audit.properties.sinusoidal_structure import (
    Structure,
    angle_bound,
    estimate_frequencies,
    expected_table,
    explain_spectrum,
    find_structure,
    match_spectrum,
    pairs_of,
    spectrum_positions,
)

__all__ = ["CLAIMS", "PROPERTIES", "SinusoidalProperties"]

#: Evaluation order: a failure explains what comes after it where it says so.
PROPERTIES = KIND_PROPERTIES["sinusoidal"]

CLAIMS: dict[str, tuple[str, ...]] = {
    "contract": ("SPE-DOT-RELATIVE", "SPE-SHIFT-ROTATION"),
    "state": ("SPE-DOT-RELATIVE",),
    "layout": ("SPE-SHIFT-ROTATION", "SPE-SHIFT-ROTATION-004"),
    "spectrum": ("SPE-FREQUENCY-004", "SPE-WAVELENGTH-RANGE"),
    "positions": ("SPE-DOT-RELATIVE", "SPE-SHIFT-ROTATION"),
    "precision": ("SPE-DOT-RELATIVE", "SPE-WAVELENGTH-RANGE"),
    "relative": ("SPE-DOT-RELATIVE",),
    "shift": ("SPE-SHIFT-ROTATION", "SPE-SHIFT-ROTATION-004", "SPE-SHIFT-LINEAR-004"),
}

_STRUCTURE_ROWS = 1025


class _Uncallable(Exception):
    """A probe the target raised on: the property is not evaluated ("could not be called")."""


class SinusoidalProperties:
    """Runs the properties after the contract, for the dtypes that passed it."""

    def __init__(self, session: KindSession, options: dict[str, Any], log: FindingLog) -> None:
        self.session = session
        self.options = options
        self.log = log
        self.callers: dict[str, Caller] = {}
        self.width = 0
        self.detected: dict[str, Any] = {}
        self.certified: dict[str, Any] = {}
        self.first_bad: dict[str, int] = {}
        self.base = float(options["base"])
        #: Whether the declared --pair-order differs from the stored one (a layout finding that explains shift).
        self.order_mismatch = False
        #: Each dtype's rows of positions 0…63 from its contract call, in the order the dtypes were first called.
        self.first_rows: dict[str, np.ndarray] = {}
        self.n = int(options["max_position"])

    def add_dtype(self, dtype: str, caller: Caller, width: int) -> None:
        self.callers[dtype] = caller
        self.width = width

    # -- calling --------------------------------------------------------------------------------------------
    def rows(self, dtype: str, positions: np.ndarray, caller: Caller | None = None) -> np.ndarray:
        try:
            out, _ = call_float64(caller or self.callers[dtype], (positions,), (positions.size, self.width))
        except (BadOutput, CallFailed) as error:
            raise _Uncallable(error.reason) from None
        return out

    def bound(self, positions: np.ndarray, dtype: str, scale: float = 1.0) -> np.ndarray:
        omegas = sinusoidal_frequencies(self.width, self.base, self.options["frequencies"] or "standard").hi
        # The looser of the two schemes' frequency models: this bound compares the target with itself.
        entry = angle_bound(positions + self.options["offset"], omegas, dtype, self.base, "t2t") * scale
        # Layout-free (the largest bound of the row for every coordinate): for comparing the target with itself.
        return np.repeat(np.max(entry, axis=1, keepdims=True), self.width, axis=1)

    def _skip_rest(self, after: str, reason: str) -> None:
        for prop in PROPERTIES[PROPERTIES.index(after) + 1:]:
            self.log.skip(prop, reason)

    # -- the run ----------------------------------------------------------------------------------------------
    def run(self, dtypes: list[str]) -> None:
        primary = dtypes[0]
        self.detected["width"] = self.width
        try:
            if not self.state(primary):
                self._skip_rest("state", "explained by state: the rows change from call to call")
                return
            for dtype in dtypes[1:]:
                # One call with every audited position, as the state check made in the primary dtype: a table
                # grown from the call length (a state finding) then serves the probes below.
                self.rows(dtype, np.arange(self.n))
            length = min(self.n, _STRUCTURE_ROWS)
            rows = self.rows(primary, np.arange(length))
            far = np.unique(np.geomspace(length, self.n - 1, 32).astype(np.int64)) if self.n > length else None
            structure = find_structure(rows, self.bound(np.arange(length), primary)[:, : self.width // 2],
                                       self.options["layout"], None if far is None else self.rows(primary, far))
            self.describe(structure)
            intact = structure.intact
            if not intact.any():
                self._broken_pairs(structure, rows)
                for prop in ("layout", "spectrum", "precision", "shift"):
                    self.log.skip(prop, "explained by relative: no pair of coordinates is a (sin, cos) pair")
                self.positions(primary, None, structure)
                self.aliasing(primary)
                return
            self.layout(structure)
            if not intact.all():
                self._broken_pairs(structure, rows)
                for prop in ("spectrum", "precision", "shift"):
                    self.log.skip(prop, "explained by relative: some coordinates do not form (sin, cos) pairs")
                self.positions(primary, None, structure)
                self.aliasing(primary)
                return
            scheme, estimates = self.spectrum(primary, structure)
            positions_ok = self.positions(primary, scheme, structure)
            if scheme is None:
                for prop in ("precision", "relative", "shift"):
                    self.log.skip(prop, "explained by spectrum: the error model of the declared frequencies does "
                                        "not apply to other frequencies")
            elif not positions_ok:
                for prop in ("precision", "relative", "shift"):
                    self.log.skip(prop, "explained by positions: the rows are not those of the positions given")
            else:
                for dtype in dtypes:
                    self.precision(dtype, structure, scheme)
                self.relative_and_shift(dtypes, structure, scheme, estimates)
            self.aliasing(primary)
        except _Uncallable as error:
            # A probe the target raised on is "could not call", never a mathematical failure.
            self.log.could_not_call(str(error), PROPERTIES)

    # -- state ------------------------------------------------------------------------------------------------
    def state(self, dtype: str) -> bool:
        """Repeated calls and calls after longer ones return the same rows (checked first: nothing else is
        meaningful otherwise). A fresh instance called at large positions first agrees too."""
        self.log.current = "state"
        small = np.arange(64)
        first = self.rows(dtype, small)
        scale = max(float(np.max(np.abs(first))), 1.0)
        tolerance = 2 * self.bound(small, dtype, scale)
        problems = []
        if np.any(np.abs(self.rows(dtype, small) - first) > tolerance):
            problems.append("a repeated call returns different rows")
        long_positions = np.arange(self.n)
        long_rows = self.rows(dtype, long_positions)
        if np.any(np.abs(long_rows[:64] - first) > tolerance):
            problems.append("the rows of positions 0…63 differ between a call of length 64 and one of length "
                            f"{long_positions.size}")
        if np.any(np.abs(self.rows(dtype, small) - first) > tolerance):
            problems.append("after a longer call, the rows of positions 0…63 changed")
        problems += self.dtype_order()
        unstable = bool(problems)
        fresh = self.session.fresh(dtype if dtype in ("float64", "float32", "float16", "bfloat16") else None)
        if fresh is not None:
            late = np.arange(self.n - 64, self.n)
            seen = self.rows(dtype, late)
            try:
                from_fresh = self.rows(dtype, late, fresh)
                if np.any(np.abs(seen - from_fresh) > 2 * self.bound(late, dtype, scale)):
                    problems.append("a fresh instance returns other rows for the same positions: results depend "
                                    "on earlier calls")
            except _Uncallable as error:
                problems.append(f"a fresh instance raises on positions {late[0]}…{late[-1]} ({error}), which the "
                                "same object serves after one long call: whether a call works depends on earlier "
                                "calls (a table grown from the call's length, not from its positions)")
        ok = not problems
        self.log.add("state", ok, "repeated calls, calls after longer calls and fresh instances agree"
                     + (", and calls in one dtype leave the others' rows unchanged." if len(self.first_rows) > 1 and
                        self.session.dtype_control == "dtype keyword" else ".")
                     if ok else sentence("; ".join(problems)) + ".", dtype=dtype,
                     fix="Compute each row from its position alone; grow a cached table to the largest position a "
                         "call needs (past length included), without mutating the rows already returned; convert a "
                         "copy of the rows to the call's dtype, never the cached table itself")
        return not unstable

    def dtype_order(self) -> list[str]:
        """Each dtype's rows of positions 0…63 now, against its first call's (the contract's): a target that
        converts its cached table in place to each call's dtype returns rows carrying a later dtype's rounding.
        Only where one object serves every dtype (a `dtype=` keyword; classes and adapters are built per dtype)."""
        if self.session.dtype_control != "dtype keyword" or len(self.first_rows) < 2:
            return []
        order = list(self.first_rows)
        small = np.arange(64)
        for index, dtype in enumerate(order[:-1]):
            first = self.first_rows[dtype]
            scale = max(float(np.max(np.abs(first))), 1.0)
            gap = np.abs(self.rows(dtype, small) - first)
            if np.any(gap > 2 * self.bound(small, dtype, scale)):
                later = ", ".join(order[index + 1:])
                return [f"the {dtype} rows of positions 0…63 changed (by {float(gap.max()):.3g}) after calls in "
                        f"{later}: the cached table is converted to each call's dtype in place, so {dtype} rows "
                        f"carry the rounding of a later call's dtype"]
        return []

    def aliasing(self, dtype: str) -> None:
        """Writing into a returned array (as `x += pe(...)` does) must not change later results (checked last,
        since a target that fails it is corrupted by the check)."""
        self.log.current = "state"
        small = np.arange(64)
        caller = self.callers[dtype]
        before = self.rows(dtype, small)
        try:
            raw = caller_call(caller, (small,))
        except CallFailed:
            return
        if not write_into(raw):
            self.log.add("state", True, "the returned rows are read-only or a fresh array: a caller cannot "
                         "corrupt the table.", dtype=dtype)
            return
        after = self.rows(dtype, small)
        scale = max(float(np.max(np.abs(before))), 1.0)
        ok = not np.any(np.abs(after - before) > 2 * self.bound(small, dtype, scale))
        self.log.add("state", ok, "writing into a returned array leaves later results unchanged." if ok else
                     "The returned rows alias the target's cached table: writing into them (as `x += pe(...)` "
                     "does in place) changed the rows later calls return.", dtype=dtype,
                     fix="Return a copy (or a gathered new array, e.g. index_select) instead of a view of the "
                         "cached table")

    # -- layout and spectrum -------------------------------------------------------------------------------------
    def describe(self, structure: Structure) -> None:
        self.detected.update({
            "layout": structure.layout,
            "orientation": ("(sin, cos)" if structure.sin_first else "(cos, sin)")
            + (" (declared)" if self.options.get("pair_order") else ""),
            "scale": round(structure.scale, 9),
            "intact_pairs": f"{int(structure.intact.sum())}/{structure.intact.size}",
        })

    def layout(self, structure: Structure) -> None:
        self.log.current = "layout"
        declared = self.options["layout"]
        found = structure.layout
        names = {"interleaved": "interleaved (sin, cos per pair 2i, 2i+1)",
                 "concat": "concat (all sines, then all cosines)"}
        order = "sin,cos" if structure.sin_first else "cos,sin"
        declared_order = self.options.get("pair_order")
        if order == "cos,sin":
            names = {"interleaved": "interleaved (cos, sin per pair 2i, 2i+1)",
                     "concat": "concat (all cosines, then all sines)"}
        ok = declared is None or declared == found
        scale = "" if abs(structure.scale - 1) < 1e-6 else f"; rows scaled by g = {structure.scale:.6g}"
        said = "declared" if declared_order else "detected"
        stored = f"each stored ({order.replace(',', ', ')}) ({said})"
        detail = (f"pairs are {names[found]}{' (detected)' if declared is None else ''}, {stored}{scale}." if ok else
                  f"Declared {names[declared]}, but the coordinates pair up as {names[found]}: "
                  f"{int(structure.intact.sum())} intact pairs, {structure.other_intact} in the declared layout.")
        if ok and declared_order is not None and declared_order != order:
            ok = False
            detail = (f"Declared --pair-order {declared_order}, but each pair is stored ({order.replace(',', ', ')}):"
                      f" pairs are {names[found]}.")
            self.log.add("layout", ok, detail, fix=f"Either declare --pair-order {order}, or store each pair as "
                         f"({declared_order.replace(',', ', ')})")
            self.order_mismatch = True
            return
        self.log.add("layout", ok, detail,
                     fix=f"Either declare --layout {found}, or build the table {names[declared or found]}: "
                         + ("out[:, 0::2] = sin, out[:, 1::2] = cos" if declared == "interleaved" else
                            "out = concat([sin, cos], axis=-1)"))

    def spectrum(self, dtype: str, structure: Structure) -> tuple[str | None, np.ndarray]:
        self.log.current = "spectrum"
        positions = spectrum_positions(self.n)
        # Read from one contiguous call: whether positions are honoured is the positions property's business.
        angles = structure.angles(self.rows(dtype, np.arange(int(positions[-1]) + 1))[positions])
        declared = self.options["frequencies"]
        schemes = (declared,) if declared else SCHEMES
        scheme, misfit = match_spectrum(angles, positions, structure.intact, self.width, self.base, schemes, dtype)
        estimates = estimate_frequencies(angles, positions)
        self.detected["frequencies"] = scheme or "unrecognised"
        self.detected["omega_measured_first_last"] = [float(estimates[0]), float(estimates[-1])]
        if scheme is not None:
            text = "base^(−2i/d)" if scheme == "standard" else "base^(−i/(d/2−1)) (tensor2tensor)"
            self.log.add("spectrum", True, f"every ωᵢ matches the {scheme} frequencies {text} with base "
                         f"{self.base:g}{' (detected)' if declared is None else ''}, in double-double, at positions "
                         f"up to {int(positions[-1])}; longest wavelength 2π/ω = "
                         f"{2 * math.pi / float(estimates[-1]):.6g}.", dtype=dtype, max_error=misfit[scheme][0],
                         bound=1.0)
            return scheme, estimates
        ratio, pair = misfit[schemes[0]]
        what = explain_spectrum(estimates, structure.intact, self.width, self.base).removeprefix("the frequencies are ")
        wanted = sinusoidal_frequencies(self.width, self.base, schemes[0]).hi[pair]
        self.log.add("spectrum", False, f"the frequencies are {what}: pair {pair} turns by ω = "
                     f"{float(estimates[pair]):.9g} rad per position (mod 2π), the {schemes[0]} reference is "
                     f"{wanted:.9g}.", dtype=dtype, max_error=ratio, bound=1.0,
                     fix="Use ωᵢ = base^(−2i/d) (divide the position by base^(2i/d)), or declare the scheme "
                         "the table follows with --frequencies standard|t2t and --base")
        return None, estimates

    def _broken_pairs(self, structure: Structure, rows: np.ndarray) -> None:
        bad = np.flatnonzero(~structure.intact)
        first, second = pairs_of(rows / structure.scale, structure.layout)
        cosine_member = second if structure.sin_first else first
        hint = ""
        if np.all(cosine_member[:, bad] >= math.cos(1.0) - 1e-6):
            hint = (" Their cosine coordinates stay within [cos 1, 1]: they are cosines of sines — the table was "
                    "overwritten in place with its sines before the cosines were computed (as TF Marian/Pegasus did).")
        elif column_indexed(rows / structure.scale, self.base):
            hint = (" Each column uses its own frequency base^(−2j/d) (index j instead of the pair index j // 2), "
                    "so a pair's sine and cosine turn at different rates.")
        total = bad.size + int(structure.intact.sum())
        self.log.add("relative", False, f"{bad.size} of {total} pairs ({structure.layout}, first {bad[:6].tolist()})"
                     " are not the sine and cosine of one angle (|sin² + cos² − 1| up to "
                     f"{float(structure.norm_deviation[bad].max()):.3g}), so ⟨PE(p), PE(q)⟩ is not a function of "
                     f"p − q.{hint}", fix="Compute both coordinates of pair i from the same angle p·ωᵢ, from an "
                     "untouched array of angles")

    # -- positions -------------------------------------------------------------------------------------------------
    def positions(self, dtype: str, scheme: str | None, structure: Structure) -> bool:
        self.log.current = "positions"
        rng = np.random.default_rng(SEED)
        top = min(self.n, 4096)
        probes = {
            "shuffled": rng.permutation(np.arange(37, 101)) % top,
            "shifted": np.arange(min(1000, top - 64), min(1000, top - 64) + 64),
            "reversed": np.arange(63, -1, -1),
            "repeated": np.array([5, 5, 5, 0, 9, 9, 2]),
            "non-contiguous": random_positions(16, top),
        }
        reference = self.rows(dtype, np.arange(top))
        scale = structure.scale
        problems = []
        for name, positions in probes.items():
            got = self.rows(dtype, positions)
            if np.any(np.abs(got - reference[positions]) > 2 * self.bound(positions, dtype, scale)):
                problems.append(name)
        declared = int(self.options["offset"])
        if problems:
            self.log.add("positions", False, f"rows for {', '.join(problems)} positions are not the rows those "
                         f"positions have in a call with 0…{top - 1}: the positions given are not honoured.",
                         dtype=dtype, fix="Index the table (or form the angles) with the positions argument, not "
                         "with arange(L)")
            return False
        found = None
        if scheme is not None and structure.intact.all():
            found = self._offset(reference[0], structure, scheme, declared)
            self.detected["offset"] = found
        if found is not None and found != declared:
            self.log.add("positions", False, f"row p holds PE(p + {found}), the declared offset is {declared}: "
                         f"positions are off by {found - declared}.", dtype=dtype,
                         fix=f"Start the positions at {declared} (fairseq-style tables: padding_idx + 1), or "
                             f"declare --offset {found} if that is the convention")
            return True
        self.log.add("positions", True, f"shuffled, shifted, reversed, repeated and non-contiguous positions "
                     f"return their own rows; row p is PE(p + {declared})"
                     f"{'' if found is not None else ' (offset not checked: no reference matched)'}.", dtype=dtype)
        return True

    def _offset(self, row: np.ndarray, structure: Structure, scheme: str, declared: int) -> int | None:
        for low, high in ((declared - 8, declared + 9), (-1024, 4096)):
            candidates = np.arange(low, high)
            table = expected_table(candidates, structure, self.width, self.base, scheme, 0)
            errors = np.max(np.abs(table - row), axis=1)
            if errors.min() < 1e-2 * structure.scale:
                return int(candidates[int(np.argmin(errors))])
        return None

    # -- precision, relative, shift ---------------------------------------------------------------------------------
    def precision(self, dtype: str, structure: Structure, scheme: str) -> None:
        self.log.current = "precision"
        offset = self.detected.get("offset", self.options["offset"]) or 0
        positions = np.arange(self.n)
        result = precision_sweep(lambda p: self.rows(dtype, p), positions, structure, self.width, self.base,
                                 scheme, offset, dtype)
        first_bad = int(result["first_bad"])
        budget = float(self.options["budget"])
        largest = certified_position(result["row_error"], positions, self.width, budget)
        self.certified[dtype] = {"largest_position": largest, "all_audited": largest == self.n - 1,
                                 "budget": budget, "theorem": "SPE-DOT-RELATIVE",
                                 "bound_at_largest": transferred_bound(float(np.max(result["row_error"][: largest + 1]
                                                                                    if largest >= 0 else [0.0])),
                                                                       self.width)}
        if first_bad < 0:
            self.log.add("precision", True, f"every row of positions 0…{self.n - 1} within the policy bound (angles "
                         f"in {'float64' if dtype == 'float64' else 'float32'}); largest error/bound "
                         f"{result['ratio']:.3g}; SPE-DOT-RELATIVE certified up to position {largest}.", dtype=dtype,
                         max_error=result["max_error"], bound=result["bound"])
            return
        self.first_bad[dtype] = first_bad
        hint = position_rounding_hint(lambda p: self.rows(dtype, p), first_bad, structure, self.width, self.base,
                                       scheme, offset)
        self.log.add("precision", False, f"rows are off by more than the policy allows from position {first_bad} on "
                     f"(largest error {result['max_error']:.3g}, {result['ratio']:.3g}× its bound){hint}; "
                     f"SPE-DOT-RELATIVE certified only up to position {largest}.", dtype=dtype,
                     max_error=result["max_error"], bound=result["bound"], position=first_bad,
                     fix="Hold positions and form the angles p·ωᵢ in float32 (float64 for a float64 table) and "
                         "round once to the table's dtype at the end")

    def relative_and_shift(self, dtypes: list[str], structure: Structure, scheme: str, estimates: np.ndarray) -> None:
        omegas = sinusoidal_frequencies(self.width, self.base, scheme).hi
        for dtype in dtypes:
            self._relative_and_shift(dtype, structure, estimates, omegas, scheme)

    def _relative_and_shift(
        self, dtype: str, structure: Structure, estimates: np.ndarray, omegas: np.ndarray, scheme: str
    ) -> None:
        self.log.current = "relative"
        limit = self.first_bad.get(dtype, self.n)
        if limit < 80:
            self.log.skip("relative", f"explained by precision [{dtype}]: rows fail from position {limit}")
            return
        base_positions = np.unique(np.concatenate([np.arange(32), random_positions(16, max(limit // 2, 33))]))
        shifts = np.array([s for s in (1, 7, 64, limit // 2 - 1) if base_positions.max() + s < limit])
        beyond = "" if limit == self.n else f"; beyond position {limit - 1}: explained by precision"
        ratio, error, bound, (p, q, delta) = gram_shift_check(lambda x: self.rows(dtype, x), base_positions,
                                                              shifts, structure, self.width, self.base, dtype,
                                                              omegas, scheme)
        self.log.add("relative", ratio <= 1, f"⟨PE(p), PE(q)⟩ is unchanged when p and q move together (shifts "
                     f"{shifts.tolist()}), within the transferred bound{beyond}." if ratio <= 1 else
                     f"⟨PE({p}), PE({q})⟩ and ⟨PE({p + delta}), PE({q + delta})⟩ differ by {error:.3g} (bound "
                     f"{bound:.3g}): the dot product is not a function of p − q.", dtype=dtype, max_error=error,
                     bound=bound, fix="Build every pair from one angle p·ωᵢ with positions held exactly")
        positions = np.arange(0, min(limit - 64, 1024))
        self.log.current = "shift"
        if self.order_mismatch:
            self.log.skip("shift", "explained by layout: the pairs are not stored in the declared order")
            return
        table_for, read_as = (lambda x: self.rows(dtype, x)), ""
        if self.options.get("pair_order") == "cos,sin" and not structure.sin_first:
            # The declared convention: the seed's statement applies to each pair read back as (sin, cos).
            table_for = lambda x: swap_pair_members(self.rows(dtype, x), structure.layout)  # noqa: E731
            structure = dataclasses.replace(structure, sin_first=True)
            read_as = " (stored (cos, sin) as declared by --pair-order cos,sin: each pair read as (sin, cos))"
        ratio, error, bound, (p, delta), backwards = shift_check(
            table_for, positions, np.array([1, 5, 63]), structure, np.abs(estimates),
            omegas, self.base, dtype, self.width, scheme)
        if ratio <= 1:
            detail = ("PE(p + Δ) = M(ωᵢΔ)·PE(p) with the seed's matrix [[cos, sin], [−sin, cos]] on each "
                      f"(sin, cos) pair{read_as}, Δ ∈ {{1, 5, 63}}, within bound{beyond}.")
        elif backwards:
            detail = ("the pairs are stored (cos, sin): the seed's matrix [[cos ωΔ, sin ωΔ], [−sin ωΔ, cos ωΔ]] "
                      "moves the table to p − Δ, so the shift is its transpose R(ωΔ) (SPE-SHIFT-ROTATION holds "
                      "for (sin, cos) pairs only). If (cos, sin) is the convention (diffusion timestep embeddings, "
                      "flip_sin_to_cos), declare --pair-order cos,sin.")
        else:
            detail = (f"PE({p + delta}) is not the seed's rotation of PE({p}) (error {error:.3g}, bound "
                      f"{bound:.3g}): the angle does not grow linearly with the position.")
        self.log.add("shift", ratio <= 1, detail, dtype=dtype, max_error=error, bound=bound,
                     fix="Store each pair as (sin, cos) (Vaswani et al.), or apply R(ωΔ) instead of the seed's "
                         "matrix where the table is shifted, or declare --pair-order cos,sin")


def swap_pair_members(table: np.ndarray, layout: str) -> np.ndarray:
    """The table with the two members of every pair exchanged (a (cos, sin) table read as (sin, cos))."""
    out = np.empty_like(table)
    half = table.shape[-1] // 2
    if layout == "interleaved":
        out[..., 0::2], out[..., 1::2] = table[..., 1::2], table[..., 0::2]
    else:
        out[..., :half], out[..., half:] = table[..., half:], table[..., :half]
    return out
