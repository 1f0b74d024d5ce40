"""The properties of the bias kind, evaluated in order; the first failure is the root cause.

Every check compares the target with itself or with the reference *up to a constant per query row* (softmax
ignores it, so m·k in Bloom/Falcon/MPT is the same attention as m·(k − q)); the report says when the bias is
relative exactly. Tolerances: a bias value v rounded to the output dtype and formed in the work dtype (float32, or
float64 for float64 outputs) is off by at most (u_out + 2·u_work)·|v|; two values compared: twice that.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from ropecheck.numeric._encoding_reference import alibi_slopes
from ropecheck.numeric.audit.function.calls import BadOutput, Caller, CallFailed
from ropecheck.numeric.audit.kinds._calls import call_float64
from ropecheck.numeric.audit.kinds._common import SEED, unit_roundoff
from ropecheck.numeric.audit.kinds._report import FindingLog
from ropecheck.numeric.audit.kinds.names import KIND_PROPERTIES
from ropecheck.numeric.audit.properties.bias_alibi import (
    SLOPE_FIXES,
    describe_form,
    explain_slopes,
    measure_slopes,
    slope_tolerance,
)
from ropecheck.numeric.audit.properties.bias_t5 import compare_partition, diagnose, read_table, view_buckets

__all__ = ["CLAIMS", "PROPERTIES", "BiasProperties"]

PROPERTIES = KIND_PROPERTIES["bias"]

CLAIMS: dict[str, tuple[str, ...]] = {
    "contract": ("RPE-SHIFT-INVARIANCE",),
    "relative": ("RPE-SHIFT-INVARIANCE",),
    "sign": ("RPE-SHIFT-INVARIANCE",),
    "buckets": ("RPE-SHIFT-INVARIANCE", "RPE-KV-CACHE-IMPOSSIBLE"),
    "slopes": ("RPE-SHIFT-INVARIANCE",),
    "precision": ("RPE-SHIFT-INVARIANCE",),
    "cache": ("RPE-KV-CACHE-IMPOSSIBLE", "RPE-SHIFT-INVARIANCE"),
}


class _Uncallable(Exception):
    pass


def _work_roundoff(dtype: str) -> float:
    return unit_roundoff("float64" if dtype == "float64" else "float32")


def _row_residual(got: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """|got − wanted − c_row| with c_row the median difference of each query row; equal infinities count as 0."""
    finite = np.isfinite(got) & np.isfinite(wanted)
    both_inf = np.isinf(got) & np.isinf(wanted) & (np.sign(got) == np.sign(wanted))
    difference = np.subtract(got, wanted, out=np.full(np.broadcast_shapes(got.shape, wanted.shape), np.nan),
                             where=finite)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        constant = np.nan_to_num(np.nanmedian(difference, axis=-1, keepdims=True))
    residual = np.where(finite, np.abs(difference - constant), np.where(both_inf, 0.0, np.inf))
    return residual, constant


def _alibi_precision_hint(far: np.ndarray, slopes: np.ndarray, distance: np.ndarray, dtype: str) -> str:
    """Name the 16-bit step when the values are those of slopes and/or distances rounded to a 16-bit type."""
    from ropecheck.numeric.audit.function.calls import numpy_dtype

    candidates = [(dtype, "the slopes and k − q are held in the output dtype (a cast module multiplies in "
                          f"{dtype})")] if dtype in ("float16", "bfloat16") else []
    candidates += [("float16", "k − q is held in float16 (exact only up to 2048)"),
                   ("bfloat16", "k − q is held in bfloat16 (exact only up to 256)")]
    for name, text in candidates:
        kind = numpy_dtype(name)
        rounded_distance = distance.astype(kind).astype(np.float64)
        rounded_slopes = slopes.astype(kind).astype(np.float64) if name == dtype else slopes
        wanted = (rounded_slopes[:, None] * rounded_distance[None, :]).astype(numpy_dtype(dtype)).astype(np.float64)
        offset = far[:, -1:]
        if np.allclose(far - offset, wanted, rtol=4 * unit_roundoff(dtype), atol=0):
            return f" — {text}"
    return ""


class BiasProperties:
    """Runs the bias properties for the dtypes that passed the contract."""

    def __init__(self, options: dict[str, Any], log: FindingLog, target: Any) -> None:
        self.options = options
        self.log = log
        self.callers: dict[str, Caller] = {}
        self.heads = 0
        self.detected: dict[str, Any] = {}
        self.certified: dict[str, Any] = {}
        self.n = int(options["max_position"])
        self.table = read_table(target)

    def add_dtype(self, dtype: str, caller: Caller, heads: int) -> None:
        self.callers[dtype] = caller
        self.heads = heads

    def bias(self, dtype: str, q: np.ndarray, k: np.ndarray) -> np.ndarray:
        try:
            out, _ = call_float64(self.callers[dtype], (q, k), (self.heads, q.size, k.size))
        except (BadOutput, CallFailed) as error:
            raise _Uncallable(error.reason) from None
        return out

    def tolerance(self, dtype: str, *values: np.ndarray) -> np.ndarray:
        magnitude = np.maximum.reduce([np.where(np.isfinite(v), np.abs(v), 0.0) for v in values])
        # Entries near zero in a call whose other entries are large: the rounding of the largest one (a value
        # formed as a difference of large positions) is the floor.
        floor = unit_roundoff(dtype) * max(float(np.max(magnitude, initial=0.0)), 1e-300)
        return 2 * (unit_roundoff(dtype) + 2 * _work_roundoff(dtype)) * magnitude + floor

    # -- the run ----------------------------------------------------------------------------------------------
    def run(self, dtypes: list[str]) -> None:
        primary = dtypes[0]
        scheme = dict(self.options["scheme"] or {})
        try:
            reach = min(max(2 * int(scheme.get("max_distance", 128)) + 8, 300), self.n // 2 - 1)
            relative = np.arange(-reach, reach + 1)
            # One query row, read from a square call (queries = keys): decoding-shaped calls are the cache's test.
            square = np.arange(2 * reach + 1)
            row = self.bias(primary, square, square)[:, reach, :]
            scheme = self.detect(scheme, row, relative, primary)
            outcome = self.relative(primary, row, relative)
            if outcome != "ok":
                cause = "precision" if outcome == "precision" else "relative"
                for prop in ("sign", "buckets", "slopes", "precision", "cache"):
                    if prop != cause:
                        self.log.skip(prop, f"explained by {cause}: the bias is not a function of k − q within "
                                            "the output's rounding, so no per-distance values can be read")
                return
            if scheme["name"] == "alibi":
                self.log.skip("buckets", "applies to T5 biases only (the scheme is ALiBi)")
                slopes_ok = self.alibi(primary, row, relative)
            else:
                self.log.skip("slopes", "applies to ALiBi only (the scheme is T5)")
                slopes_ok = self.t5(primary, row, relative, scheme)
            cache_ok = self.cache(primary, row, relative)
            if not slopes_ok:
                cause = next((f.property for f in self.log.findings if not f.ok and f.status == "fail"), "slopes")
                self.log.skip("precision", f"explained by {cause}: the reference values do not apply")
            elif not cache_ok:
                self.log.skip("precision", "explained by cache: the far distances are read with one query row")
            else:
                for dtype in dtypes:
                    self.precision(dtype, scheme, row, relative)
        except _Uncallable as error:
            # A probe the target raised on is "could not call", never a mathematical failure.
            self.log.could_not_call(str(error), PROPERTIES)

    def detect(self, scheme: dict[str, Any], row: np.ndarray, relative: np.ndarray, dtype: str) -> dict[str, Any]:
        if not scheme:
            slopes, misfit = measure_slopes(row, relative)
            span = float(-relative.min())
            linear = bool(np.all(misfit <= slope_tolerance(row, 1.0, unit_roundoff(dtype), _work_roundoff(dtype))
                                 * span) and np.any(np.abs(slopes) > 0))
            if linear:
                scheme = {"name": "alibi"}
            else:
                # A causal T5 bias is constant over future keys (bucket 0); one constant over past keys is a causal
                # bias with the sign flipped, which the sign property reports.
                future, past = row[:, relative >= 0], row[:, relative <= 0]
                future_varies = bool(np.any(np.abs(future - future[:, :1]) > self.tolerance(dtype, future)))
                past_varies = bool(np.any(np.abs(past - past[:, -1:]) > self.tolerance(dtype, past)))
                bidirectional = future_varies and past_varies
                scheme = {"name": "t5", "buckets": 32, "max_distance": 128, "bidirectional": bidirectional}
            scheme["detected"] = True
        self.detected["scheme"] = {key: value for key, value in scheme.items() if key != "detected"}
        self.detected["scheme_source"] = "detected" if scheme.get("detected") else "declared"
        self.detected["heads"] = self.heads
        self.detected["table_readable"] = self.table is not None
        return scheme

    # -- relative -----------------------------------------------------------------------------------------------
    def relative(self, dtype: str, row: np.ndarray, relative: np.ndarray) -> str:
        self.log.current = "relative"
        reach = int(relative.max())
        rng = np.random.default_rng(SEED)
        base = np.arange(48)
        probes = {
            "shifted by 1000": (base, base + min(1000, self.n - 48)),
            f"shifted by {self.n - 49}": (base, base + self.n - 49),
        }
        non_contiguous = np.sort(rng.choice(reach, size=24, replace=False))
        worst, exact = (0.0, ""), True
        for name, (first, second) in probes.items():
            got, again = self.bias(dtype, first, first), self.bias(dtype, second, second)
            residual, constant = _row_residual(again, got)
            exact &= bool(np.all(np.abs(constant) <= self.tolerance(dtype, got)[..., :1]))
            ratio = float(np.max(residual / self.tolerance(dtype, got, again)))
            if ratio > worst[0]:
                worst = (ratio, name)
        got = self.bias(dtype, non_contiguous, non_contiguous)
        index = non_contiguous[None, :] - non_contiguous[:, None] + reach
        wanted = row[:, index]
        residual, constant = _row_residual(got, wanted)
        exact &= bool(np.all(np.abs(constant) <= self.tolerance(dtype, got)[..., :1]))
        ratio = float(np.max(residual / self.tolerance(dtype, got, wanted)))
        if ratio > worst[0]:
            worst = (ratio, "at non-contiguous positions")
        ok = worst[0] <= 1
        self.detected["relative_form"] = "exactly f(k − q)" if exact else "f(k − q) + a constant per query row"
        if not ok and dtype in ("float32", "float64"):
            coarse = self._coarse_class(dtype, worst[0])
            if coarse is not None:
                self.log.add("precision", False, f"the bias is a function of k − q only up to {coarse} rounding "
                             f"although it is returned in {dtype} ({worst[0]:.3g}× the {dtype} rounding bound, "
                             f"within the {coarse} one): its values are computed in {coarse} inside.", dtype=dtype,
                             max_error=worst[0], bound=1.0,
                             fix=f"Compute the bias in float32 (float64 for float64 outputs) and round once to the "
                                 f"output dtype, instead of forming it in {coarse}")
                self.log.skip("relative", f"explained by precision: relative within {coarse} rounding")
                return "precision"
        # A failure is either absolute positions (a query keeps its bias in any call) or the call's shape.
        moved = None if ok else self._call_position(dtype, min(64, reach))
        if moved is not None:
            query, ratio, where = moved
            self.log.add("relative", False, f"call-position dependence: the bias of query position {query} over keys "
                         f"0…{query} differs when the query is {where} and when it is the last row of a square "
                         f"call (worst {ratio:.3g}× the rounding bound, up to a constant per row): the bias follows "
                         "where the query sits in the call (its row index, or the call's lengths), not k − q. No "
                         "slope or sign change fixes this: the same query and keys get different biases in "
                         "different calls.",
                         dtype=dtype, position=query, max_error=ratio, bound=1.0,
                         fix="Form the bias from the positions of the call's queries and keys; an API that takes only "
                             "the lengths i ≤ j places its queries at the last i of the j keys (shift the key "
                             "positions by j − i, as x-transformers' dcae403 does)")
            return "relative"
        self.log.add("relative", ok, f"the bias is {self.detected['relative_form']} for shifted and non-contiguous "
                     "positions (softmax ignores a per-row constant)." if ok else
                     f"the bias {worst[1]} is not the function of k − q read from one query row (worst "
                     f"{worst[0]:.3g}× the rounding bound): it depends on absolute positions (a query keeps its "
                     "bias alone and within a call).", dtype=dtype, max_error=worst[0], bound=1.0,
                     fix="Form the bias from k_positions − q_positions (the positions given, not arange)")
        return "ok" if ok else "relative"

    def _call_position(self, dtype: str, query: int) -> tuple[int, float, str] | None:
        """Whether one query's row over keys 0…t (no future keys: index masks stay right) changes with the other
        queries of the call: alone and last of four, against the last row of the square call over 0…t.

        **Returns:** None when the rows agree up to a constant per row, else `(t, worst ratio, how it was called)`.
        """
        keys = np.arange(query + 1)
        square = self.bias(dtype, keys, keys)[:, -1:, :]
        worst: tuple[int, float, str] | None = None
        for where, queries in (("computed alone", np.array([query])),
                               ("the last of four queries", np.arange(query - 3, query + 1))):
            got = self.bias(dtype, queries, keys)[:, -1:, :]
            residual, _ = _row_residual(got, square)
            ratio = float(np.max(residual / self.tolerance(dtype, got, square)))
            if ratio > 1 and (worst is None or ratio > worst[1]):
                worst = (query, ratio, where)
        return worst

    def _coarse_class(self, dtype: str, ratio: float) -> str | None:
        """The 16-bit type whose rounding explains a relative residual `ratio` (in units of the output's bound)."""
        scale = (unit_roundoff(dtype) + 2 * _work_roundoff(dtype))
        for name in ("float16", "bfloat16"):
            if ratio * scale <= 2 * (unit_roundoff(name) + 2 * _work_roundoff(dtype)):
                return name
        return None

    # -- ALiBi ----------------------------------------------------------------------------------------------------
    def alibi(self, dtype: str, row: np.ndarray, relative: np.ndarray) -> bool:
        self.log.current = "sign"
        measured, _ = measure_slopes(row, relative)
        biased = np.flatnonzero(np.any(np.abs(row) > 0, axis=1))
        heads = int(biased.max()) + 1 if biased.size else 0
        self.detected["slopes_measured"] = [float(m) for m in measured[:heads]]
        self.detected["alibi_heads"] = heads
        span = float(-relative.min())
        tolerance = slope_tolerance(row, span, unit_roundoff(dtype), _work_roundoff(dtype))[:heads]
        self.detected["form"] = describe_form(row[:heads], relative, measured[:heads], tolerance,
                                              self.tolerance(dtype, row[:heads]))
        if heads == 0:
            self.log.add("sign", False, "every head's bias is zero: no ALiBi penalty at all.", dtype=dtype,
                         fix="Multiply k − q by the head's slope")
            self.log.skip("slopes", "explained by sign: the bias is zero")
            return False
        positive = measured[:heads] > 0
        if not positive.all():
            self.log.add("sign", False, f"heads {np.flatnonzero(~positive)[:8].tolist()} add a bias that grows with "
                         f"distance into the past (slope {float(measured[~positive][0]):.4g} on k − q): ALiBi must "
                         "penalise distant keys.", dtype=dtype,
                         fix="Use −m·(q − k) = m·(k − q) for past keys (or −m·|k − q|), m > 0")
            self.log.skip("slopes", "explained by sign: the bias has the wrong sign")
            return False
        self.log.current = "slopes"
        self.log.add("sign", True, f"every head penalises distant past keys ({self.detected['form']}).", dtype=dtype)
        wanted = alibi_slopes(heads)
        error = np.abs(measured[:heads] - wanted)
        # Press et al.'s own start·ratio^h accumulates up to h + 2 roundings.
        allowed = tolerance + wanted * (heads + 8) * _work_roundoff(dtype)
        ok = bool(np.all(error <= allowed))
        if ok:
            self.log.add("slopes", True, f"the {heads} slopes are Press et al.'s (2^(−8/n) geometric for a power of "
                         "two, the closest-power-of-two rule otherwise).", dtype=dtype,
                         max_error=float(error.max()), bound=float(allowed.max()))
            return True
        head = int(np.argmax(error / (tolerance + 1e-300)))
        description, defect = explain_slopes(measured[:heads])
        self.log.add("slopes", False, f"the slopes are {description}; head {head} has "
                     f"{measured[head]:.6g}, Press et al.'s is {wanted[head]:.6g}.", dtype=dtype,
                     max_error=float(error[head]), bound=float(tolerance[head]), fix=SLOPE_FIXES[defect])
        return False

    # -- T5 ---------------------------------------------------------------------------------------------------------
    def t5(self, dtype: str, row: np.ndarray, relative: np.ndarray, scheme: dict[str, Any]) -> bool:
        self.log.current = "sign"
        buckets, distance = int(scheme["buckets"]), int(scheme["max_distance"])
        bidirectional = bool(scheme["bidirectional"])
        if np.all(np.abs(row - row[:, :1]) <= self.tolerance(dtype, row)):
            self.log.skip("sign", "the bias is constant (a zero-initialised table?): buckets cannot be observed")
            self.log.skip("buckets", "the bias is constant: buckets cannot be observed")
            return False
        tolerance = float(np.max(self.tolerance(dtype, row)))
        view = view_buckets(row, relative, tolerance, self.table)
        direct = compare_partition(view, buckets, distance, bidirectional)
        mirrored = compare_partition(view, buckets, distance, bidirectional, mirrored=True)
        symmetric = bidirectional and view.indices is None
        if not direct[0] and mirrored[0] and not symmetric:
            self.log.add("sign", False, "the buckets are those of q − k: the relative position is taken with the "
                         "wrong sign (Raffel et al. use memory_position − query_position = k − q).", dtype=dtype,
                         fix="Use relative_position = k_positions − q_positions")
            self.log.skip("buckets", "explained by sign: the partition is the mirror image of the reference")
            return False
        if symmetric:
            self.log.skip("sign", "the bidirectional partition is symmetric in k − q; expose the table "
                                  "(relative_attention_bias) to check which half holds k > q")
        else:
            self.log.add("sign", True, "buckets follow k − q (memory position minus query position)"
                         + (", read through the table." if view.indices is not None else "."), dtype=dtype)
        self.log.current = "buckets"
        if direct[0]:
            self.log.add("buckets", True, f"every relative position in [−{int(relative.max())}, "
                         f"{int(relative.max())}] lands in Raffel et al.'s bucket (num_buckets {buckets}, max_distance "
                         f"{distance}, bidirectional {str(bidirectional).lower()}); each head's value is a function "
                         "of the bucket alone.", dtype=dtype)
            return True
        self.log.add("buckets", False, f"{direct[2]}: {diagnose(view, buckets, distance, bidirectional)}.",
                     dtype=dtype, position=direct[1],
                     fix="Use transformers' T5Attention._relative_position_bucket (exact region, log buckets up to "
                         "max_distance, min(…, num_buckets − 1), half the buckets for k > q when bidirectional)")
        return False

    # -- precision and cache ------------------------------------------------------------------------------------------
    def precision(self, dtype: str, scheme: dict[str, Any], row: np.ndarray, relative: np.ndarray) -> None:
        self.log.current = "precision"
        top = self.n - 1
        far = self.bias(dtype, np.array([top]), np.arange(top + 1))[:, 0, :]
        distance = np.arange(top + 1) - top
        rounded_constant = False
        if scheme["name"] == "alibi":
            heads = int(self.detected.get("alibi_heads", 0))
            slopes = np.zeros(self.heads)
            slopes[:heads] = alibi_slopes(heads)
            error, tolerance, rounded_constant = self._alibi_visible(dtype, top, slopes, heads)
        else:
            wanted = np.repeat(row[:, :1], top + 1, axis=1)
            wanted[:, distance > relative.min()] = far[:, distance > relative.min()]
            tolerance = self.tolerance(dtype, wanted, far)
            error = np.where(np.isfinite(far), np.abs(far - wanted), np.inf)
        bad = np.flatnonzero(np.any(error > tolerance + 1e-300, axis=0))
        # Column c holds distance top − c; the nearest failing distance is that of the last failing column.
        largest = top if not bad.size else int(top - bad[-1] - 1)
        self.certified[dtype] = {"largest_position": largest, "all_audited": not bad.size, "unit": "distance k − q",
                                 "budget": float(self.options["budget"]), "theorem": "RPE-SHIFT-INVARIANCE"}
        if not bad.size:
            self.log.add("precision", True, f"every distance up to {top} within rounding of the reference "
                         "(ALiBi, on the part softmax sees, at queries early, midway and last: (u_out + (H + 5)·u_work)"
                         "·|m·(k − q)| + 4·u_work·|row constant|; T5: the clamped bucket's value).", dtype=dtype,
                         max_error=float(np.max(error)))
            return
        first = int(top - bad[-1])
        worst = int(np.argmax(np.max(error, axis=0)))
        hint, fix = "", ("Form positions, k − q and the product with the slope in float32 (float64 for float64 "
                         "outputs), then round once")
        if scheme["name"] == "alibi":
            if not rounded_constant:
                hint = _alibi_precision_hint(far, slopes, distance, dtype)
            else:
                hint = (f" — the row's constant (m·q of a key-index form m·k) is rounded to {dtype} with the bias, "
                        f"and softmax sees that rounding: up to {float(np.max(error[np.isfinite(error)])):.3g} logits")
                fix = (f"Keep the ALiBi tensor in float32 and add it to float32 scores, or form m·(k − q) (no row "
                       f"constant) before casting to {dtype}")
        self.log.add("precision", False, f"the bias is off by more than rounding allows from distance {first} on "
                     f"(largest error {float(np.max(error[:, worst])):.3g} at distance {top - worst}, bound "
                     f"{float(np.max(tolerance[:, worst])):.3g}){hint}.", dtype=dtype, position=first,
                     max_error=float(np.max(error[:, bad])), bound=float(np.max(tolerance[:, bad])), fix=fix)

    def _alibi_visible(
        self, dtype: str, top: int, slopes: np.ndarray, heads: int
    ) -> tuple[np.ndarray, np.ndarray, bool]:
        """ALiBi's past keys against m·(k − q) on the part softmax sees, at an early, a middle and the last query.

        Each row's constant (its value at k = q: m·q in Bloom's key-index form, m·(L − 1 − q) in MPT's) is removed;
        the visible part may carry output rounding, the distance and product in the work dtype and the slope's own
        H + 2 roundings (Press et al.'s start·ratio^h); the constant only the work dtype's rounding — rounded in a
        16-bit output it moves the visible logits by about u₁₆·|constant|.

        **Returns:**

        `(error, tolerance, rounded_constant)`: per head and distance column (column c is k − q = c − top), the
        worst row's error and its tolerance; whether the failures are all within the output dtype's rounding of
        the whole value (constant included).
        """
        queries = sorted({top, top // 2, min(100, top)})
        got = self.bias(dtype, np.array(queries), np.arange(top + 1))
        units = unit_roundoff(dtype) + (heads + 5) * _work_roundoff(dtype)
        shape = (self.heads, top + 1)
        error, tolerance, ratio = np.zeros(shape), np.ones(shape), np.zeros(shape)
        rounded_constant, any_constant = True, False
        for index, q in enumerate(queries):
            values = got[:, index, : q + 1]  # past keys k = 0…q: distance k − q = −q…0
            distance = np.arange(q + 1) - q
            constant = np.where(np.isfinite(values[:, -1:]), values[:, -1:], 0.0)
            visible_wanted = slopes[:, None] * distance[None, :]
            row_error = np.where(np.isfinite(values), np.abs(values - constant - visible_wanted), np.inf)
            magnitude = np.abs(constant) + np.where(np.isfinite(values), np.abs(values), 0.0)
            row_tolerance = units * np.abs(visible_wanted) + 4 * _work_roundoff(dtype) * magnitude
            failing = row_error > row_tolerance
            whole = row_tolerance + 2 * unit_roundoff(dtype) * magnitude
            rounded_constant &= bool(np.all(row_error[failing] <= whole[failing]))
            any_constant |= bool(np.any(constant[failing.any(axis=1)]))
            row_ratio = np.where(row_tolerance > 0, row_error / np.maximum(row_tolerance, 1e-300), 0.0)
            columns = slice(top - q, top + 1)
            take = row_ratio > ratio[:, columns]
            error[:, columns] = np.where(take, row_error, error[:, columns])
            tolerance[:, columns] = np.where(take, row_tolerance, tolerance[:, columns])
            ratio[:, columns] = np.maximum(ratio[:, columns], row_ratio)
        return error, tolerance, rounded_constant and any_constant

    def cache(self, dtype: str, row: np.ndarray, relative: np.ndarray) -> bool:
        self.log.current = "cache"
        reach = int(relative.max())
        worst = (0.0, 0)
        for step in sorted({7, 100, reach, self.n - 1}):
            keys = np.arange(step + 1)
            single = self.bias(dtype, np.array([step]), keys)[:, 0, :]
            block = self.bias(dtype, np.arange(step - 3, step + 1), keys)[:, -1, :]
            residual, _ = _row_residual(single[:, None, :], block[:, None, :])
            ratio = float(np.max(residual / self.tolerance(dtype, single, block)[:, None, :]))
            if step <= reach:
                index = keys - step + reach
                residual, _ = _row_residual(single[:, None, :], row[:, None, index])
                ratio = max(ratio, float(np.max(residual / self.tolerance(dtype, single, row[:, index])[:, None, :])))
            if ratio > worst[0]:
                worst = (ratio, step)
        ok = worst[0] <= 1
        self.log.add("cache", ok, "the bias row of a decoding step (one query at position t over keys 0…t) equals "
                     "that row of the full matrix: it is formed from positions alone, so cached keys stay valid "
                     "(RPE-KV-CACHE-IMPOSSIBLE is refuted for this bias)." if ok else
                     f"the row of query position {worst[1]} computed alone differs from the same row computed with "
                     "earlier queries: a decoding step does not see the bias of its own position (call-position "
                     "dependence).", dtype=dtype,
                     position=None if ok else worst[1], max_error=worst[0], bound=1.0,
                     fix="Compute the bias of a step from its query position (e.g. the last Lq rows of the full "
                         "matrix, bias[..., -Lq:, :]), not from the first rows")
        return ok
