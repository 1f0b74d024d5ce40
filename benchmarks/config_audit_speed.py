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

Since then `--cpu` also measures the import floor (`_import_floor.py`: a fresh process importing torch and
transformers' Llama modeling code, nothing else) in the same run, repeats each figure (`--repeat N`, min-max), and
the command gives several configs' MLX-LM work to one probe process (`audit_configs`). Measured 2026-11-28, load
average 5.9-8.7, 2 repetitions, `--all-only` (llama3.1-8b, smollm3-3b, exaone4-1.2b): import floor 12.4-13.2
CPU-s; every engine, one config per process, 14.0-16.4 CPU-s (1.40-1.60 of the goal: **not met**; 1.14-1.29 of the
floor: what is not the floor is the MLX-LM subprocess, about 1.4, and ropecheck's own imports, shared with torch's
SymPy); one process for the three configs 5.1-5.4 CPU-s per config (0.51-0.54 of the goal). No engine 2.8-3.8.
The goal is below the floor on this machine under load: it cannot be met while transformers' modeling code imports
`torch._dynamo` (whose SymPy, FX and fake-tensor imports pull `torch.distributed.tensor` too: deferring the latter
alone was tried and saves nothing) — the floor measured at load 1.5 was 9.9 CPU-s.

Since then `--cpu` also measures the MLX-LM probe's import floor (its interpreter importing `mlx.core` and
`mlx_lm.utils`, which imports MLX-LM's own transformers) and reports each command against the two floors together.
Measured 2026-11-28 after the command stopped importing what it does not use (the ledger, the statement parser and
ml_dtypes: `ropecheck.proofs` and `ropecheck.numeric.reference` load names lazily), with the garbage collector paused
while torch and transformers import (`collection_paused`), and MLX-LM's version read without starting its
interpreter; `--repeat 2`, load average 7.9-11.1 (llama3.1-8b, smollm3-3b, exaone4-1.2b): floor 4.4-5.8 CPU-s, MLX-LM
probe floor 1.2-1.3; every engine, one config per process, **6.4-7.7** CPU-s (0.64-0.70 of the goal: **met** at this
load; 1.14-1.25 of the two floors: ropecheck's own imports and work, 0.7-1.0 with no engine, part of it SymPy, which
torch's modeling imports need anyway); one process for the three 2.5-2.6 per config. Engine by engine (llama3.1-8b,
load 7.9-8.7): none 0.8, transformers 5.5-5.7, MLX-LM 2.4-2.5, vLLM not installed 0.8-0.9, all 5.8-6.3.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _import_floor import child_cpu_seconds, import_floor_cpu_seconds, load_average, mlx_import_floor_cpu_seconds
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
    return child_cpu_seconds([sys.executable, "-m", "ropecheck", "audit-config", *arguments, "--json"])


def _cpu(paths: list[Path], repeat: int, engines_apart: bool) -> dict:
    """Each figure measured `repeat` times (min and max kept), the import floor among them in the same run."""
    def spread(measure) -> dict:
        values = [measure() for _ in range(repeat)]
        return {"min": min(values), "max": max(values)}

    load = [load_average()]
    floor = spread(import_floor_cpu_seconds)
    mlx_floor = spread(mlx_import_floor_cpu_seconds) if mlx_import_floor_cpu_seconds() is not None else None
    floors = floor["min"] + (mlx_floor["min"] if mlx_floor else 0.0)
    rows = []
    for path in paths:
        row = {"config": path.name, "none_cpu_s": spread(lambda p=path: _cpu_seconds([str(p), "--engine", "none"]))}
        if engines_apart:
            row.update({f"{name}_cpu_s": spread(lambda p=path, n=name: _cpu_seconds([str(p), "--engine", n]))
                        for name in ENGINES})
        row["all_cpu_s"] = spread(lambda p=path: _cpu_seconds([str(p)]))
        row["goal_ratio"] = row["all_cpu_s"]["min"] / GOAL_CPU_SECONDS
        row["floor_ratio"] = row["all_cpu_s"]["min"] / floor["min"]
        row["floors_ratio"] = row["all_cpu_s"]["min"] / floors
        rows.append(row)
        load.append(load_average())
    together = spread(lambda: _cpu_seconds([str(p) for p in paths]) / len(paths))
    load.append(load_average())
    return {"load_average": {"min": min(load), "max": max(load)}, "repeat": repeat, "import_floor_cpu_s": floor,
            "mlx_import_floor_cpu_s": mlx_floor, "floors_goal_ratio": floors / GOAL_CPU_SECONDS,
            "floor_goal_ratio": floor["min"] / GOAL_CPU_SECONDS, "configs": rows,
            "one_process_per_config_cpu_s": together, "one_process_goal_ratio": together["min"] / GOAL_CPU_SECONDS,
            "worst_goal_ratio": max(r["goal_ratio"] for r in rows)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="CPU-seconds of the command per config (issue #32)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions of each --cpu figure (default 3)")
    parser.add_argument("--all-only", action="store_true", help="--cpu: no engine-by-engine rows")
    parser.add_argument("configs", nargs="*", help="config folders (default: every shipped real config)")
    args = parser.parse_args()
    paths = [Path(p) for p in args.configs] or sorted(p for p in CONFIGS.iterdir() if (p / "config.json").is_file())
    if args.cpu:
        result = _cpu(paths, args.repeat, not args.all_only)
        if args.json:
            json.dump(result, sys.stdout, indent=2)
            sys.stdout.write("\n")
            return 0
        span = lambda v: f"{v['min']:.1f}-{v['max']:.1f}"  # noqa: E731
        mlx_floor = result["mlx_import_floor_cpu_s"]
        print(f"load average {span(result['load_average'])}; {args.repeat} repetitions (min-max); import floor "
              f"(torch + transformers' Llama modeling code) {span(result['import_floor_cpu_s'])} CPU-s; MLX-LM probe's "
              f"import floor {span(mlx_floor) if mlx_floor else 'n/a'}; the two: {result['floors_goal_ratio']:.2f} of "
              "the goal")
        for row in result["configs"]:
            engines = "".join(f", {k} {span(row[f'{k}_cpu_s'])}" for k in ENGINES if f"{k}_cpu_s" in row)
            print(f"{row['config']:<18} CPU-s: none {span(row['none_cpu_s'])}{engines}, all {span(row['all_cpu_s'])} "
                  f"({row['goal_ratio']:.2f} of the 10 CPU-s goal, {row['floor_ratio']:.2f} of the floor, "
                  f"{row['floors_ratio']:.2f} of the two floors)")
        print(f"one process, every config: {span(result['one_process_per_config_cpu_s'])} CPU-s per config "
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
