"""One coqc run per `.v` source for `prove` tests that read only the kernel's answer (not how coqc ran).

coqc's answer is a function of the `.v` text it is given: a `prove` whose printed source another test of this
process already had checked (the same statement in the README and in the issue's list, or typed with its flags
first) reads that answer instead of starting coqc again. A different argument reading prints a different source,
and coqc runs. Tests about the process itself (time limits, memory caps, busy cores) do not use it.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from ropecheck.proofs.prove import _prove_kernel

_ANSWERS: dict[tuple[str, float], dict[str, Any]] = {}


def one_coqc_run_per_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `ropecheck prove`'s kernel step (`_prove_kernel.kernel_check`) answer a source it has seen from memory."""
    real = _prove_kernel.kernel_check

    def check(coq: dict[str, Any], timeout: float) -> dict[str, Any]:
        key = (_prove_kernel.coq_source(coq), timeout)
        if key not in _ANSWERS:
            _ANSWERS[key] = real(coq, timeout)
        return copy.deepcopy(_ANSWERS[key])

    monkeypatch.setattr(_prove_kernel, "kernel_check", check)
