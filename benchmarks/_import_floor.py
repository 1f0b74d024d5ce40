"""The import floor of the model-level commands: CPU-seconds of a fresh process that does nothing but import what
any transformers engine run needs — torch and transformers' Llama modeling code (which imports
`transformers.masking_utils` → `torch._dynamo`, and `transformers.model_debugging_utils` → `torch.distributed.tensor`),
under the same `lean_transformers()` the commands use. `audit-config` and `audit-attention` cannot cost less than
this without changing torch or transformers; the benchmarks report each command as a ratio to it, measured in the
same run (CPU-seconds grow with the machine's load, so only figures from one run compare).
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_FLOOR = """
from ropecheck.numeric.audit._lean_import import lean_transformers, own_this_process
own_this_process()
with lean_transformers():
    import torch
    import transformers.models.llama.modeling_llama
"""


def child_cpu_seconds(command: list[str]) -> float:
    """User + system CPU-seconds of `command` and its children (stdin closed, output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   stdin=subprocess.DEVNULL, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def import_floor_cpu_seconds() -> float:
    """CPU-seconds of a fresh Python importing torch and transformers' Llama modeling code, nothing else."""
    return child_cpu_seconds([sys.executable, "-c", _FLOOR])


def load_average() -> float:
    """The 1-minute load average (the machine is shared: CPU-seconds depend on it)."""
    import os

    return os.getloadavg()[0]
