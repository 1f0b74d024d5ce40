"""`audit_attention(config)`: build the tiny model and run every attention-level property on it.

Claims served: every claim the properties cite (ROPE-KV-CACHE-REUSE, ROPE-QK-RELATIVE, ROPE-PREFIX-REPHASE,
ROPE-FREQUENCIES, ROPE-PAIR-FORMULA, ATT-CAUSAL-ROW).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Any

from .._lean_import import lean_transformers
from ._applied import check_attention_factor, check_per_layer_spectrum, check_rope_presence, check_softmax_scale
from ._cache import check_kv_cache, check_kv_cache_switch, check_spectrum_reset
from ._layers import check_sliding_window
from ._model import TinyModel, build_tiny_model, load_model_factory
from ._offset import check_position_offset
from ._padding import check_batch_isolation, check_left_padding, check_right_padding
from ._report import AttentionFinding, AttentionReport
from ._switch import check_switch_point

__all__ = ["CHECKS", "audit_attention", "audit_model"]

Check = Callable[[TinyModel], AttentionFinding]


def _mrope_checks() -> list[Check]:
    from ._mrope import check_mrope_section_map, check_mrope_stream_relative, check_mrope_text_reduction

    return [check_mrope_text_reduction, check_mrope_section_map, check_mrope_stream_relative]


# The spectrum is read first, on the model as built; the checks that grow or switch a length-dependent spectrum
# come after the ones that assume its short form, and `spectrum-reset` measures whether it comes back.
CHECKS: list[Check] = [
    check_rope_presence, check_per_layer_spectrum, check_attention_factor, check_softmax_scale, check_switch_point,
    check_sliding_window,
    check_kv_cache, check_left_padding, check_right_padding, check_batch_isolation, check_position_offset,
    check_kv_cache_switch, check_spectrum_reset,
]


def _run_check(check: Check, tiny: TinyModel) -> AttentionFinding:
    """One check; a model that raises while probed (a user's factory model) "could not be called" — never a
    failure of the property."""
    try:
        return check(tiny)
    except Exception as error:  # the model under audit may be the user's code and raise anything
        name = check.__name__.removeprefix("check_").replace("_", "-")
        text = str(error).strip().splitlines()[0] if str(error).strip() else ""
        return AttentionFinding(name, (), "could not be called",
                                f"the model raised {type(error).__name__} while probed: {text[:200]}")


def audit_model(tiny: TinyModel, checks: Sequence[Check] | None = None) -> AttentionReport:
    """Run the checks on an already built (possibly deliberately broken) model.

    **Arguments:**

    - `tiny`: the model.
    - `checks`: the checks to run (all, M-RoPE ones included, when None).

    **Returns:**

    The `AttentionReport`.
    """
    start = time.perf_counter()
    tiny.layer_views = None  # observe the model as it is now (a test may have patched it since)
    selected = list(checks) if checks is not None else [*CHECKS, *_mrope_checks()]
    findings = [_run_check(check, tiny) for check in selected]
    model_type = str(getattr(tiny.config, "model_type", "?"))
    return AttentionReport(tiny.name, model_type, list(tiny.notes), findings, time.perf_counter() - start)


def audit_attention(source: str | dict[str, Any], seed: int = 0,
                    model: str | Callable[[Any], Any] | None = None) -> AttentionReport:
    """Build the tiny model of a config and audit it.

    **Arguments:**

    - `source`: a built-in name, a `config.json` path, or a config dict.
    - `seed`: the random initialisation's seed.
    - `model`: your own model instead of transformers' class for the config: a factory `factory(config) -> torch
      module` (called with the shrunk transformers config; e.g. a patched copy of the library class), or its
      `MODULE:FACTORY` name (`package.module:function`, `path/to/file.py:function`).

    **Returns:**

    The `AttentionReport` (its `seconds` include the build). Raises `ConfigError` (one line) for a config that
    cannot be built and `ModelFactoryError` for a factory that cannot be loaded or fails.
    """
    start = time.perf_counter()
    factory = load_model_factory(model) if isinstance(model, str) else model
    # transformers without the optional packages it never needs here (issue #32's cost); a user's own model may
    # need any package, so with a factory nothing is hidden
    with lean_transformers() if factory is None else contextlib.nullcontext():
        tiny = build_tiny_model(source, seed=seed, factory=factory)
        if factory is not None:
            tiny.notes.append(f"model built by {getattr(factory, '__qualname__', repr(factory))} (the user's factory)")
        report = audit_model(tiny)
        generator = str(tiny.model.config.model_type)
        from ._mrope_index import GENERATORS, audit_position_ids

        if generator in GENERATORS:  # the 3-D position-id generator of a vision-language model
            report.findings.extend(audit_position_ids(generator, tiny.model.config))
    report.seconds = time.perf_counter() - start
    return report
