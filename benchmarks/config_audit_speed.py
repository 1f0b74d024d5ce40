"""Config audit speed: `audit_config` on each shipped real config with every installed engine (goal: ≤ 60 s for one
config, every engine included, on the 2-core machine).

Prints, per config, the seconds for the expected values alone and for each engine, and the ratio of the whole
audit to the 60 s goal; `--json` prints one object. The first engine call pays its imports (torch, transformers,
the MLX-LM subprocess): `first_seconds` is that call, reported apart.

`--cpu` measures what issue #32 asks instead: the CPU-seconds (user + system, the process and its children) of the
command a user runs, `ropecheck audit-config CONFIG --json`, per config — with no engine, with each engine alone
and with every installed engine — and the same command given every config at once (one process: the imports are
paid once), per config; each as a ratio to the 10 CPU-s goal.

Measured 2026-11-28 on the 2-core machine under a load of about 16 (llama3.1-8b, gemma3-4b, smollm3-3b, deepseek-v3):
no engine 0.6 CPU-s (7.7 before the class defaults were read from source), MLX-LM 1.8-2.2, vLLM not installed 0.6-0.7,
transformers 12.0-14.5, every engine 13.6-14.1 per config alone (1.36-1.41 of the goal: not met; the import of
torch and transformers' modeling code is about 10 of it), 4.6 per config when the four are given to one command
(0.46 of the goal).

Measured again later that day (load 6.6-8.0, other engineers' work; llama3.1-8b, smollm3-3b, phi-4), after
transformers is imported without scipy and torchao (`numeric/audit/_lean_import.py`) and the literature lines stopped
importing JAX: no engine 2.9-3.9 CPU-s (sympy, which the literature lines' formulas need, is ~2 of it), transformers
13.4-15.4, MLX-LM 5.5-6.0, vLLM not installed 3.3-4.3, every engine 17.1-17.4 per config alone (1.71-1.74 of the goal:
not met), 7.2 per config when the three are given to one command (0.72). The same command before those two changes,
same machine, load 8-11: every engine 20.4 (llama3.1-8b). What remains of the transformers import is torch itself,
`torch.distributed.tensor` (imported by `transformers/model_debugging_utils.py`) and `torch._dynamo`
(`transformers/masking_utils.py`): about 8 CPU-s at this load, not avoidable without patching torch, which the
engine adapter never does. CPU-seconds grow with the load here (two cores shared by six sessions); figures from one
run are comparable only with each other.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ropecheck.numeric.audit.model_config import audit_config
from ropecheck.numeric.audit.model_config.engines import ENGINES

GOAL_SECONDS = 60.0
GOAL_CPU_SECONDS = 10.0
CONFIGS = Path(__file__).resolve().parents[1] / "tests" / "model_configs"


def _seconds(path: Path, engines: list[str]) -> float:
    start = time.perf_counter()
    audit_config(path, engines)
    return time.perf_counter() - start


def _cpu_seconds(arguments: list[str]) -> float:
    """User + system CPU-seconds of `python -m ropecheck audit-config ARGUMENTS --json` and its children."""
    import resource
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "ropecheck", "audit-config", *arguments, "--json"], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                   cwd=Path(__file__).resolve().parents[1])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _cpu(paths: list[Path]) -> dict:
    rows = []
    for path in paths:
        row = {"config": path.name, "none_cpu_s": _cpu_seconds([str(path), "--engine", "none"])}
        row.update({f"{name}_cpu_s": _cpu_seconds([str(path), "--engine", name]) for name in ENGINES})
        row["all_cpu_s"] = _cpu_seconds([str(path)])
        row["goal_ratio"] = row["all_cpu_s"] / GOAL_CPU_SECONDS
        rows.append(row)
    together = _cpu_seconds([str(p) for p in paths]) / len(paths)
    return {"configs": rows, "one_process_per_config_cpu_s": together,
            "one_process_goal_ratio": together / GOAL_CPU_SECONDS,
            "worst_goal_ratio": max(r["goal_ratio"] for r in rows)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="CPU-seconds of the command per config (issue #32)")
    parser.add_argument("configs", nargs="*", help="config folders (default: every shipped real config)")
    args = parser.parse_args()
    paths = [Path(p) for p in args.configs] or sorted(p for p in CONFIGS.iterdir() if (p / "config.json").is_file())
    if args.cpu:
        result = _cpu(paths)
        if args.json:
            json.dump(result, sys.stdout, indent=2)
            sys.stdout.write("\n")
            return 0
        for row in result["configs"]:
            engines = ", ".join(f"{k} {row[f'{k}_cpu_s']:.1f}" for k in ENGINES)
            print(f"{row['config']:<18} CPU-s: none {row['none_cpu_s']:.1f}, {engines}, all {row['all_cpu_s']:.1f} "
                  f"({row['goal_ratio']:.2f} of the 10 CPU-s goal)")
        print(f"one process, every config: {result['one_process_per_config_cpu_s']:.1f} CPU-s per config "
              f"({result['one_process_goal_ratio']:.2f} of the goal)")
        return 0
    first = {name: _seconds(paths[0], [name]) for name in ENGINES}
    rows = []
    for path in paths:
        row = {"config": path.name, "expected_seconds": _seconds(path, [])}
        row.update({f"{name}_seconds": _seconds(path, [name]) for name in ENGINES})
        row["all_seconds"] = _seconds(path, None)
        row["goal_ratio"] = row["all_seconds"] / GOAL_SECONDS
        rows.append(row)
    result = {"first_seconds": first, "configs": rows, "worst_goal_ratio": max(r["goal_ratio"] for r in rows)}
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"first call per engine (imports): {', '.join(f'{k} {v:.1f} s' for k, v in first.items())}")
        for row in rows:
            engines = ", ".join(f"{k} {row[f'{k}_seconds']:.1f} s" for k in ENGINES)
            print(f"{row['config']:<18} expected {row['expected_seconds']:.2f} s; {engines}; "
                  f"all {row['all_seconds']:.1f} s ({row['goal_ratio']:.2f} of the 60 s goal)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
