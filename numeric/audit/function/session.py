"""The target behind one audit: building instances (built-ins per dtype, factory classes), finding the framework
and head size, one `Caller` per dtype, and a progress bar.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from ropecheck.numeric.audit.function.calls import AuditError, BadOutput, Caller, CallFailed, Worker, one_line
from ropecheck.numeric.audit.function.options import Options
from ropecheck.numeric.audit.function.scaling import Scaling
from ropecheck.numeric.audit.function.table_length import find_table_length
from ropecheck.numeric.audit.function.targets import LoadedTarget, framework_hints

__all__ = ["HEAD_DIMS", "SEED", "Progress", "Session"]

HEAD_DIMS = (128, 64, 32, 256, 96, 80, 16, 8, 160, 192, 512)
SEED = 20240611


class Session:
    """The target behind one audit: one `Caller` per dtype (built-in adapters are built per dtype), and, for
    factories (classes), fresh instances with another base."""

    def __init__(self, loaded: LoadedTarget, options: Options, worker: Worker) -> None:
        self.loaded = loaded
        self.options = options
        self.worker = worker
        self.framework = ""
        self.head_dim = 0
        self._callers: dict[str, Caller] = {}
        self._shared: Caller | None = None
        #: N when the target holds a fixed-length table of N positions (set by the runner), else None.
        self.table_positions: int | None = None
        #: The positions asked for when a shorter table was found (`--max-position`), else None.
        self.requested_positions: int | None = None
        self.returns_bad_output = False
        self.extra_callers: list[Caller] = []
        #: P⁻¹ as an index (outputs read as y[..., order]) once a fixed output permutation is declared or found.
        self.output_order: np.ndarray | None = None

    # -- building
    def _instance(
        self, head_dim: int, dtype: str, base: float | None, scaling: Scaling | None = None
    ) -> Callable[[Any, Any], Any]:
        """A fresh callable: built-ins are built (per dtype, with `module_cast` where asked), factories are
        instantiated; a plain function is returned as is. `scaling` applies to built-ins only."""
        obj, options = self.loaded.obj, self.options
        if self.loaded.adapter is not None:
            from ropecheck.numeric.audit.adapters import AdapterConfig

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
                raise AuditError(f"cannot build built-in target {self.loaded.name!r}: {one_line(error)}") from None
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
        head_dims = [options.head_dim] if options.head_dim else list(HEAD_DIMS)
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
                        first_error = first_error or f"constructing the target raised {one_line(error)}"
                        continue
                    caller = Caller(fn, framework, options.timeout, self.worker)
                    if caller.supports(dtype):
                        continue
                    x = np.random.default_rng(SEED).uniform(-1, 1, size=(1, 4, head_dim))
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
            self.returns_bad_output = True
            if self.loaded.adapter is None:
                self._shared = caller
            return
        tried = f"head_dim {head_dims[0]}" if len(head_dims) == 1 else "head_dim " + "/".join(map(str, head_dims))
        raise AuditError(
            f"cannot call the target with x of shape (1, 4, d), {tried}, {', '.join(frameworks)} inputs:"
            f" {first_error or 'no framework accepted it'}"
        )

    def table_length(self, max_position: int, dtype: str) -> int | None:
        """N when the target raises for positions ≥ N < `max_position` (a fixed-length cos/sin table), else None.

        Found by bisection on single-position calls that raise: position 0 is accepted (`detect` called it). The
        probes run on a fresh instance where one can be built, so a target that keeps state from a long call
        (the state property checks that) starts the audit as a user's would.
        """
        if self.can_rebuild:
            caller = self.rebuilt(dtype, self.options.base, self.options.scaling, self.head_dim)
        else:
            caller = self.caller(dtype)
        x = np.zeros((1, 1, self.head_dim))
        x[..., 0] = 1.0

        def accepts(position: int) -> bool:
            try:
                caller.call(x, np.array([position]), dtype)
            except CallFailed:
                return False
            return True

        return find_table_length(accepts, max_position)

    def caller(self, dtype: str) -> Caller:
        """The caller for one dtype."""
        if self._shared is not None:
            return self._shared
        if dtype not in self._callers:
            fn = self._instance(self.head_dim, dtype, self.options.base, self.options.scaling)
            self._callers[dtype] = Caller(fn, self.framework, self.options.timeout, self.worker)
            self._callers[dtype].output_order = self.output_order
        return self._callers[dtype]

    def read_outputs_in(self, order: np.ndarray) -> None:
        """From now on every caller returns y[..., order] (P⁻¹·y for a fixed output permutation P)."""
        self.output_order = order
        for caller in [*self._callers.values(), *self.extra_callers, *([self._shared] if self._shared else [])]:
            caller.output_order = order

    def rebuilt(self, dtype: str, base: float | None, scaling: Scaling | None, head_dim: int) -> Caller:
        """A fresh instance of another (or the same) configuration, for the state property."""
        fn = self._instance(head_dim, dtype, base, scaling)
        caller = Caller(fn, self.framework, self.options.timeout, self.worker)
        caller.output_order = self.output_order
        self.extra_callers.append(caller)
        return caller

    @property
    def shares_instance(self) -> bool:
        """Whether one instance serves every dtype (plain functions and factories; built-ins are built per dtype)."""
        return self.loaded.adapter is None

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
    from ropecheck.numeric.audit.adapters import to_numpy

    def call(x: Any, positions: Any) -> Any:
        return to_numpy(fn(x, positions))

    return call


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


class Progress:
    """rich progress on a terminal's stderr; nothing otherwise."""

    def __init__(self, enabled: bool) -> None:
        self._enabled = enabled
        self._progress: Any = None
        self._task: Any = None

    @contextlib.contextmanager
    def running(self, total: int) -> Iterator[Progress]:
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
