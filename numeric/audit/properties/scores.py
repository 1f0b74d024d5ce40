"""The properties of the scores kind, evaluated in order; the first failure is the root cause.

The target is any position-aware attention score `scores(q, k, q_positions, k_positions) -> (..., Lq, Lk)`:
Shaw et al.'s relative keys, RoPE or xPos at the score level, a bias added to qkᵀ. Tolerances: a score of
vectors rounded to dtype T, accumulated in the work dtype (float32, float64 for float64) with positions up to P
and angles of frequency at most 1 (RoPE, xPos) is off by at most

    (γ_{2d}(work) + 4·u_work·P + 2·u_T)·(‖q‖·‖k‖ + |bias|) + u_T·|score|

(the angle term is the RoPE policy's u·|m·θ| for θ ≤ 1 on both vectors); two computed scores compared: twice that.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from ropecheck.numeric.audit.function.calls import BadOutput, Caller, CallFailed
from ropecheck.numeric.audit.kinds._calls import call_float64
from ropecheck.numeric.audit.kinds._common import SEED, unit_roundoff
from ropecheck.numeric.audit.kinds._report import FindingLog
from ropecheck.numeric.audit.kinds.names import KIND_PROPERTIES
from ropecheck.numeric.reference import tolerances

__all__ = ["CLAIMS", "PROPERTIES", "ScoresProperties"]

PROPERTIES = KIND_PROPERTIES["scores"]

CLAIMS: dict[str, tuple[str, ...]] = {
    "contract": ("RPE-SHIFT-INVARIANCE",),
    "relative": ("RPE-SHIFT-INVARIANCE", "ROPE-QK-RELATIVE"),
    "linearity": ("RPE-SHIFT-INVARIANCE", "ROPE-PAIR-FORMULA"),
    "clipping": ("RPE-SHIFT-INVARIANCE",),
    "cache": ("ROPE-KV-CACHE-REUSE", "RPE-KV-CACHE-IMPOSSIBLE", "RPE-SHIFT-INVARIANCE"),
}

_REACH = 64


class _Uncallable(Exception):
    pass


def _work(dtype: str) -> str:
    return "float64" if dtype == "float64" else "float32"


def _distance(clip: int | None) -> str:
    return "never" if clip is None else f"at {clip}"


class ScoresProperties:
    """Runs the score properties for the dtypes that passed the contract."""

    def __init__(self, options: dict[str, Any], log: FindingLog) -> None:
        self.options = options
        self.log = log
        self.callers: dict[str, Caller] = {}
        self.detected: dict[str, Any] = {}
        self.d = int(options["head_dim"])
        self.n = int(options["max_position"])
        self.rng = np.random.default_rng(SEED)

    def add_dtype(self, dtype: str, caller: Caller) -> None:
        self.callers[dtype] = caller

    def vectors(self, count: int, dtype: str) -> np.ndarray:
        from ropecheck.numeric.audit.function.calls import numpy_dtype

        values = self.rng.normal(size=(count, self.d)) / math.sqrt(self.d)
        return values.astype(numpy_dtype(dtype)).astype(np.float64)

    def scores(self, dtype: str, q: np.ndarray, k: np.ndarray, qp: np.ndarray, kp: np.ndarray) -> np.ndarray:
        try:
            out, _ = call_float64(self.callers[dtype], ((q, dtype), (k, dtype), qp, kp), None)
        except (BadOutput, CallFailed) as error:
            raise _Uncallable(error.reason) from None
        return out.reshape(out.shape[-2:]) if out.size == q.shape[0] * k.shape[0] else out

    def bound(self, dtype: str, q: np.ndarray, k: np.ndarray, top: int, *values: np.ndarray) -> np.ndarray:
        """Per-entry bound on one computed score (see the module docstring); `values`: scores seen, for |bias|."""
        work = _work(dtype)
        norms = np.linalg.norm(q, axis=1)[:, None] * np.linalg.norm(k, axis=1)[None, :]
        largest = np.maximum.reduce([np.abs(v) for v in values]) if values else 0.0
        units = tolerances.gamma(2 * self.d, work) + 4 * unit_roundoff(work) * top + 2 * unit_roundoff(dtype)
        return units * (norms + largest) + unit_roundoff(dtype) * largest + 1e-300

    # -- the run ----------------------------------------------------------------------------------------------
    def run(self, dtypes: list[str]) -> None:
        try:
            for dtype in dtypes:
                if not self.relative(dtype):
                    for prop in ("linearity", "clipping", "cache"):
                        self.log.skip(prop, "explained by relative: the scores depend on absolute positions")
                    return
            for dtype in dtypes:
                self.linearity(dtype)
            if self.clipping(dtypes[0]):
                for dtype in dtypes:
                    self.cache(dtype)
            else:
                self.log.skip("cache", "explained by clipping: the scores of far keys are not those of the table")
        except _Uncallable as error:
            # A probe the target raised on is "could not call", never a mathematical failure.
            self.log.could_not_call(str(error), PROPERTIES)

    def relative(self, dtype: str) -> bool:
        self.log.current = "relative"
        # Positions in a window of width 12 (distances |k − q| ≤ 12, which any table of a sane clip serves),
        # from position 0, then moved together.
        q, k = self.vectors(16, dtype), self.vectors(24, dtype)
        qp = np.sort(self.rng.integers(0, 12, size=16))
        kp = np.sort(self.rng.integers(0, 12, size=24))
        first = self.scores(dtype, q, k, qp, kp)
        worst = (0.0, 0)
        for delta in (1, 100, self.n // 2 - 1):
            moved = self.scores(dtype, q, k, qp + delta, kp + delta)
            bound = 2 * self.bound(dtype, q, k, self.n, first, moved)
            ratio = float(np.max(np.abs(moved - first) / bound))
            if ratio > worst[0] or not math.isfinite(ratio):
                worst = (ratio, delta)
        far_ratio, far_shift, distance = self.far_apart(dtype)
        far_text = (f"and {distance} positions apart" if distance > 0 else
                    f"(queries and keys {-distance} positions apart: not evaluated, the call raised)" if distance else
                    "(the context is too short for far-apart probes)")
        near_ok = worst[0] <= 1
        ok = near_ok and far_ratio <= 1
        if not near_ok:
            detail = (f"shifting every position by {worst[1]} changes the scores by {worst[0]:.3g}× the rounding "
                      "bound: they depend on absolute positions.")
        elif not ok:
            detail = (f"queries and keys {distance} positions apart: shifting both by {far_shift} changes the scores "
                      f"by {far_ratio:.3g}× the bound measured from the size of each score's terms (close together "
                      "they agree): the scores depend on m + n by an amount that grows with |m − n|.")
            worst = (far_ratio, far_shift)
        else:
            detail = (f"shifting every query and key position by δ ∈ {{1, 100, {self.n // 2 - 1}}} leaves the scores "
                      f"unchanged within the dtype's bound, for queries and keys close together {far_text} "
                      "(RPE-SHIFT-INVARIANCE holds for the target).")
        self.log.add("relative", ok, detail, dtype=dtype, max_error=worst[0], bound=1.0,
                     fix="Make the position term depend on k_positions − q_positions only: a Shaw table indexed "
                         "with clip(j − i, k), not j; xPos keys scaled by ζ^(−n/γ), the inverse of the queries' "
                         "ζ^(m/γ); RoPE rotating q and k by their own positions")
        return ok

    def far_apart(self, dtype: str) -> tuple[float, int, int]:
        """Query and key sets |m − n| ≈ N apart (queries near 0 and keys near N, then the other way round), each
        pair shifted by small δ. The bound scales with what is measured: a score s(q, k) = qᵀMk + qᵀu + vᵀk + c
        (bilinear plus affine, as every position term in this kind is) is recovered from basis and zero probes,
        and its rounding bound is the per-entry bound times |q|ᵀ|M||k| + |q|ᵀ|u| + |v|ᵀ|k| + |c| — the size of the
        terms summed, not ‖q‖·‖k‖, which an xPos scale ζ^((m − n)/γ) far exceeds.

        **Returns:** (worst ratio to the bound, its shift, the distance probed — negated when a call raised there, 0
        when the context is too short).
        """
        count, shifts = 4, (1, 90)
        far = self.n - 1 - max(shifts) - count
        distance = far
        if far <= 2 * count:
            return 0.0, 0, 0
        worst = (0.0, 0)
        q, k = self.vectors(count, dtype), self.vectors(count, dtype)
        for q_start, k_start in ((0, far), (far, 0)):
            base = None
            for shift in (0, *shifts):
                qp, kp = np.arange(count) + q_start + shift, np.arange(count) + k_start + shift
                try:
                    scores, terms = self._terms(dtype, q, k, qp, kp)
                except _Uncallable:
                    # Raising at a distance is the clipping property's finding, not a relative one.
                    return 0.0, 0, -distance
                bound = self._unit(dtype, max(qp.max(), kp.max())) * terms + unit_roundoff(dtype) * np.abs(scores)
                if base is None:
                    base = (scores, bound)
                    continue
                ratio = float(np.max(np.abs(scores - base[0]) / (base[1] + bound + 1e-300)))
                if ratio > worst[0] or not math.isfinite(ratio):
                    worst = (ratio, shift)
        return worst[0], worst[1], distance

    def _unit(self, dtype: str, top: int) -> float:
        work = _work(dtype)
        return tolerances.gamma(2 * self.d, work) + 4 * unit_roundoff(work) * top + 2 * unit_roundoff(dtype)

    def _terms(self, dtype: str, q: np.ndarray, k: np.ndarray, qp: np.ndarray, kp: np.ndarray) -> tuple[
            np.ndarray, np.ndarray]:
        """(scores of q at qp against k at kp, the size of their terms) from one call with basis, zero and the given
        vectors at every position (see `far_apart`)."""
        d, count = self.d, q.shape[0]
        eye = np.eye(d)

        def rows(vectors: np.ndarray, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            stacked = np.concatenate([np.tile(eye, (count, 1)), np.zeros((count, d)), vectors])
            at = np.concatenate([np.repeat(positions, d), positions, positions])
            return stacked, at

        q_rows, q_at = rows(q, qp)
        k_rows, k_at = rows(k, kp)
        out = self.scores(dtype, q_rows, k_rows, q_at, k_at)
        basis = out[: count * d, : count * d].reshape(count, d, count, d)
        q_zero = out[count * d: count * d + count, : count * d].reshape(count, count, d)  # (q pos, k pos, b)
        k_zero = out[: count * d, count * d: count * d + count].reshape(count, d, count)  # (q pos, a, k pos)
        both = out[count * d: count * d + count, count * d: count * d + count]
        scores = out[-count:, -count:]
        c = np.abs(both)
        # s(e_a, e_b) = M_ab + u_a + v_b + c;  s(e_a, 0) = u_a + c;  s(0, e_b) = v_b + c.
        u = k_zero - both[:, None, :]
        v = q_zero - both[:, :, None]
        matrix = basis - k_zero[:, :, :, None] - q_zero[:, None, :, :] + both[:, None, :, None]
        aq, ak = np.abs(q), np.abs(k)
        terms = (np.einsum("ia,iajb,jb->ij", aq, np.abs(matrix), ak) + np.einsum("ia,iaj->ij", aq, np.abs(u))
                 + np.einsum("ijb,jb->ij", np.abs(v), ak) + c)
        return scores, terms

    def linearity(self, dtype: str) -> None:
        self.log.current = "linearity"
        q1, q2, k = self.vectors(8, dtype), self.vectors(8, dtype), self.vectors(12, dtype)
        qp, kp = np.arange(8) + 20, np.arange(12) + 14
        zero = self.scores(dtype, np.zeros_like(q1), k, qp, kp)
        s1, s2 = self.scores(dtype, q1, k, qp, kp), self.scores(dtype, q2, k, qp, kp)
        from ropecheck.numeric.audit.function.calls import numpy_dtype

        a, b = 0.75, -1.5
        combined = (a * q1 + b * q2).astype(numpy_dtype(dtype)).astype(np.float64)
        got = self.scores(dtype, combined, k, qp, kp) - zero
        wanted = a * (s1 - zero) + b * (s2 - zero)
        bound = 4 * (self.bound(dtype, combined, k, 40, got) + abs(a) * self.bound(dtype, q1, k, 40, s1)
                     + abs(b) * self.bound(dtype, q2, k, 40, s2) + (1 + abs(a) + abs(b)) * self.bound(
                         dtype, q1 * 0, k, 40, zero))
        # Rounding the combination to the dtype moves it by u_T·|a·q1 + b·q2| per coordinate.
        bound += unit_roundoff(dtype) * np.abs(a * q1 + b * q2).sum(axis=1)[:, None] * np.abs(k).max() * 4
        ratio = float(np.max(np.abs(got - wanted) / bound))
        bias = float(np.max(np.abs(zero)))
        self.detected["additive_bias"] = bias > float(np.max(self.bound(dtype, q1 * 0, k, 40, zero)))
        ok = ratio <= 1
        present = " (an additive bias is present)" if self.detected["additive_bias"] else ""
        self.log.add("linearity", ok, "scores(a·q₁ + b·q₂) − scores(0) = a·(scores(q₁) − scores(0)) + "
                     f"b·(scores(q₂) − scores(0)){present}."
                     if ok else f"the scores are not linear in q (off by {ratio:.3g}× the bound): a softmax, a "
                     "normalisation of q or another non-linear step is inside.", dtype=dtype, max_error=ratio,
                     bound=1.0, fix="Return the logits qᵀk (+ the position term) before any softmax or normalisation")

    def _profile(self, dtype: str, reach: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """s(r) = score of one fixed (q, k) pair with k − q = r, r ∈ [−reach, reach]; raising distances skipped."""
        q, k = self.vectors(1, dtype), self.vectors(1, dtype)
        keys = np.repeat(k, 2 * reach + 1, axis=0)
        relative = np.arange(-reach, reach + 1)
        try:
            values = self.scores(dtype, q, keys, np.array([reach]), np.arange(2 * reach + 1))[0]
            return relative, values, []
        except _Uncallable:
            values, raising = np.full(relative.size, np.nan), []
            for index, r in enumerate(relative):
                try:
                    values[index] = self.scores(dtype, q, k, np.array([reach]), np.array([reach + r]))[0, 0]
                except _Uncallable:
                    raising.append(int(r))
            return relative, values, raising

    def clipping(self, dtype: str) -> bool:
        self.log.current = "clipping"
        relative, values, raising = self._profile(dtype, _REACH)
        ok_values = np.isfinite(values)
        tolerance = 4 * unit_roundoff(_work(dtype)) * (np.nanmax(np.abs(values)) + 1) + 2 * unit_roundoff(dtype) * (
            np.nanmax(np.abs(values)))
        def tail_start(side: np.ndarray) -> int | None:
            # the smallest K with s(r) = s(±K) for every |r| ≥ K on this side (a constant tail of ≥ 3 values)
            ordered = values[side] if side[-1] else values[side][::-1]
            distances = np.abs(relative[side]) if side[-1] else np.abs(relative[side])[::-1]
            good = ok_values[side] if side[-1] else ok_values[side][::-1]
            if not good[-3:].all():
                return None
            last = ordered[-1]
            start = len(ordered) - 1
            while start > 0 and good[start - 1] and abs(ordered[start - 1] - last) <= tolerance:
                start -= 1
            return int(distances[start]) if len(ordered) - start >= 3 else None
        future, past = tail_start(relative >= 0), tail_start(relative <= 0)
        self.detected["clip_future"], self.detected["clip_past"] = future, past
        declared = self.options.get("clip")
        note = f"; calls at distances {raising[0]}…{raising[-1]} raised" if raising else ""
        if future is None and past is None and declared is None and not raising:
            self.log.add("clipping", True, f"no clipping within ±{_REACH}: the scores keep varying with the distance "
                         "(not a Shaw-style table).", dtype=dtype)
            return True
        problems = []
        if declared is not None and (future != declared or past != declared):
            problems.append(f"declared clip {declared}, found {_distance(future)} for k > q and {_distance(past)} for "
                            "k < q")
        elif future != past:
            problems.append(f"clipped at {_distance(future)} for keys after the query but {_distance(past)} before it")
        if raising and not problems:
            problems.append(f"calls at relative distances {raising[0]}…{raising[-1]} raise")
        ok = not problems
        text = "; ".join(problems)
        self.log.add("clipping", ok, f"Shaw-style table clipped at |k − q| = {future} on both sides{note}." if ok else
                     text[:1].upper() + text[1:] + f"{note}: beyond the clipping distance every key must read "
                     "the last row of the table (Shaw et al.: clip(j − i, k) = max(−k, min(k, j − i))).", dtype=dtype,
                     fix="Clip the relative position on both sides before indexing the table: "
                         "table[clip(j − i, −k, k) + k]; a negative index wraps around in NumPy and torch")
        return ok

    def cache(self, dtype: str) -> None:
        self.log.current = "cache"
        worst = (0.0, 0)
        for step in (5, 40, min(_REACH * 2, self.n - 1)):
            q, k = self.vectors(step + 1, dtype), self.vectors(2 * step + 1, dtype)
            full = self.scores(dtype, q, k[: step + 1], np.arange(step + 1), np.arange(step + 1))[step]
            single = self.scores(dtype, q[step:], k[: step + 1], np.array([step]), np.arange(step + 1))[0]
            longer = self.scores(dtype, q[step:], k, np.array([step]), np.arange(2 * step + 1))[0, : step + 1]
            bound = 2 * self.bound(dtype, q[step:], k[: step + 1], 2 * step, single[None], full[None])[0]
            for other in (full, longer):
                difference = single - other
                difference -= np.median(difference)  # a constant per query row is softmax-invariant
                ratio = float(np.max(np.abs(difference) / bound))
                if ratio > worst[0] or not math.isfinite(ratio):
                    worst = (ratio, step)
        ok = worst[0] <= 1
        self.log.add("cache", ok, "the scores of a query against cached keys are the same whether computed alone, "
                     "with earlier queries or with more keys present: cached keys stay valid as the query position "
                     "grows (ROPE-KV-CACHE-REUSE, RPE-KV-CACHE-IMPOSSIBLE refuted)." if ok else
                     f"the scores of query position {worst[1]} change with the number of queries or keys in the "
                     f"call ({worst[0]:.3g}× the bound): a key cached at an earlier step is no longer valid.",
                     dtype=dtype, max_error=worst[0], bound=1.0,
                     fix="Derive the position term (frequencies, scales, offsets) from positions alone, not from "
                         "the length of the call (e.g. no dynamic NTK base computed from the number of keys)")
