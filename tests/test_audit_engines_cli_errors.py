"""`ropecheck audit-engines` on a config whose tiny model transformers builds but cannot run: one line on standard
error and exit 2, never a traceback, and no library noise before it (torchao's load failures with the environment's
paths, torch's deprecation lines, the "Writing model shards" bar). The case config `deepseek-v2-lite-mscale` with
`"num_experts_per_tok": null` written in it: transformers' MoE forward calls `topk(k=None)` (the builder fills that
field only when a config lacks it, `_complete_routing`); it used to print a traceback with exit 1."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from ._budget import SUBPROCESS_BUDGET

ROPECHECK = shutil.which("ropecheck", path=str(Path(sys.executable).parent)) or "ropecheck"
CASE = Path(__file__).resolve().parent / "model_configs" / "cases" / "deepseek-v2-lite-mscale"


def test_a_model_transformers_cannot_run_is_one_line_and_exit_2(tmp_path: Path) -> None:
    config = {**json.loads((CASE / "config.json").read_text()), "num_experts_per_tok": None}
    (tmp_path / "config.json").write_text(json.dumps(config))
    done = subprocess.run(
        [ROPECHECK, "audit-engines", str(tmp_path), "--engine", "transformers", "--work", str(tmp_path / "work")],
        capture_output=True, text=True, timeout=SUBPROCESS_BUDGET, check=False,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("ropecheck audit-engines: error: transformers cannot run the tiny 'deepseek_v2'")
    assert "topk" in done.stderr and "Traceback" not in done.stderr
