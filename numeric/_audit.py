"""`numeric.audit`: black-box certification of a RoPE implementation by extraction (GUIDE §5).

```python
import numeric

report = numeric.audit(my_rope, base=10000, layout="half", max_position=32768)
report.verdict            # "pass" or "fail"
report.to_json()          # the same object `ropecheck audit --json` prints
[f.detail for f in report.findings if not f.ok]
```

The audited callable is `fn(x, positions) -> y` with x of shape `(..., L, d)`, integer positions of shape
`(L,)` and y of x's shape (NumPy, PyTorch or JAX). The audit extracts the per-position linear map M(p) with
basis probes, identifies pairing, direction and per-pair angles, compares the outputs with the high-precision
reference (`numeric.reference`) over every position below `max_position` in every dtype under the tolerance
policy of `numeric._audit_policy`, and transfers the proved claims (ROPE-RELATIVE-MATRIX, ROPE-NORM-PRESERVING,
ROPE-KV-CACHE-REUSE, …) with the measured error: the certified context length per dtype.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import math
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from numeric import _audit_policy as policy
from numeric._audit_extract import (
    Structure,
    block_angles,
    entry_bound,
    estimate_frequencies,
    extract_matrices,
    find_structure,
    nice_candidates,
    sweep_probes,
)
from numeric._audit_properties import CLAIMS, PROPERTIES
from numeric._scaling import Scaling, parse_scaling, scaled_inverse_frequencies, scaled_inverse_frequencies_mp
from numeric._targets import (
    FRAMEWORKS,
    AuditError,
    BadOutput,
    Caller,
    CallFailed,
    LoadedTarget,
    Worker,
    framework_hints,
    load_target,
    numpy_dtype,
)
from numeric.reference import reference_cos_sin, tolerances

__all__ = ["CLAIMS", "PROPERTIES", "AuditError", "AuditReport", "Finding", "audit"]

DEFAULT_DTYPES = ("float32", "bfloat16", "float16", "float64")
_PRECISION_ORDER = ("float64", "float32", "float16", "bfloat16")
_HEAD_DIMS = (128, 64, 32, 256, 96, 80, 16, 8, 160, 192, 512)
_SMALL_POSITIONS = 33
_CONTRACT_LENGTH = 64
_SEED = 20240611
# Probe elements per call in the sweep: keeps each call (and the float64 analysis of its output) around 50 MB.
_SWEEP_ELEMENTS = 1 << 21


# ------------------------------------------------------------------------------------------------ results
@dataclasses.dataclass
class Finding:
    """One property checked on the target.

    **Fields:**

    - `property`: one of `PROPERTIES`.
    - `ok`: whether it holds.
    - `detail`: one or two sentences a newcomer can act on.
    - `claims`: ledger claim IDs it bears on.
    - `dtype`, `max_error`, `bound`, `position`: where the check is numeric (position: the first failing one).
    """

    property: str
    ok: bool
    detail: str
    claims: tuple[str, ...] = ()
    dtype: str | None = None
    max_error: float | None = None
    bound: float | None = None
    position: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The finding as in `--json` (optional keys only when set)."""
        out: dict[str, Any] = {"property": self.property, "ok": self.ok}
        for key in ("dtype", "max_error", "bound", "position"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out["detail"] = self.detail
        out["claims"] = list(self.claims)
        return out


@dataclasses.dataclass
class AuditReport:
    """The audit's result; `to_json()` is what `ropecheck audit --json` prints.

    **Fields:**

    - `target`, `framework`, `head_dim`, `rotary_dim`, `max_position`.
    - `verdict`: `"pass"` when every finding is ok, else `"fail"`.
    - `layout`, `direction`: as detected.
    - `base`: the base audited against; `base_source`: `"declared"` or `"inferred"`.
    - `scaling`: the declared scaling (JSON form) or None.
    - `dtypes`: per dtype `{"status": "supported" | "unsupported" | "contract failed", ...}`.
    - `findings`: list of `Finding`.
    - `certified`: per dtype the largest position certified at the score-error budget.
    - `seconds`, `target_seconds`: wall time of the audit and time spent inside the target.
    - `angle_error`: per dtype, the largest angle error of any pair at each position (for plots).
    """

    target: str
    framework: str
    head_dim: int
    rotary_dim: int
    max_position: int
    verdict: str
    layout: str
    direction: str
    base: float | None
    base_source: str
    scaling: dict[str, Any] | None
    dtypes: dict[str, dict[str, Any]]
    findings: list[Finding]
    certified: dict[str, Any]
    seconds: float = 0.0
    target_seconds: float = 0.0
    angle_error: dict[str, np.ndarray] = dataclasses.field(default_factory=dict, repr=False)

    @property
    def ok(self) -> bool:
        """Whether the target conforms."""
        return self.verdict == "pass"

    def failures(self) -> list[Finding]:
        """The findings that fail."""
        return [finding for finding in self.findings if not finding.ok]

    def to_json(self) -> dict[str, Any]:
        """The report as one JSON-ready object (the `--json` schema of issue #4)."""
        return {
            "target": self.target,
            "verdict": self.verdict,
            "layout": self.layout,
            "direction": self.direction,
            "base": self.base,
            "base_source": self.base_source,
            "scaling": self.scaling,
            "framework": self.framework,
            "head_dim": self.head_dim,
            "rotary_dim": self.rotary_dim,
            "max_position": self.max_position,
            "dtypes": self.dtypes,
            "findings": [finding.to_json() for finding in self.findings],
            "certified": self.certified,
            "seconds": self.seconds,
            "target_seconds": self.target_seconds,
        }


# ------------------------------------------------------------------------------------------------ session
class _Session:
    """The target behind one audit: one `Caller` per dtype (built-in adapters are built per dtype), and, for
    factories (classes), fresh instances with another base."""

    def __init__(self, loaded: LoadedTarget, options: _Options, worker: Worker) -> None:
        self.loaded = loaded
        self.options = options
        self.worker = worker
        self.framework = ""
        self.head_dim = 0
        self._callers: dict[str, Caller] = {}
        self._shared: Caller | None = None
        self.extra_callers: list[Caller] = []

    # -- building
    def _instance(
        self, head_dim: int, dtype: str, base: float | None, scaling: Scaling | None = None
    ) -> Callable[[Any, Any], Any]:
        """A fresh callable: built-ins are built (per dtype, with `module_cast` where asked), factories are
        instantiated; a plain function is returned as is. `scaling` applies to built-ins only."""
        obj, options = self.loaded.obj, self.options
        if self.loaded.adapter is not None:
            from numeric._adapters import AdapterConfig

            config = AdapterConfig(
                head_dim=head_dim,
                base=base,
                scaling=None if scaling is None else scaling.to_huggingface(),
                rotary_dim=options.rotary_dim,
                dtype=dtype,
                module_cast=options.module_cast,
                max_position=max(options.max_position, 8),
            )
            try:
                self.loaded.adapter.check_config(config)
                fn = self.loaded.adapter.build(config)
            except Exception as error:
                raise AuditError(f"cannot build built-in target {self.loaded.name!r}: {_one_line(error)}") from None
            return _numpy_output(fn) if self.loaded.adapter.framework == "mlx" else fn
        if self.loaded.is_factory:
            return _construct(obj, head_dim, base, options.rotary_dim)
        return obj

    @property
    def can_rebuild(self) -> bool:
        """Whether fresh instances with another base can be made (factories and built-ins)."""
        if self.loaded.adapter is not None:
            return True
        if not self.loaded.is_factory:
            return False
        return _base_parameter(self.loaded.obj) is not None

    def detect(self) -> None:
        """Find the framework (unless forced) and the head dimension (unless given) with one small call each."""
        options = self.options
        if self.loaded.adapter is not None:
            # MLX arrays come back as NumPy arrays of the same dtype (see `_numpy_output`).
            frameworks = [{"mlx": "numpy"}.get(self.loaded.adapter.framework, self.loaded.adapter.framework)]
        elif options.framework == "auto":
            frameworks = framework_hints(self.loaded.obj)
        else:
            frameworks = [options.framework]
        head_dims = [options.head_dim] if options.head_dim else list(_HEAD_DIMS)
        if options.rotary_dim and not options.head_dim:
            head_dims = [d for d in head_dims if d >= options.rotary_dim] or [options.rotary_dim]
        first_error = ""
        bad_output: tuple[str, int, Caller] | None = None
        probe_dtypes = ["float32", *(d for d in options.dtypes if d != "float32")]
        for head_dim in head_dims:
            for framework in frameworks:
                for dtype in probe_dtypes[:2]:
                    try:
                        fn = self._instance(head_dim, dtype, options.base, options.scaling)
                    except AuditError:
                        raise
                    except Exception as error:  # a factory that cannot be built with this head_dim
                        first_error = first_error or f"constructing the target raised {_one_line(error)}"
                        continue
                    caller = Caller(fn, framework, options.timeout, self.worker)
                    if caller.supports(dtype):
                        continue
                    x = np.random.default_rng(_SEED).uniform(-1, 1, size=(1, 4, head_dim))
                    try:
                        caller.call(x, np.arange(4), dtype)
                    except BadOutput as error:
                        first_error = first_error or error.reason
                        bad_output = bad_output or (framework, head_dim, caller)
                        continue
                    except CallFailed as error:
                        first_error = first_error or f"the target raised {error.reason}"
                        continue
                    self.framework, self.head_dim = framework, head_dim
                    if self.loaded.adapter is None:
                        self._shared = caller
                    else:
                        self._callers[dtype] = caller
                    return
        if bad_output is not None:
            # It runs but returns the wrong thing: a contract finding, not an error.
            self.framework, self.head_dim, caller = bad_output
            if self.loaded.adapter is None:
                self._shared = caller
            return
        tried = f"head_dim {head_dims[0]}" if len(head_dims) == 1 else "head_dim " + "/".join(map(str, head_dims))
        raise AuditError(
            f"cannot call the target with x of shape (1, 4, d), {tried}, {', '.join(frameworks)} inputs:"
            f" {first_error or 'no framework accepted it'}"
        )

    def caller(self, dtype: str) -> Caller:
        """The caller for one dtype."""
        if self._shared is not None:
            return self._shared
        if dtype not in self._callers:
            fn = self._instance(self.head_dim, dtype, self.options.base, self.options.scaling)
            self._callers[dtype] = Caller(fn, self.framework, self.options.timeout, self.worker)
        return self._callers[dtype]

    def rebuilt(self, dtype: str, base: float | None, scaling: Scaling | None, head_dim: int) -> Caller:
        """A fresh instance of another (or the same) configuration, for the state property."""
        fn = self._instance(head_dim, dtype, base, scaling)
        caller = Caller(fn, self.framework, self.options.timeout, self.worker)
        self.extra_callers.append(caller)
        return caller

    @property
    def can_rescale(self) -> bool:
        """Whether instances with another scaling can be built (built-ins that implement a scaling)."""
        return self.loaded.adapter is not None and self.options.scaling is not None

    @property
    def can_resize(self) -> bool:
        """Whether instances with another head size can be built (built-ins; factories taking the size)."""
        if self.loaded.adapter is not None:
            return True
        try:
            parameters = inspect.signature(self.loaded.obj).parameters
        except (TypeError, ValueError):
            return False
        return self.can_rebuild and any(name in parameters for name in ("head_dim", "dim", "d"))

    def target_seconds(self) -> float:
        callers = {id(c): c for c in [*self._callers.values(), *self.extra_callers]}
        if self._shared is not None:
            callers[id(self._shared)] = self._shared
        return sum(c.target_seconds for c in callers.values())


def _numpy_output(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """An MLX adapter's outputs as NumPy arrays of the same dtype, converted (and so evaluated) inside the call:
    MLX streams belong to the thread that made the array, and NumPy has no MLX bfloat16."""
    from numeric._adapters import to_numpy

    def call(x: Any, positions: Any) -> Any:
        return to_numpy(fn(x, positions))

    return call


def _one_line(error: BaseException) -> str:
    message = " ".join(str(error).split())
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def _base_parameter(cls: Any) -> str | None:
    try:
        parameters = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return None
    return next((name for name in ("base", "theta", "rope_theta") if name in parameters), None)


def _construct(cls: Any, head_dim: int, base: float | None, rotary_dim: int | None) -> Callable[[Any, Any], Any]:
    """Instantiate a factory class, passing head_dim/dim, base/theta and rotary_dim where its signature has them."""
    try:
        parameters = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        parameters = {}
    kwargs: dict[str, Any] = {}
    for name in ("head_dim", "dim", "d"):
        if name in parameters:
            kwargs[name] = head_dim
            break
    base_name = _base_parameter(cls)
    if base is not None and base_name:
        kwargs[base_name] = base
    if rotary_dim is not None and "rotary_dim" in parameters:
        kwargs["rotary_dim"] = rotary_dim
    missing = [
        name
        for name, parameter in parameters.items()
        if parameter.default is inspect.Parameter.empty
        and parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
        and name not in kwargs
    ]
    if missing:
        raise AuditError(f"cannot construct {cls.__name__}: no value for parameter(s) {', '.join(missing)}")
    instance = cls(**kwargs)
    if not callable(instance):
        raise AuditError(f"instances of {cls.__name__} are not callable as fn(x, positions)")
    return instance


# ------------------------------------------------------------------------------------------------ options
@dataclasses.dataclass
class _Options:
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


def _validate(**raw: Any) -> _Options:
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
    if isinstance(dtypes, str):
        dtypes = [part.strip() for part in dtypes.split(",") if part.strip()]
    dtypes = tuple(dict.fromkeys(str(d) for d in dtypes))
    unknown = [d for d in dtypes if d not in tolerances.DTYPES]
    if unknown or not dtypes:
        raise AuditError(f"unknown dtype(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(DEFAULT_DTYPES)}")
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
    budget = float(raw["budget"])
    if not budget > 0:
        raise AuditError("--budget must be positive")
    return _Options(
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
    )


# ------------------------------------------------------------------------------------------------ reference
@dataclasses.dataclass
class _Ideal:
    """The ideal the target is held to: g·R(m) with θ from base/scaling, over the detected (or assumed) pairing."""

    d: int
    pairs: np.ndarray
    passthrough: np.ndarray
    base: float
    scaling: Scaling | None
    theta_units: float

    @property
    def rotary_dim(self) -> int:
        return 2 * len(self.pairs)

    @property
    def attention_factor(self) -> float:
        return 1.0 if self.scaling is None else self.scaling.attention_factor()

    def inverse_frequencies(self, positions: np.ndarray) -> Any:
        length = int(positions.max()) + 1 if positions.size else 1
        return scaled_inverse_frequencies(self.rotary_dim, self.base, self.scaling, length)

    def expected(self, x: np.ndarray, positions: np.ndarray, dtype: str) -> tuple[np.ndarray, np.ndarray]:
        """(exact g·R(m)x, per-coordinate policy bound), both of x's shape `(..., L, d)`, x held exactly."""
        frequencies = self.inverse_frequencies(positions)
        cosine, sine = reference_cos_sin(positions, frequencies)
        g = self.attention_factor
        a, b = self.pairs[:, 0], self.pairs[:, 1]
        xa, xb = x[..., a], x[..., b]
        expected = x.copy()
        expected[..., a] = g * (xa * cosine - xb * sine)
        expected[..., b] = g * (xa * sine + xb * cosine)
        bound = np.empty_like(x)
        pair_bound = policy.output_bound(
            np.abs(xa) + np.abs(xb),
            positions,
            frequencies.hi,
            dtype,
            theta_units=self.theta_units,
            attention_factor=g,
        )
        bound[..., a] = pair_bound
        bound[..., b] = pair_bound
        bound[..., self.passthrough] = policy.passthrough_bound(x[..., self.passthrough], dtype)
        return expected, bound


def _round(x: np.ndarray, dtype: str) -> np.ndarray:
    """x rounded to the dtype, back in float64 (the exact value the target receives)."""
    return x.astype(numpy_dtype(dtype)).astype(np.float64)


def _ratio(error: np.ndarray, bound: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(bound > 0, error / bound, np.where(error > 0, np.inf, 0.0))
    return np.where(np.isnan(error), np.inf, ratio)


def _half_pairs(rotary_dim: int) -> np.ndarray:
    index = np.arange(rotary_dim // 2)
    return np.stack([index, index + rotary_dim // 2], axis=1)


def _interleaved_pairs(rotary_dim: int) -> np.ndarray:
    index = np.arange(rotary_dim // 2)
    return np.stack([2 * index, 2 * index + 1], axis=1)


# ------------------------------------------------------------------------------------------------ progress
class _Progress:
    """rich progress on a terminal's stderr; nothing otherwise."""

    def __init__(self, enabled: bool) -> None:
        self._enabled = enabled
        self._progress: Any = None
        self._task: Any = None

    @contextlib.contextmanager
    def running(self, total: int) -> Iterator[_Progress]:
        if not self._enabled:
            yield self
            return
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        console = Console(stderr=True)
        with Progress(
            TextColumn("[bold]audit[/] {task.description}"),
            BarColumn(),
            TextColumn("{task.percentage:>3.0f}%"),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        ) as progress:
            self._progress = progress
            self._task = progress.add_task("", total=total)
            yield self
        self._progress = None

    def advance(self, amount: int, description: str) -> None:
        if self._progress is not None:
            self._progress.update(self._task, advance=amount, description=description)


# ------------------------------------------------------------------------------------------------ the audit
def audit(
    fn: Any,
    *,
    base: float | None = None,
    layout: str | None = None,
    scaling: str | Scaling | None = None,
    rotary_dim: int | None = None,
    max_position: int = 32768,
    dtypes: Sequence[str] | str = DEFAULT_DTYPES,
    framework: str = "auto",
    head_dim: int | None = None,
    timeout: float = 30.0,
    budget: float = policy.DEFAULT_SCORE_BUDGET,
    progress: bool = False,
    name: str | None = None,
    module_cast: bool = False,
) -> AuditReport:
    """Audit a RoPE implementation: every property of `PROPERTIES`, in every dtype, at every position.

    **Arguments:**

    - `fn`: `fn(x, positions) -> y`; or a class whose instances are such callables (built with
      `head_dim`/`dim`, `base`/`theta` and `rotary_dim` where its signature has them — the state property then
      also checks that instances do not share results); or a TARGET string (`package.module:attr`,
      `path/to/file.py:attr`, a built-in adapter name).
    - `base`: the expected θ base; None infers it from the spectrum (reported as `base_source="inferred"`).
    - `layout`: the expected pairing, `"interleaved"` or `"half"`; None detects and reports it.
    - `scaling`: a scaling spec (`"linear:4"`, `"yarn:8,orig=4096"`, … see `numeric._scaling`) or None.
    - `rotary_dim`: the expected rotary dimension (partial rotary); None: detected.
    - `max_position`: the context length audited: every position 0…max_position−1.
    - `dtypes`: dtypes to audit (subset of float64, float32, float16, bfloat16), or a comma-separated string.
    - `framework`: `"auto"` (detect), `"numpy"`, `"torch"` or `"jax"`.
    - `head_dim`: d; None tries common head sizes (128 first).
    - `timeout`: seconds one call may take before the target counts as hung.
    - `budget`: the relative score-error budget of the certified context length.
    - `progress`: show a rich progress bar on stderr.
    - `name`: the target's name in the report (default: the TARGET string or the callable's qualified name).
    - `module_cast`: built-in targets only: build each library module in float32, then cast the whole module to
      the audited dtype the way users cast models (`.to(dtype)` in torch, a dtype policy in Keras), one fresh
      module per dtype; without it the module stays float32 and only x has the audited dtype.

    **Returns:**

    An `AuditReport`.

    **Raises:**

    `AuditError` (one-line message) for bad options, or a target that cannot be loaded, called or that hangs.
    """
    started = time.perf_counter()
    options = _validate(
        base=base,
        layout=layout,
        scaling=scaling,
        rotary_dim=rotary_dim,
        max_position=max_position,
        dtypes=dtypes,
        framework=framework,
        head_dim=head_dim,
        timeout=timeout,
        budget=budget,
        progress=progress,
        module_cast=module_cast,
    )
    if isinstance(fn, str):
        loaded = load_target(fn)
    elif type(fn).__name__ == "AdapterSpec":
        loaded = LoadedTarget(name=fn.name, obj=fn, adapter=fn)
    elif callable(fn):
        loaded = LoadedTarget(name=name or getattr(fn, "__qualname__", type(fn).__qualname__), obj=fn)
    else:
        raise AuditError(f"the target is a {type(fn).__name__}, not a callable fn(x, positions)")
    if name:
        loaded.name = name
    if options.module_cast and loaded.adapter is None:
        raise AuditError(
            f"--module-cast applies to built-in targets only; {loaded.name!r} is called as given"
            " (cast your own module before passing it)"
        )
    session = _Session(loaded, options, Worker())
    session.detect()
    report = _Auditor(session, options).run()
    report.seconds = time.perf_counter() - started
    report.target_seconds = session.target_seconds()
    return report


class _Auditor:
    def __init__(self, session: _Session, options: _Options) -> None:
        self.session = session
        self.options = options
        self.d = session.head_dim
        self.findings: list[Finding] = []
        self.dtype_info: dict[str, dict[str, Any]] = {}
        self.contract_outputs: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.rng = np.random.default_rng(_SEED)
        self.n = options.max_position
        self.certified: dict[str, Any] = {}
        self.angle_error: dict[str, np.ndarray] = {}
        self.theta_units = 1.0
        self.base_source = "declared"

    def add(self, prop: str, ok: bool, detail: str, **numbers: Any) -> None:
        clean = {
            k: v if v is None or k == "dtype" else (int(v) if k == "position" else float(v)) for k, v in numbers.items()
        }
        self.findings.append(Finding(prop, bool(ok), detail, CLAIMS[prop], **clean))

    # -- contract ---------------------------------------------------------------------------------------
    def contract(self, dtype: str) -> bool:
        """Shape, dtype, finite, input left unmodified, same output on a repeated call. Returns usability."""
        caller = self.session.caller(dtype)
        reason = caller.supports(dtype)
        if reason:
            self.dtype_info[dtype] = {"status": "unsupported", "reason": reason}
            return False
        length = min(_CONTRACT_LENGTH, self.n)
        x = _round(self.rng.normal(size=(2, length, self.d)), dtype)
        positions = np.arange(length)
        framework_x = caller.to_framework(x, dtype)
        before = _framework_copy(framework_x)
        try:
            raw = caller.call_raw(framework_x, caller.positions(positions))
            from numeric._targets import to_float64

            y = to_float64(raw, x.shape)
        except BadOutput as error:
            self.dtype_info[dtype] = {"status": "contract failed", "reason": error.reason}
            self.add("contract", False, f"{error.reason[0].upper()}{error.reason[1:]}.", dtype=dtype)
            return False
        except CallFailed as error:
            self.dtype_info[dtype] = {"status": "unsupported", "reason": f"the target raised {error.reason}"}
            return False
        problems = []
        out_dtype = str(getattr(raw, "dtype", "")).removeprefix("torch.")
        if out_dtype != dtype:
            problems.append(f"returns {out_dtype or type(raw).__name__} for {dtype} input")
        if not np.all(np.isfinite(y)):
            bad = np.argwhere(~np.isfinite(y))[0]
            problems.append(f"non-finite output (first at position {int(positions[bad[-2]])}, coordinate {bad[-1]})")
        after = _framework_copy(framework_x)
        if not np.array_equal(before, after, equal_nan=True):
            problems.append("modifies its input x in place")
        y_again, _ = caller.call(x, positions, dtype)
        _, bound = self.loose_bound(x, positions, dtype)
        repeat_gap = np.abs(y_again - y)
        if np.any(_ratio(repeat_gap, bound) > 1) or (np.isnan(y) != np.isnan(y_again)).any():
            problems.append(
                f"a repeated call with the same input returns a different output (by {_max(repeat_gap):.3g})"
            )
        ok = not problems
        detail = (
            f"output of x's shape and dtype, finite, input unmodified, repeated call identical"
            f"{' (bitwise)' if np.array_equal(y, y_again, equal_nan=True) else ''}."
            if ok
            else "; ".join(problems).capitalize() + "."
        )
        self.add("contract", ok, detail, dtype=dtype)
        self.dtype_info[dtype] = {"status": "supported", "output_dtype": out_dtype}
        self.contract_outputs[dtype] = (x, positions, y)
        return True

    def loose_bound(self, x: np.ndarray, positions: np.ndarray, dtype: str) -> tuple[None, np.ndarray]:
        """A layout-free bound for comparing two outputs of the target with each other (θ = 1 per entry, so
        generous): twice the policy bound of a pair holding the largest |x| of the vector twice."""
        weight = 2 * np.abs(x).max(axis=-1, keepdims=True)
        beta = entry_bound(positions, dtype, self.theta_units, self.attention_factor)
        return None, 2 * weight * beta[:, np.newaxis]

    # -- the run ----------------------------------------------------------------------------------------
    @property
    def attention_factor(self) -> float:
        return 1.0 if self.options.scaling is None else self.options.scaling.attention_factor()

    def run(self) -> AuditReport:
        options = self.options
        self.theta_units = policy.frequency_error_units(
            options.base or 10000.0, 1.0 if options.scaling is None else options.scaling.factor
        )
        usable = [dtype for dtype in options.dtypes if self.contract(dtype)]
        if not usable:
            reasons = {info.get("reason", "") for info in self.dtype_info.values()}
            failed_contract = [f for f in self.findings if not f.ok]
            if not failed_contract:
                raise AuditError(f"the target cannot be called in any requested dtype: {'; '.join(sorted(reasons))}")
            return self.report(None, "unknown", "unknown")
        primary = min(usable, key=_PRECISION_ORDER.index)
        small = np.arange(min(_SMALL_POSITIONS, self.n))
        large = _sample_positions(self.n, small.size)
        matrices_small = extract_matrices(self.session.caller(primary), small, primary, self.d)
        matrices = matrices_small
        if large.size:
            matrices_large = extract_matrices(self.session.caller(primary), large, primary, self.d)
            matrices = np.concatenate([matrices_small, matrices_large])
        structure = find_structure(
            matrices, np.concatenate([small, large]), primary, self.theta_units, self.attention_factor
        )
        ideal = self.pairing(structure)
        self.direction(structure)
        ideal = self.spectrum(ideal, matrices_small, small, primary, structure)
        self.theta_units = ideal.theta_units
        small_by_dtype = {primary: matrices_small}
        for dtype in usable:
            if dtype not in small_by_dtype:
                small_by_dtype[dtype] = extract_matrices(self.session.caller(dtype), small[:2], dtype, self.d)
            self.identity(ideal, small_by_dtype[dtype][:1], dtype)
        for dtype in usable:
            self.linearity(ideal, dtype)
        self.sweep(ideal, usable)
        for dtype in usable:
            self.relative(ideal, dtype)
            self.positions(ideal, dtype)
        self.state(ideal, usable, primary)
        return self.report(ideal, structure.layout, structure.direction)

    # -- pairing, direction, spectrum -------------------------------------------------------------------
    def pairing(self, structure: Structure) -> _Ideal:
        options = self.options
        problems = list(structure.problems)
        if structure.rotary_dim == 0 and not problems:
            problems.append("no coordinates mix at any position: nothing is rotated")
        if options.layout and structure.layout not in (options.layout, "none") and not structure.problems:
            problems.append(f"declared layout {_layout_name(options.layout)}, found {_layout_name(structure.layout)}")
        if options.rotary_dim and structure.rotary_dim and structure.rotary_dim != options.rotary_dim:
            problems.append(f"declared rotary dimension {options.rotary_dim}, found {structure.rotary_dim}")
        usable_structure = not structure.problems and structure.rotary_dim > 0
        if usable_structure:
            pairs, passthrough = structure.pairs, structure.passthrough
        else:
            rotary = options.rotary_dim or self.d
            pairs = (_interleaved_pairs if options.layout == "interleaved" else _half_pairs)(rotary)
            passthrough = np.arange(rotary, self.d)
        if not problems:
            parts = f"{structure.rotary_dim // 2} pairs, {_layout_name(structure.layout)}"
            if structure.passthrough.size:
                parts += f", {structure.passthrough.size} coordinates passed through (partial rotary)"
            detail = f"Each position applies one 2×2 rotation per pair: {parts}."
        else:
            detail = "; ".join(problems) + "."
            if not usable_structure:
                detail += f" Later checks assume the {_layout_name(options.layout or 'half')} pairing."
        self.add("pairing", not problems, detail[0].upper() + detail[1:])
        return _Ideal(self.d, pairs, passthrough, options.base or 10000.0, options.scaling, self.theta_units)

    def direction(self, structure: Structure) -> None:
        ok = structure.direction == "counter-clockwise"
        if ok:
            detail = "Counter-clockwise (x₁cos − x₂sin, x₁sin + x₂cos), as RoFormer and every major library."
        elif structure.direction == "unknown":
            detail = "Direction could not be read: no pair shows a sine term at position 1."
        else:
            detail = (
                f"The rotation is {structure.direction}: the sine term has the opposite sign of RoFormer's "
                "(x₁cos + x₂sin, −x₁sin + x₂cos); scores then depend on m − n instead of n − m."
            )
        self.add("direction", ok, detail)

    def spectrum(
        self, ideal: _Ideal, matrices: np.ndarray, positions: np.ndarray, dtype: str, structure: Structure
    ) -> _Ideal:
        options = self.options
        phi, _ = block_angles(matrices, ideal.pairs)
        estimated = estimate_frequencies(phi[1:], positions[1:]) if positions.size > 3 else phi[-1]
        factor = 1.0 if options.scaling is None else options.scaling.factor

        def mismatch(candidate_base: float) -> tuple[float, int, int, float, float]:
            units = policy.frequency_error_units(candidate_base, factor)
            trial = dataclasses.replace(ideal, base=candidate_base, theta_units=units)
            thetas = trial.inverse_frequencies(positions).hi
            expected = positions[:, np.newaxis] * thetas
            error = np.abs(np.angle(np.exp(1j * (phi - expected))))
            beta = policy.output_bound(
                1.0, positions, thetas, dtype, theta_units=units, attention_factor=ideal.attention_factor
            )
            ratio = _ratio(error, policy.angle_tolerance(beta, ideal.attention_factor))
            row, column = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
            return float(ratio.max()), int(positions[row]), int(column), float(error[row, column]), units

        base_source = "declared"
        if options.base is None:
            base_source = "inferred"
            fitted = _fit_base(estimated, ideal)
            best = fitted
            for candidate in nice_candidates(fitted):
                if mismatch(candidate)[0] <= 1:
                    best = candidate
                    break
            ideal = dataclasses.replace(ideal, base=best)
        worst, position, pair, error, units = mismatch(ideal.base)
        ideal = dataclasses.replace(ideal, theta_units=units)
        self.base_source = base_source
        thetas = ideal.inverse_frequencies(positions).hi
        label = f"base {ideal.base:g} ({base_source})"
        if options.scaling is not None:
            label += f" with scaling {options.scaling.spec()}"
        if worst <= 1:
            detail = f"θᵢ follow {label} for all {len(thetas)} pairs (positions 0…{int(positions[-1])})."
        elif thetas[pair] and abs(estimated[pair] / thetas[pair] - 1) < 1e-4:
            detail = (
                f"θᵢ match {label}, but the angle of pair {pair} is off by {error:.3g} rad at position {position},"
                f" more than {dtype} allows under the policy (angles formed in a lower precision?)."
            )
        else:
            ratio_text = estimated[pair] / thetas[pair] if thetas[pair] else math.inf
            detail = (
                f"θ of pair {pair} is {estimated[pair]:.6g}, expected {thetas[pair]:.6g} for {label}"
                f" (ratio {ratio_text:.4g}); angle off by {error:.3g} rad at position {position}."
            )
            if options.scaling is None and abs(estimated[0] - 1) > 1e-3 and estimated[0] > 0:
                detail += f" θ₀ = {estimated[0]:.4g} ≠ 1: a scaling such as linear:{1 / estimated[0]:.4g} may apply."
        self.add("spectrum", worst <= 1, detail, max_error=error, position=position)
        return ideal

    # -- per-dtype small checks ---------------------------------------------------------------------------
    def identity(self, ideal: _Ideal, matrix: np.ndarray, dtype: str) -> None:
        expected = ideal.attention_factor * np.eye(self.d)
        expected[ideal.passthrough, ideal.passthrough] = 1.0
        beta = entry_bound(np.zeros(1, dtype=np.int64), dtype, ideal.theta_units, ideal.attention_factor)[0]
        error = np.abs(matrix[0] - expected)
        worst = float(error.max())
        ok = worst <= beta
        if ok:
            detail = "Position 0 leaves x unchanged" + (
                f" (up to the attention factor {ideal.attention_factor:.6g})." if ideal.attention_factor != 1 else "."
            )
        else:
            row, column = np.unravel_index(int(np.argmax(error)), error.shape)
            detail = (
                f"Position 0 is not the identity: M(0)[{row}, {column}] = {matrix[0][row, column]:.6g}, expected "
                f"{expected[row, column]:.6g} (an off-by-one position, or an angle offset?)."
            )
        self.add("identity", ok, detail, dtype=dtype, max_error=worst, bound=beta, position=0)

    def linearity(self, ideal: _Ideal, dtype: str) -> None:
        """f(x + z) = f(x) + f(z) (disjoint supports, so x + z is exact) and f(2x) = 2f(x)."""
        length = min(16, self.n)
        positions = np.concatenate([np.arange(length // 2), _sample_positions(self.n, length // 2)[: length // 2]])
        positions = np.unique(positions)
        even = np.zeros(self.d)
        even[::2] = 1.0
        x = _round(self.rng.normal(size=(positions.size, self.d)) * even, dtype)
        z = _round(self.rng.normal(size=(positions.size, self.d)) * (1 - even), dtype)
        probes = np.stack([x, z, x + z, 2 * x])
        y = self.call(dtype, probes, positions, "linearity")
        if y is None:
            return
        _, bound_x = ideal.expected(x, positions, dtype)
        _, bound_z = ideal.expected(z, positions, dtype)
        _, bound_sum = ideal.expected(x + z, positions, dtype)
        additivity = np.abs(y[2] - y[0] - y[1])
        homogeneity = np.abs(y[3] - 2 * y[0])
        ratio_add = _ratio(additivity, bound_x + bound_z + bound_sum)
        ratio_hom = _ratio(homogeneity, 4 * bound_x)
        worst_add, worst_hom = float(ratio_add.max()), float(ratio_hom.max())
        ok = worst_add <= 1 and worst_hom <= 1
        if ok:
            detail = "f(x + z) = f(x) + f(z) and f(2x) = 2·f(x) within rounding."
            error, bound = _max(additivity), float(np.max(bound_x + bound_z + bound_sum))
            position = None
        elif worst_hom > worst_add:
            row = int(np.unravel_index(int(np.argmax(ratio_hom)), ratio_hom.shape)[0])
            detail = (
                f"Not linear in x: f(2x) ≠ 2·f(x) (off by {_max(homogeneity[row]):.3g}) at position {positions[row]}."
            )
            error, bound, position = _max(homogeneity), float(np.max(4 * bound_x)), int(positions[row])
        else:
            row = int(np.unravel_index(int(np.argmax(ratio_add)), ratio_add.shape)[0])
            detail = (
                f"Not linear in x: f(x + z) ≠ f(x) + f(z) (off by {_max(additivity[row]):.3g})"
                f" at position {positions[row]}."
            )
            error, bound, position = _max(additivity), float(np.max(bound_x + bound_z + bound_sum)), int(positions[row])
        self.add("linearity", ok, detail, dtype=dtype, max_error=error, bound=bound, position=position)

    def call(self, dtype: str, x: np.ndarray, positions: np.ndarray, prop: str) -> np.ndarray | None:
        """A checked call: a raise or bad output becomes a failed finding of `prop` (None returned)."""
        try:
            y, _ = self.session.caller(dtype).call(x, positions, dtype)
        except CallFailed as error:
            where = f"positions {int(positions.min())}…{int(positions.max())}"
            self.add(prop, False, f"The target raised {error.reason} (x of shape {x.shape}, {where}).", dtype=dtype)
            return None
        return y

    def relative(self, ideal: _Ideal, dtype: str) -> None:
        """Scores depend on n − m only: ⟨f(q, m), f(k, n)⟩ = ⟨f(q, m + s), f(k, n + s)⟩ (ROPE-RELATIVE-MATRIX)."""
        last = self.n - 1
        starts = sorted({p for p in (0, 1, 5, 100, 1000, 3000, last // 2) if p < self.n})
        shifts = sorted({s for s in (1, 13, 1024, last // 2) if 0 < s})
        pairs = []
        for m in starts:
            for n in starts:
                for shift in shifts:
                    if max(m, n) + shift <= last:
                        pairs.append((m, n, shift))
        if not pairs:
            self.add("relative", True, "Too few positions to compare shifted scores.", dtype=dtype)
            return
        positions = np.array(sorted({p for m, n, s in pairs for p in (m, n, m + s, n + s)}), dtype=np.int64)
        index = {int(p): i for i, p in enumerate(positions)}
        q = _round(self.rng.normal(size=self.d), dtype)
        k = _round(self.rng.normal(size=self.d), dtype)
        probes = np.stack([np.broadcast_to(q, (positions.size, self.d)), np.broadcast_to(k, (positions.size, self.d))])
        y = self.call(dtype, probes, positions, "relative")
        if y is None:
            return
        _, bound_q = ideal.expected(probes[0], positions, dtype)
        _, bound_k = ideal.expected(probes[1], positions, dtype)
        error_q, error_k = np.linalg.norm(bound_q, axis=-1), np.linalg.norm(bound_k, axis=-1)
        scores = y[0] @ y[1].T
        g = ideal.attention_factor
        q_norm, k_norm = float(np.linalg.norm(q)), float(np.linalg.norm(k))
        first = np.array([(index[m], index[n]) for m, n, _ in pairs])
        second = np.array([(index[m + s], index[n + s]) for m, n, s in pairs])
        gap = np.abs(scores[first[:, 0], first[:, 1]] - scores[second[:, 0], second[:, 1]])
        bound = policy.score_bound(q_norm, k_norm, error_q[first[:, 0]], error_k[first[:, 1]], self.d, g)
        bound = bound + policy.score_bound(q_norm, k_norm, error_q[second[:, 0]], error_k[second[:, 1]], self.d, g)
        ratio = _ratio(gap, bound)
        worst = int(np.argmax(ratio))
        ok = bool(ratio[worst] <= 1)
        m, n, shift = pairs[worst]
        if ok:
            detail = (
                f"⟨f(q, m), f(k, n)⟩ depends on n − m only: {len(pairs)} score pairs (shifts up to {max(shifts)})"
                " agree within the bound."
            )
        else:
            detail = (
                f"Scores are not shift-invariant: ⟨f(q, {m}), f(k, {n})⟩ ="
                f" {scores[first[worst, 0], first[worst, 1]]:.6g}"
                f" but ⟨f(q, {m + shift}), f(k, {n + shift})⟩ = {scores[second[worst, 0], second[worst, 1]]:.6g}"
                f" (bound {bound[worst]:.3g}); R(m)ᵀR(n) = R(n − m) does not hold, so cached keys cannot be reused."
            )
        self.add(
            "relative", ok, detail, dtype=dtype, max_error=gap[worst], bound=bound[worst], position=max(m, n) + shift
        )

    def positions(self, ideal: _Ideal, dtype: str) -> None:
        """Shuffled, offset, repeated and non-contiguous positions give the rows of the plain call 0…max."""
        n = self.n
        length = min(64, n)
        rng = np.random.default_rng(_SEED + 1)
        variants = {
            "shuffled": rng.permutation(length),
            "offset": np.arange(length) + min(1000, n - length),
            "repeated": np.repeat(np.arange(0, length, 4), 4)[:length][::-1].copy(),
            "non-contiguous": np.arange(length) * max(1, min(7, (n - 1) // max(length - 1, 1))) + 3,
        }
        variants = {name: np.clip(p, 0, n - 1) for name, p in variants.items()}
        probes, _ = sweep_probes(self.d, _structure_of(ideal))
        failures = []
        worst_error, worst_bound = 0.0, 0.0
        for name, variant in variants.items():
            canonical = np.arange(int(variant.max()) + 1)
            x_variant = _round(np.broadcast_to(probes[:2, np.newaxis, :], (2, variant.size, self.d)), dtype)
            x_canonical = _round(np.broadcast_to(probes[:2, np.newaxis, :], (2, canonical.size, self.d)), dtype)
            y_variant = self.call(dtype, np.ascontiguousarray(x_variant), variant, "positions")
            y_canonical = self.call(dtype, np.ascontiguousarray(x_canonical), canonical, "positions")
            if y_variant is None or y_canonical is None:
                return
            _, bound = ideal.expected(x_variant, variant, dtype)
            gap = np.abs(y_variant - y_canonical[:, variant])
            ratio = _ratio(gap, 2 * bound)
            if ratio.max() > 1:
                row = int(np.unravel_index(int(np.argmax(ratio)), ratio.shape)[1])
                failures.append(
                    f"{name} positions: row {row} (position {int(variant[row])}) differs from the plain call's row"
                    f" for that position by {_max(gap[:, row]):.3g}"
                )
            worst_error = max(worst_error, _max(gap))
            worst_bound = max(worst_bound, float(np.max(2 * bound)))
        ok = not failures
        detail = (
            "Shuffled, offset, repeated and non-contiguous positions are honoured."
            if ok
            else "The positions argument is not honoured: " + "; ".join(failures) + "."
        )
        self.add("positions", ok, detail, dtype=dtype, max_error=worst_error, bound=worst_bound)

    # -- the sweep: precision, norm, certified ----------------------------------------------------------------
    def sweep(self, ideal: _Ideal, dtypes: list[str]) -> None:
        n, d = self.n, self.d
        probes, _ = sweep_probes(d, _structure_of(ideal))
        chunk = max(64, _SWEEP_ELEMENTS // (3 * d))
        a, b = ideal.pairs[:, 0], ideal.pairs[:, 1]
        g = ideal.attention_factor
        a, b = _as_index(a), _as_index(b)
        state = {
            dtype: {
                "x": np.ascontiguousarray(
                    np.broadcast_to(probes.astype(numpy_dtype(dtype))[:, np.newaxis, :], (3, chunk, d))
                ),
                "weights": _sweep_weights(_round(probes, dtype), ideal),
                "random": (_round(probes, dtype)[2][a][np.newaxis, :], _round(probes, dtype)[2][b][np.newaxis, :]),
                "kept": _round(probes, dtype)[:, ideal.passthrough],
                "kept_bound": np.maximum(
                    policy.passthrough_bound(_round(probes, dtype)[:, ideal.passthrough], dtype),
                    tolerances.underflow_error(dtype),
                ),
                "angle": np.zeros(n, dtype=np.float32),
                "matrix_error": np.zeros(n, dtype=np.float64),
                "worst": (0.0, 0.0, 0.0, 0),
                "first": None,
                "norm_worst": (0.0, 0.0, 0.0, 0),
                "norm_first": None,
                "raised": None,
            }
            for dtype in dtypes
        }
        self.sweep_state = state
        with _Progress(self.options.progress).running(n * len(dtypes)) as progress:
            for start in range(0, n, chunk):
                positions = np.arange(start, min(start + chunk, n))
                frequencies = ideal.inverse_frequencies(positions)
                cosine, sine = reference_cos_sin(positions, frequencies)
                gc, gs = g * cosine, g * sine
                for dtype in dtypes:
                    s = state[dtype]
                    if s["raised"] is not None:
                        continue
                    x = s["x"][:, : positions.size]
                    try:
                        y, _ = self.session.caller(dtype).call(x, positions, dtype)
                    except CallFailed as error:
                        s["raised"] = (int(positions[0]), error.reason)
                        continue
                    ca, sa, cb = y[0][:, a], y[0][:, b], y[1][:, b]
                    sb = -y[1][:, a]
                    da, db, dc, dd = ca - gc, sa - gs, sb - gs, cb - gc
                    bounds = policy.output_bound(
                        s["weights"],
                        positions,
                        frequencies.hi,
                        dtype,
                        theta_units=ideal.theta_units,
                        attention_factor=g,
                    )
                    beta, beta_random = bounds[0], bounds[1]
                    ra, rb = s["random"]
                    random_error = np.maximum(
                        np.abs(y[2][:, a] - (ra * gc - rb * gs)), np.abs(y[2][:, b] - (ra * gs + rb * gc))
                    )
                    basis_error = np.maximum(np.maximum(np.abs(da), np.abs(db)), np.maximum(np.abs(dc), np.abs(dd)))
                    ratio = np.nan_to_num(np.maximum(basis_error / beta, random_error / beta_random), nan=np.inf)
                    per_position = ratio.max(axis=1)
                    candidates = [(basis_error, beta), (random_error, beta_random)]
                    if ideal.passthrough.size:
                        kept_error = np.abs(y[:, :, ideal.passthrough] - s["kept"][:, np.newaxis, :]).max(axis=0)
                        kept_bound = np.broadcast_to(s["kept_bound"].min(axis=0), kept_error.shape)
                        kept_ratio = _ratio(kept_error, kept_bound)
                        per_position = np.maximum(per_position, kept_ratio.max(axis=1))
                        candidates.append((kept_error, kept_bound))
                    worst_index = int(np.argmax(per_position))
                    if per_position[worst_index] > s["worst"][0]:
                        s["worst"] = _worst_case(
                            per_position[worst_index],
                            int(positions[worst_index]),
                            [(errors[worst_index], bounds_[worst_index]) for errors, bounds_ in candidates],
                        )
                    if s["first"] is None and per_position.max() > 1:
                        s["first"] = int(positions[int(np.argmax(per_position > 1))])
                    # The 2×2 block of every pair from probes A and B: columns (cA, sA) and (−sB, cB).
                    block_error = np.sqrt(da * da + db * db + dc * dc + dd * dd)
                    if ideal.passthrough.size:
                        passthrough_error = np.abs(y[0][:, ideal.passthrough] - 1).max(axis=1)
                    else:
                        passthrough_error = np.zeros(positions.size)
                    s["matrix_error"][positions] = np.maximum(block_error.max(axis=1), passthrough_error)
                    with np.errstate(invalid="ignore"):
                        angle = np.abs(np.arctan2(sa * gc - ca * gs, ca * gc + sa * gs))
                    s["angle"][positions] = np.nan_to_num(angle.max(axis=1), nan=np.pi)
                    orthogonality = np.maximum(
                        np.maximum(np.abs(ca * ca + sa * sa - g * g), np.abs(sb * sb + cb * cb - g * g)),
                        np.abs(-ca * sb + sa * cb),
                    )
                    norm_bound = policy.orthogonality_bound(beta, g)
                    norm_ratio = _ratio(orthogonality, norm_bound).max(axis=1)
                    k = int(np.argmax(norm_ratio))
                    if norm_ratio[k] > s["norm_worst"][0]:
                        column = int(np.argmax(_ratio(orthogonality[k], norm_bound[k])))
                        s["norm_worst"] = (
                            float(norm_ratio[k]),
                            float(orthogonality[k, column]),
                            float(norm_bound[k, column]),
                            int(positions[k]),
                        )
                    if s["norm_first"] is None and norm_ratio.max() > 1:
                        s["norm_first"] = int(positions[int(np.argmax(norm_ratio > 1))])
                    progress.advance(positions.size, f"{dtype} positions {start}…{int(positions[-1])}")
        for dtype in dtypes:
            self.sweep_findings(ideal, dtype, state[dtype])

    def sweep_findings(self, ideal: _Ideal, dtype: str, s: dict[str, Any]) -> None:
        n = self.n
        angle_dtype = policy.accepted_angle_dtype(dtype)
        ratio, error, bound, where = s["worst"]
        if s["raised"] is not None:
            position, reason = s["raised"]
            self.add("precision", False, f"The target raised {reason} for positions from {position}.", dtype=dtype)
            self.add("norm", False, f"Not evaluated beyond position {position}: the target raised.", dtype=dtype)
            s["matrix_error"][position:] = np.inf
        elif ratio <= 1:
            self.add(
                "precision",
                True,
                f"Every output within the policy bound at all positions 0…{n - 1} (angles formed in {angle_dtype} or"
                f" better; worst error/bound {ratio:.3g} at position {where}"
                + ("; the bound is loose here)." if ratio < 1e-3 else ")."),
                dtype=dtype,
                max_error=error,
                bound=bound,
                position=where,
            )
        else:
            first = s["first"]
            detail = (
                f"Outputs leave the policy bound from position {first} on (worst: off by {error:.3g} against"
                f" {bound:.3g} at position {where}); the policy accepts angles formed in {angle_dtype} for {dtype}"
                " outputs"
            )
            if first is not None and first > 0:
                hint = _precision_hint(first)
                detail += f"; {hint}" if hint else ""
            self.add("precision", False, detail + ".", dtype=dtype, max_error=error, bound=bound, position=first)
        if s["raised"] is None:
            norm_ratio, norm_error, norm_bound, norm_where = s["norm_worst"]
            g = ideal.attention_factor
            if norm_ratio <= 1:
                target = "orthogonal" if g == 1 else f"orthogonal up to the attention factor {g:.6g}"
                detail = f"M(m) is {target} at every position (‖M(m)x‖ = {'g·' if g != 1 else ''}‖x‖)."
                position = norm_where
            else:
                position = s["norm_first"]
                detail = (
                    f"M(m) is not orthogonal from position {position} on: column norms or their dot product off by"
                    f" {norm_error:.3g} (bound {norm_bound:.3g}); norms are not preserved."
                )
            self.add(
                "norm", norm_ratio <= 1, detail, dtype=dtype, max_error=norm_error, bound=norm_bound, position=position
            )
        certified = policy.certified_position(
            s["matrix_error"], self.d, dtype, self.options.budget, ideal.attention_factor
        )
        predicted = tolerances.largest_position_within(
            self.options.budget,
            ideal.inverse_frequencies(np.array([0])).hi,
            angle_dtype,
            dtype=dtype,
            accumulation_dtype=policy.accumulation_dtype(dtype),
        )
        self.certified[dtype] = {
            "largest_position": certified,
            "all_audited": certified == n - 1,
            "budget": self.options.budget,
            "predicted_for_policy_implementation": predicted,
            "max_matrix_error": float(np.max(s["matrix_error"])) if n else 0.0,
        }
        self.angle_error[dtype] = s["angle"]
        info = self.dtype_info[dtype]
        info.update(max_error=error, bound=bound, ratio=ratio, angle_dtype_accepted=angle_dtype)

    # -- state --------------------------------------------------------------------------------------------
    def state(self, ideal: _Ideal, dtypes: list[str], primary: str) -> None:
        """Results must not depend on earlier calls or on other instances (ROPE-KV-CACHE-REUSE).

        Two checks: (1) the contract's first input, called again after every other call of the audit, gives the
        same output (two outputs of the target compared with each other, so a library's own precision is not
        charged here); (2) where instances can be built (built-ins, factory classes), a second configuration —
        another base, another scaling (built-ins with a scaling), another head size — is built and called in the
        same process in both orders (first, then second, then first again; and second, then a fresh first), and
        every output is checked against its own configuration's reference.

        Check (2) is judged in the highest-precision dtype whose precision property passed, under the same policy
        bound; when precision failed in every dtype, a deviation counts only beyond four times the one the audited
        configuration itself shows on the same probes, so float32-formed angles are reported once, under
        spectrum and precision, and not again as state.
        """
        problems: list[str] = []
        for dtype in dtypes:
            x, positions, y = self.contract_outputs[dtype]
            try:
                again, _ = self.session.caller(dtype).call(x, positions, dtype)
            except CallFailed as error:
                problems.append(f"{dtype}: the first call's input now raises {error.reason}")
                continue
            _, bound = self.loose_bound(x, positions, dtype)
            gap = np.abs(again - y)
            if np.any(_ratio(gap, bound) > 1) or (np.isnan(y) != np.isnan(again)).any():
                problems.append(
                    f"{dtype}: the first call's input (positions 0…{int(positions[-1])}) gives a different output"
                    f" after the audit's other calls (by {_max(gap):.3g}): an earlier call left state behind"
                )
        detail_other = "the target is a plain function: other instances were not tested"
        if self.session.can_rebuild:
            detail_other = self.other_configurations(ideal, dtypes, primary, problems)
        ok = not problems
        detail = (
            f"Results do not depend on earlier calls; {detail_other}."
            if ok
            else "Results depend on state: " + "; ".join(problems) + "."
        )
        self.add("state", ok, detail)

    def state_dtype(self, dtypes: list[str], primary: str) -> tuple[str, bool]:
        """(dtype the configurations are compared in, whether its precision property passed)."""
        passed = {f.dtype for f in self.findings if f.property == "precision" and f.ok}
        for dtype in _PRECISION_ORDER:
            if dtype in dtypes and dtype in passed:
                return dtype, True
        return primary, False

    def configurations(self, ideal: _Ideal) -> list[tuple[str, float | None, Scaling | None, int, _Ideal]]:
        """The second configurations: (label, base to build with, scaling, head size, its reference)."""
        options = self.options
        other_base = 500000.0 if ideal.base < 100000 else 10000.0
        out = [
            (
                f"base {other_base:g}",
                other_base,
                options.scaling,
                self.d,
                dataclasses.replace(
                    ideal, base=other_base, theta_units=policy.frequency_error_units(other_base, _factor(ideal))
                ),
            )
        ]
        if self.session.can_rescale and options.scaling is not None:
            scaling = dataclasses.replace(options.scaling, factor=2 * options.scaling.factor, short=None, long=None)
            units = policy.frequency_error_units(ideal.base, scaling.factor)
            other = dataclasses.replace(ideal, scaling=scaling, theta_units=units)
            out.append((f"scaling {scaling.spec()}", options.base, scaling, self.d, other))
        layout = _layout_of(ideal)
        if self.session.can_resize and ideal.passthrough.size == 0 and layout and self.d >= 16:
            half = self.d // 2 + (self.d // 2) % 2
            pairs = (_half_pairs if layout == "half" else _interleaved_pairs)(half)
            other = dataclasses.replace(ideal, d=half, pairs=pairs, passthrough=np.arange(half, half))
            out.append((f"head size {half}", options.base, options.scaling, half, other))
        return out

    def other_configurations(self, ideal: _Ideal, dtypes: list[str], primary: str, problems: list[str]) -> str:
        """Build the audited configuration A and each second configuration B in both orders; check each output
        against its own reference (see `state`). Returns the passing summary."""
        dtype, precise = self.state_dtype(dtypes, primary)
        positions = np.arange(min(_SMALL_POSITIONS, self.n))
        labels = []
        for label, base, scaling, head_dim, reference in self.configurations(ideal):
            labels.append(label)
            try:
                first = self.session.rebuilt(dtype, self.options.base, self.options.scaling, self.d)
                second = self.session.rebuilt(dtype, base, scaling, head_dim)
                second_fresh = self.session.rebuilt(dtype, base, scaling, head_dim)
            except AuditError as error:
                problems.append(f"an instance with {label} cannot be built: {error}")
                continue
            except Exception as error:
                problems.append(f"an instance with {label} cannot be built: {_one_line(error)}")
                continue
            x_a = self.state_probes(ideal, positions, dtype)
            x_b = self.state_probes(reference, positions, dtype)
            try:
                # Order 1: A, then B, then A again.
                y_a = first.call(x_a, positions, dtype)[0]
                y_b = second.call(x_b, positions, dtype)[0]
                y_a_again = first.call(x_a, positions, dtype)[0]
                # Order 2: B (fresh), then a fresh A.
                y_b_first = second_fresh.call(x_b, positions, dtype)[0]
                first_after = self.session.rebuilt(dtype, self.options.base, self.options.scaling, self.d)
                y_a_after = first_after.call(x_a, positions, dtype)[0]
            except CallFailed as error:
                problems.append(f"an instance with {label} raised {error.reason}")
                continue
            expected_a, bound_a = ideal.expected(x_a, positions, dtype)
            expected_b, bound_b = reference.expected(x_b, positions, dtype)
            own = float(_ratio(np.abs(y_a - expected_a), bound_a).max())
            allowed = 1.0 if precise else max(1.0, 4 * own)
            for y, order in ((y_b, "built and called after the audited one"), (y_b_first, "built first")):
                ratio = _ratio(np.abs(y - expected_b), bound_b)
                if ratio.max() > allowed:
                    gap = _max(np.abs(y - expected_b))
                    text = f"an instance with {label} ({order}) does not rotate by its own θ (off by {gap:.3g})"
                    if label.startswith(("base", "scaling")):
                        as_first = _ratio(np.abs(y - ideal.expected(x_b, positions, dtype)[0]), bound_b)
                        if as_first.max() <= allowed:
                            text += ": it returns the audited configuration's rotation — a cache shared across"
                            text += " instances, keyed without the " + label.split()[0]
                    problems.append(text)
            _, loose = self.loose_bound(x_a, positions, dtype)
            if np.any(_ratio(np.abs(y_a_again - y_a), loose) > 1):
                problems.append(f"calling an instance with {label} changed an earlier instance's output")
            if _ratio(np.abs(y_a_after - expected_a), bound_a).max() > allowed:
                gap = _max(np.abs(y_a_after - expected_a))
                problems.append(
                    f"an instance of the audited configuration built after one with {label} does not rotate by its"
                    f" own θ (off by {gap:.3g})"
                )
        judged = (
            f"judged in {dtype} under the precision policy"
            if precise
            else f"judged in {dtype} against the audited configuration's own deviation (precision fails in every dtype)"
        )
        return (
            f"instances with {', '.join(labels)} built and called in the same process, in both orders, each rotate"
            f" by their own θ ({judged})"
        )

    def state_probes(self, ideal: _Ideal, positions: np.ndarray, dtype: str) -> np.ndarray:
        """Basis probes (1 on each pair's first, then second coordinate) plus one random vector, per position."""
        probes, _ = sweep_probes(ideal.d, _structure_of(ideal))
        rows = np.broadcast_to(probes[:3, np.newaxis, :], (min(3, len(probes)), positions.size, ideal.d))
        return _round(np.ascontiguousarray(rows), dtype)

    # -- report -------------------------------------------------------------------------------------------
    def report(self, ideal: _Ideal | None, layout: str, direction: str) -> AuditReport:
        order = {name: i for i, name in enumerate(PROPERTIES)}
        findings = sorted(
            self.findings,
            key=lambda f: (
                order[f.property],
                self.options.dtypes.index(f.dtype) if f.dtype in self.options.dtypes else -1,
            ),
        )
        verdict = "pass" if findings and all(f.ok for f in findings) else "fail"
        return AuditReport(
            target=self.session.loaded.name,
            framework=self.session.framework,
            head_dim=self.d,
            rotary_dim=0 if ideal is None else ideal.rotary_dim,
            max_position=self.n,
            verdict=verdict,
            layout=layout,
            direction=direction,
            base=None if ideal is None else ideal.base,
            base_source=self.base_source,
            scaling=None if self.options.scaling is None else self.options.scaling.to_json(),
            dtypes={dtype: self.dtype_info.get(dtype, {"status": "not audited"}) for dtype in self.options.dtypes},
            findings=findings,
            certified=self.certified,
            angle_error=self.angle_error,
        )


def _as_index(index: np.ndarray) -> slice | np.ndarray:
    """An index array as a slice when it is an arithmetic progression (a view instead of a gathered copy)."""
    if index.size > 1:
        step = int(index[1] - index[0])
        if step > 0 and np.array_equal(index, index[0] + step * np.arange(index.size)):
            return slice(int(index[0]), int(index[-1]) + 1, step)
    return index


def _sweep_weights(probes: np.ndarray, ideal: _Ideal) -> np.ndarray:
    """|x₁| + |x₂| per pair: 1 for the basis probes A and B, the random probe's own for R; shape `(2, 1, n)`."""
    a, b = ideal.pairs[:, 0], ideal.pairs[:, 1]
    random = np.abs(probes[2][a]) + np.abs(probes[2][b])
    return np.stack([np.ones_like(random), random])[:, np.newaxis, :]


def _worst_case(ratio: float, position: int, candidates: list[tuple[np.ndarray, np.ndarray]]) -> tuple:
    """(ratio, error, bound, position) of the worst coordinate among (error, bound) rows of one position."""
    best = (-1.0, 0.0, 0.0)
    for errors, bounds in candidates:
        ratios = _ratio(errors, bounds)
        k = int(np.argmax(ratios))
        if ratios[k] > best[0]:
            best = (float(ratios[k]), float(errors[k]), float(bounds[k]))
    return (float(ratio), best[1], best[2], position)


def _factor(ideal: _Ideal) -> float:
    return 1.0 if ideal.scaling is None else ideal.scaling.factor


def _layout_of(ideal: _Ideal) -> str | None:
    """The layout name ("half" or "interleaved") when the pairs are exactly that layout, else None."""
    rotary = ideal.rotary_dim
    for name, pairs in (("half", _half_pairs(rotary)), ("interleaved", _interleaved_pairs(rotary))):
        if np.array_equal(ideal.pairs, pairs):
            return name
    return None


def _structure_of(ideal: _Ideal) -> Structure:
    return Structure(ideal.pairs, ideal.passthrough, "", ideal.rotary_dim, "", [], 0.0)


def _framework_copy(x: Any) -> np.ndarray:
    """A float64 NumPy snapshot of a framework array (to see whether the target modified it)."""
    if type(x).__module__.startswith("torch"):
        return x.detach().cpu().float().numpy().astype(np.float64).copy()
    return np.array(x, dtype=np.float64, copy=True)


def _max(values: np.ndarray) -> float:
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return 0.0
    return float(np.inf) if np.isnan(values).any() else float(values.max())


def _sample_positions(n: int, start: int) -> np.ndarray:
    """Positions beyond the small block for the structure probe: powers of two, their neighbours, the largest."""
    candidates = {n - 1, n // 2, 2049, 65504}
    for exponent in range(6, 32):
        for delta in (-1, 0, 1):
            candidates.add(2**exponent + delta)
    return np.array(sorted(p for p in candidates if start <= p < n), dtype=np.int64)


def _fit_base(estimated: np.ndarray, ideal: _Ideal) -> float:
    """The base whose (scaled) spectrum best fits the measured θ̂ᵢ (least squares on ln θ; golden section on
    ln base when a scaling is declared)."""
    r = ideal.rotary_dim
    index = np.arange(len(estimated))
    usable = (estimated > 0) & (index > 0)
    if not usable.any():
        return 10000.0
    exponents = 2 * index[usable] / r
    logs = np.log(estimated[usable])
    if ideal.scaling is None:
        value = float(-(exponents * logs).sum() / (exponents**2).sum())
        return float(math.exp(min(max(value, math.log(1.0001)), 700)))

    def loss(log_base: float) -> float:
        thetas = np.array(
            [float(t) for t in scaled_inverse_frequencies_mp(r, math.exp(log_base), ideal.scaling, 1)], dtype=float
        )
        return float(((np.log(thetas[usable]) - logs) ** 2).sum())

    grid = np.linspace(math.log(2.0), math.log(1e9), 60)
    values = [loss(v) for v in grid]
    best = int(np.argmin(values))
    low, high = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        left, right = high - ratio * (high - low), low + ratio * (high - low)
        if loss(left) < loss(right):
            high = right
        else:
            low = left
    return float(math.exp((low + high) / 2))


def _precision_hint(first: int) -> str:
    for dtype, limit in (("bfloat16", 256), ("float16", 2048)):
        if limit < first <= limit + 1:
            return f"position {first} is the first one {dtype} cannot hold exactly (positions or angles in {dtype}?)"
    if first == 65505:
        return "position 65505 is beyond float16's largest value (positions in float16?)"
    return ""


def _layout_name(layout: str) -> str:
    return {
        "interleaved": "interleaved pairs (2i, 2i+1)",
        "half": "half-split pairs (i, i + d/2)",
        "other": "a pairing that is neither interleaved nor half-split",
        "none": "no pairs",
    }.get(layout, layout)
