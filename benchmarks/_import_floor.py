"""The import floors of the model-level commands: CPU-seconds of a fresh process that does nothing but import what
any transformers engine run needs — torch and transformers' Llama modeling code (which imports
`transformers.masking_utils` → `torch._dynamo`, and `transformers.model_debugging_utils` → `torch.distributed.tensor`),
under the same `lean_transformers()` the commands use (scipy and torchao hidden, the garbage collector paused) — and
of the MLX-LM probe's interpreter importing what the probe imports (`mlx.core`, `mlx_lm.utils`, which imports
MLX-LM's own transformers for its tokenizers). `audit-attention` cannot cost less than the first, nor `audit-config`
with every engine less than the two together, without changing torch, transformers or MLX-LM; the benchmarks report
each command as a ratio to them, measured in the same run (CPU-seconds grow with the machine's load, so only figures
from one run compare).
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


_MLX_FLOOR = "import mlx.core\nfrom mlx_lm.utils import _get_classes\n"


def mlx_import_floor_cpu_seconds() -> float | None:
    """CPU-seconds of MLX-LM's environment importing what `_mlx_probe.py` imports; None without that environment."""
    sys.path.insert(0, str(ROOT))
    from ropecheck.numeric.audit.model_config.engines._subprocess import environment_python

    python = environment_python("mlx", "ROPECHECK_MLX_PYTHON")
    return child_cpu_seconds([str(python), "-I", "-c", _MLX_FLOOR]) if python.exists() else None


def load_average() -> float:
    """The 1-minute load average (the machine is shared: CPU-seconds depend on it)."""
    import os

    return os.getloadavg()[0]
