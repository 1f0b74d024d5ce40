"""`audit()`: load the target, validate the options, run the kind's properties, and assemble the `AuditReport`.

```python
from ropecheck.numeric.audit import audit

report = audit(my_rope, base=10000, layout="half", max_position=32768)
report.verdict            # "pass" or "fail"
report.to_json()          # the same object `ropecheck audit --json` prints
[f.detail for f in report.failures()]
```

The audited callable is `fn(x, positions) -> y` with x of shape `(..., L, d)`, integer positions of shape
`(L,)` and y of x's shape (NumPy, PyTorch or JAX). The kind (`ropecheck.numeric.audit.kinds`) says what is probed; the
properties (`numeric.audit.properties`) check it under the tolerance policy of `numeric.audit.function.policy`.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from ropecheck.numeric.audit.function import policy
from ropecheck.numeric.audit.function.attribution import attribute_root_causes
from ropecheck.numeric.audit.function.builtin_defaults import builtin_defaults
from ropecheck.numeric.audit.function.calls import AuditError, CallFailed, Worker
from ropecheck.numeric.audit.function.context import AuditContext
from ropecheck.numeric.audit.function.options import OPTION_KEYWORDS, Options, validate
from ropecheck.numeric.audit.function.results import AuditReport
from ropecheck.numeric.audit.function.scaling import Scaling, parse_scaling
from ropecheck.numeric.audit.function.session import Session
from ropecheck.numeric.audit.function.table_length import short_table_message
from ropecheck.numeric.audit.function.targets import LoadedTarget, load_target
from ropecheck.numeric.audit.function.wording import api_errors
from ropecheck.numeric.audit.kinds import ENCODING_KINDS, KINDS, get_kind

__all__ = ["audit"]


@api_errors
def audit(
    fn: Any,
    *,
    base: float | None = None,
    layout: str | None = None,
    scaling: str | Scaling | None = None,
    rotary_dim: int | None = None,
    max_position: int = 32768,
    dtypes: Sequence[str] | str | None = None,
    framework: str = "auto",
    head_dim: int | None = None,
    timeout: float = 30.0,
    budget: float = policy.DEFAULT_SCORE_BUDGET,
    progress: bool = False,
    name: str | None = None,
    module_cast: bool = False,
    kind: str = "rope",
    direction: str = "counter-clockwise",
    partial: str | None = None,
    strict: bool = False,
    frequencies: str | None = None,
    pair_order: str | None = None,
    offset: int = 0,
    scheme: str | None = None,
    clip: int | None = None,
    accept_short_table: bool = False,
    output_layout: str | None = None,
) -> AuditReport:
    """Audit a RoPE implementation: every property of `PROPERTIES`, in every dtype, at every position.

    **Arguments:**

    - `fn`: `fn(x, positions) -> y`; or a class whose instances are such callables (built with
      `head_dim`/`dim`, `base`/`theta` and `rotary_dim` where its signature has them — the state property then
      also checks that instances do not share results); or a TARGET string (`package.module:attr`,
      `path/to/file.py:attr`, a built-in adapter name).
    - `base`: the expected θ base; None infers it from the spectrum (reported as `base_source="inferred"`).
    - `layout`: the expected pairing, `"interleaved"` or `"half"`; None detects and reports it.
    - `scaling`: a scaling spec (`"linear:4"`, `"yarn:8,orig=4096"`, … see `ropecheck.numeric.audit.function.scaling`)
      or None.
    - `rotary_dim`: the expected rotary dimension (partial rotary); None: detected.
    - `max_position`: the context length audited: every position 0…max_position−1; at least 2 (up to 2³¹), and at
      least 64 for `kind="sinusoidal"`, 260 for `kind="scores"`, 640 for `kind="bias"`.
    - `dtypes`: dtypes to audit (subset of float64, float32, float16, bfloat16), or a comma-separated string;
      None: the dtypes models run in (`DEFAULT_DTYPES`: float32, bfloat16, float16), or float64 alone when the
      target is float64-native (returns float64 for float32 input).
    - `framework`: `"auto"` (detect), `"numpy"`, `"torch"` or `"jax"`.
    - `head_dim`: d; None tries common head sizes (128 first).
    - `timeout`: seconds one call may take before the target counts as hung.
    - `budget`: the relative score-error budget of the certified context length.
    - `progress`: show a rich progress bar on stderr.
    - `name`: the target's name in the report (default: the TARGET string or the callable's qualified name).
    - `module_cast`: built-in targets only: build each library module in float32, then cast the whole module to
      the audited dtype the way users cast models (`.to(dtype)` in torch, a dtype policy in Keras), one fresh
      module per dtype; without it the module stays float32 and only x has the audited dtype.
    - `direction`: the declared direction, `"counter-clockwise"` (RoFormer, default) or `"clockwise"` (a
      convention equivalent up to the sign of W_k: declare it and the audit holds the target to it).
    - `partial`: where a partial rotary's pairs sit: `"first"` (the first r coordinates, half-split or
      interleaved among them, θ from r) or `"p-rope"` (pairs (i, i + d/2) for i < r/2, θᵢ = base^(−2i/d));
      None detects either.
    - `strict`: an undeclared base is a failure (the pytest plugin's default), not only a loud note.
    - `kind`: what the target is (`ropecheck.numeric.audit.kinds.ALL_KINDS`; default `"rope"`). `"sinusoidal"`, `"bias"`
      and `"scores"` are audited by `numeric.audit.kinds.encodings` with the options below (and `base`, `layout`,
      `max_position`, `dtypes`, `framework`, `head_dim`, `timeout`, `budget`, `name`).
    - `frequencies`, `offset`: sinusoidal tables: `"standard"`/`"t2t"` (None: detected), and K (row p = PE(p + K)).
    - `pair_order`: sinusoidal tables: the declared order within each pair, `"sin,cos"` (Vaswani et al.) or
      `"cos,sin"` (diffusion timestep embeddings, diffusers' `flip_sin_to_cos=True`); None: detected, and a
      (cos, sin) table fails `shift` unless declared.
    - `scheme`: biases: `"t5:buckets=32,max_distance=128,bidirectional=true"` or `"alibi"` (None: detected).
    - `clip`: scores: the declared Shaw clipping distance (None: detected).
    - `accept_short_table`: a fixed-length table shorter than `max_position` is audited on its positions and
      accepted; by default it fails `contract` ("the table holds N positions; the model needs M").
    - `output_layout`: a declared fixed output order of the rotation, `"interleaved"` (the half-split pairs
      (i, i + d/2) written to (2i, 2i + 1), keras-hub's Gemma); None: any fixed permutation P with y = P·R(p)·x
      is detected. Either way the properties after `pairing` are judged on P⁻¹·y.

    **Returns:**

    An `AuditReport`.

    **Raises:**

    `AuditError` (one-line message, naming these keywords: `max_position`, `kind='bias'`) for bad options, or a
    target that cannot be loaded, called or that hangs.
    """
    given = dict(locals())  # the keywords as called, read by name below (OPTION_KEYWORDS)
    started = time.perf_counter()
    if kind in ENCODING_KINDS:
        if output_layout is not None:
            raise AuditError(f"--kind {kind} takes no --output-layout (it is a RoPE option)")
        from ropecheck.numeric.audit.kinds.encodings import audit_encoding

        return audit_encoding(
            fn, kind=kind, base=base, layout=layout, frequencies=frequencies, pair_order=pair_order, offset=offset,
            scheme=scheme,
            clip=clip, max_position=max_position, dtypes=dtypes, framework=framework, head_dim=head_dim,
            timeout=timeout, budget=budget, name=name, accept_short_table=accept_short_table,
        )
    stray = [key.replace("_", "-") for key, value in (("frequencies", frequencies), ("pair_order", pair_order),
                                                      ("offset", offset or None), ("scheme", scheme),
                                    ("clip", clip)) if value is not None]
    if stray:
        raise AuditError(f"--kind {kind} takes no {', '.join('--' + key for key in stray)}")
    options = validate(**{key: given[key] for key in OPTION_KEYWORDS})
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
    defaults_note = ""
    if loaded.adapter is not None and (options.base is None or options.scaling is None):
        # A built-in builds with its library's defaults when nothing is declared: audit against the same.
        default_base, default_scaling = builtin_defaults(loaded.adapter)
        used = [f"base {default_base:g}"] if options.base is None else []
        used += [f"scaling {default_scaling}"] if options.scaling is None and default_scaling else []
        defaults_note = (
            f"Built-in target: audited with its library's defaults ({', '.join(used)}), as --list shows and --all"
            " uses; declare --base/--scaling to audit another configuration."
        )
        options = dataclasses.replace(
            options,
            base=default_base if options.base is None else options.base,
            scaling=parse_scaling(default_scaling) if options.scaling is None and default_scaling else options.scaling,
        )
    if options.module_cast and loaded.adapter is None:
        raise AuditError(
            f"--module-cast applies to built-in targets only; {loaded.name!r} is called as given"
            " (cast your own module before passing it)"
        )
    session = Session(loaded, options, Worker())
    session.detect()
    notes: list[str] = [defaults_note] if defaults_note else []
    if session.framework and not session.returns_bad_output and not options.dtypes_explicit:
        native = float64_native(session, options)
        if native:
            options = dataclasses.replace(options, dtypes=("float64",))
            notes.append(native)
    if session.framework and not session.returns_bad_output:
        first_dtype = next((d for d in options.dtypes if not session.caller(d).supports(d)), None)
        length = None if first_dtype is None else session.table_length(options.max_position, first_dtype)
        if length is not None:
            if length < 2:
                raise AuditError("the target accepts only position 0 (it raised for position 1): nothing to audit")
            session.table_positions = length
            session.requested_positions = options.max_position
            options = dataclasses.replace(options, max_position=length)
    report = run_kind(session, options, kind, notes)
    report.seconds = time.perf_counter() - started
    report.target_seconds = session.target_seconds()
    return report


def float64_native(session: Session, options: Options) -> str | None:
    """A note when the target computes in float64 whatever x's dtype (it returns float64 for float32 input): such
    a target is audited in float64 by default, not failed for an output dtype it never claimed."""
    if options.dtypes[0] != "float32" or session.caller("float32").supports("float32"):
        return None
    x = np.zeros((1, 2, session.head_dim))
    x[..., 0] = 1.0
    try:
        _, dtype = session.caller("float32").call(x, np.arange(2), "float32")
    except CallFailed:
        return None
    if dtype != "float64":
        return None
    return (
        "The target returns float64 for float32 input (it computes in float64): audited in float64. Request"
        " --dtypes float32,... to hold it to the dtypes a model runs in."
    )


def run_kind(session: Session, options: Options, kind_name: str, notes: list[str] | None = None) -> AuditReport:
    """Run one kind's properties on a detected session and assemble the report."""
    if kind_name not in KINDS:
        raise AuditError(f"unknown kind {kind_name!r}; choose from {', '.join(KINDS)}")
    kind = get_kind(kind_name)
    ctx = AuditContext(session, options)
    ctx.notes.extend(notes or [])
    header = kind.run(ctx)
    requested = session.requested_positions
    if session.table_positions is not None and requested and not options.accept_short_table:
        detail, fix = short_table_message(session.table_positions, requested)
        if session.table_positions + ctx.position_offset >= requested:
            # The table has the rows; the offset index (identity's root cause) reads past its end.
            ctx.add("contract", True, f"see identity: {detail}", status="explained", explained_by="identity")
        else:
            ctx.add("contract", False, detail, fix=fix)
    order = {name: i for i, name in enumerate(kind.properties)}
    findings = sorted(
        ctx.findings,
        key=lambda f: (
            order.get(f.property, len(order)),
            options.dtypes.index(f.dtype) if f.dtype in options.dtypes else -1,
        ),
    )
    verdict = "pass" if findings and all(f.ok for f in findings) else "fail"
    report = AuditReport(
        target=session.loaded.name,
        framework=session.framework,
        head_dim=ctx.d,
        rotary_dim=header.get("rotary_dim", 0),
        max_position=ctx.n,
        verdict=verdict,
        layout=header.get("layout", "unknown"),
        direction=header.get("direction", "unknown"),
        base=header.get("base"),
        base_source=header.get("base_source", ctx.base_source),
        scaling=None if options.scaling is None else options.scaling.to_json(),
        dtypes={dtype: ctx.dtype_info.get(dtype, {"status": "not audited"}) for dtype in options.dtypes},
        findings=findings,
        certified=ctx.certified,
        angle_error=ctx.angle_error,
        kind=kind.name,
        table_positions=session.table_positions,
        notes=ctx.notes,
        declared_base=options.base,
    )
    attribute_root_causes(report)
    return report
