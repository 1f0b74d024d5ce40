"""transformers imported without the optional packages an audit never reaches (issue #32: `audit-config` and
`audit-attention` ≤ 10 CPU-s per config, where importing torch and transformers was most of it).

transformers imports scipy (for the detection losses, `transformers/loss/loss_for_object_detection.py`) and torchao
(for its quantizers, `transformers/quantizers/quantizer_torchao.py`) whenever they are installed, each behind its own
availability check (`is_scipy_available`, `is_torchao_available` in `transformers/utils/import_utils.py`). Neither
takes part in a rotary embedding, an attention layer or a model built from a config without quantisation; together
they were about 2 of the 11 CPU-s that `import transformers.models.llama.modeling_llama` took (measured, load 8).
While the body of `lean_transformers()` runs, those packages look absent to transformers' own checks — exactly what
a user without them installed runs — unless something imported them earlier (then nothing is hidden). Afterwards
they import as usual; transformers keeps its cached "not available" for the rest of the process.

torch itself, `torch.distributed.tensor` (imported by `transformers/model_debugging_utils.py` when distributed is
available) and `torch._dynamo` (`transformers/masking_utils.py`) are what remains; they are not hidden (torch is
never patched). What they cost is cut by `collection_paused()`: importing them creates a few hundred thousand
objects that live as long as the process, and Python's cyclic garbage collector, left running, scans them again and
again while they are being created (about 0.8 of the 5.9 CPU-s that torch and transformers' Llama modeling code took
to import, load 9-11); paused for the imports (in the commands' own processes only), it runs as usual afterwards.

Claims served: ROPE-FREQUENCIES (the engine observed is transformers' own code).
"""

from __future__ import annotations

import contextlib
import gc
import logging
import sys
import warnings
from collections.abc import Iterator

__all__ = [
    "HIDDEN_PACKAGES",
    "collection_paused",
    "lean_transformers",
    "one_torch_thread",
    "own_this_process",
    "quiet_engines",
]

_PROCESS_IS_OURS = False


def own_this_process() -> None:
    """Called where the process is ropecheck's own — the console script before `audit-config`, `audit-attention` or
    `audit-engines` (`ropecheck.cli.run_console_script`), and the engines' probe processes — so hiding is allowed,
    and so is pausing the garbage collector. Never by the commands themselves: through `ropecheck.cli.main`, the
    Python API or the pytest plugin the process is the user's (a test's), and transformers' cached "not available"
    would outlive the audit there: nothing is hidden and the collector is left alone (the audit only costs more)."""
    global _PROCESS_IS_OURS
    _PROCESS_IS_OURS = True

#: Package → (transformers' availability check, why an audit never needs the package from transformers).
HIDDEN_PACKAGES = {
    "scipy": ("is_scipy_available", "transformers' detection losses (linear_sum_assignment)"),
    "torchao": ("is_torchao_available", "transformers' torchao quantizer (configs without quantization_config "
                "never reach it)"),
}


def _undecided(check: str) -> bool:
    """Whether transformers has not yet cached its availability answer `check` (then hiding is consistent: it will
    answer "not available" for the rest of the process, and never import the package half-way)."""
    utils = sys.modules.get("transformers.utils.import_utils")
    function = getattr(utils, check, None) if utils is not None else None
    return function is None or function.cache_info().currsize == 0


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """Run the body (imports of torch, transformers, a modeling module) with Python's cyclic garbage collector
    paused, when the process is ropecheck's own command (`own_this_process`) and the collector was running; it
    runs again afterwards (and collects whatever the body left, at its next turn). Nothing the body computes changes:
    objects are freed by reference counting as before, only the cycle scans are deferred."""
    pause = _PROCESS_IS_OURS and gc.isenabled()
    if pause:
        gc.disable()
    try:
        yield
    finally:
        if pause:
            gc.enable()


@contextlib.contextmanager
def one_torch_thread() -> Iterator[None]:
    """torch on one intra-op thread while the body runs, the previous count restored after. The audits' tiny models
    gain nothing from a second thread, whose OpenMP workers only spin beside the first: `audit-engines`' three
    references took 9.5 CPU-s on one thread and 34 on two (2 cores, busy machine), with bit-for-bit the same logits
    and sensitivities. Used by `audit-engines`' reference and `audit-attention`; engines' subprocesses choose their
    own threads."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


@contextlib.contextmanager
def lean_transformers() -> Iterator[None]:
    """Run the body (which imports transformers, a modeling module, or builds a model from a config) with the
    packages of `HIDDEN_PACKAGES` absent for `importlib.util.find_spec`, unless they are already imported,
    transformers already decided that they are available, or the process is not ropecheck's own command
    (`own_this_process`)."""
    hidden = [name for name, (check, _) in HIDDEN_PACKAGES.items()
              if _PROCESS_IS_OURS and name not in sys.modules and _undecided(check)]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # find_spec → None; `import name` → ImportError
    try:
        with collection_paused():
            yield
    finally:
        for name in hidden:
            if sys.modules.get(name, "") is None:
                del sys.modules[name]


@contextlib.contextmanager
def quiet_engines() -> Iterator[None]:
    """Engines and torch log validation and load warnings (with the environment's paths, issue 36) while a config
    is loaded or a model built: the findings say what matters. Logging below ERROR and Python warnings are off in
    the body; used by `audit-config`, `audit-attention` and `audit-engines`."""
    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logging.disable(previous)
