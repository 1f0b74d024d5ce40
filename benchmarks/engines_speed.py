"""Wall time of `ropecheck audit-engines` per engine on one config, and the share spent loading the engine.

Issue #38's target: all four engines on one config in ≤ 3 min on the 2-core machine, vLLM's start-up included,
the one-time install excluded. Printed per engine: the subprocess's wall time (interpreter start, imports, load,
the windows), the load share (model load, incl. GGUF conversion for llama.cpp), and the run; then the reference
(build, save, float64 passes with their Jacobians) and the total as a ratio to the budget. Performance is reported as
ratios, never asserted in tests.

Run: `nice -n 15 .venv/bin/python benchmarks/engines_speed.py [CONFIG] [--engine NAME ...]` (default:
tests/model_configs/llama3.1-8b, every engine). The machine's load (1-minute load average, and the CPU-seconds of
this process and its engine subprocesses against wall time) is printed beside every figure: on a shared machine the
wall times are only comparable at the same load; rerun idle for the figures to report.

`--records FILE ...` instead prints, from recorded `audit-engines` runs (docs/engines-runs/*.json, e.g. the engines
tier's), every engine on every config: the engine's share of its subprocess's wall time, its load (model load, incl.
GGUF conversion) and the share of that spent loading — no engine is run.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

BUDGET_SECONDS = 180.0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("config", nargs="?", default="tests/model_configs/llama3.1-8b")
    parser.add_argument("--engine", action="append", dest="engines")
    parser.add_argument("--records", nargs="+", metavar="FILE")
    args = parser.parse_args()
    if args.records:
        return _from_records(args.records)
    import torch
    from ropecheck.numeric.audit.engines_live._audit import prepare, run_engines
    from ropecheck.numeric.audit.engines_live._engines import ENGINES

    torch.set_num_threads(1)
    print(f"{args.config}: {os.cpu_count()} CPUs, 1-minute load average {os.getloadavg()[0]:.1f} at the start")
    began, cpu = time.perf_counter(), _cpu_seconds()
    (prepared,) = prepare([args.config])
    reference = time.perf_counter() - began
    print(f"reference (build, save, {len(prepared.files.windows)} windows with Jacobians): {reference:6.1f} s"
          f"{_load(reference, _cpu_seconds() - cpu)}")
    total = reference
    for name in args.engines or list(ENGINES):
        start, cpu = time.perf_counter(), _cpu_seconds()
        (run,) = run_engines([prepared], [name])
        wall = time.perf_counter() - start
        (engine,) = run.engines
        total += wall
        share = engine.load_s / wall if wall else 0.0
        print(f"{name:13} {wall:6.1f} s  load {engine.load_s:6.1f} s ({share:4.0%})  windows {engine.run_s:5.1f} s"
              f"{_load(wall, _cpu_seconds() - cpu)}  verdict {engine.verdict}"
              + (f" ({engine.reason[:60]})" if engine.reason else ""))
    print(f"total {total:6.1f} s  ratio to the {BUDGET_SECONDS:.0f} s budget {total / BUDGET_SECONDS:.2f}")
    return 0


def _cpu_seconds() -> float:
    """CPU-seconds of this process and its finished children (the engine subprocesses)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _load(wall: float, cpu: float) -> str:
    """The machine's load beside a figure: the 1-minute load average now, and CPU-seconds / wall of this step (on
    an idle machine close to the cores the step can use; far below it, the step waited for the CPU)."""
    return f"  [load avg {os.getloadavg()[0]:.1f}; CPU {cpu:5.1f} s = {cpu / wall if wall else 0:.2f} × wall]"


def _from_records(files: list[str]) -> int:
    """Per engine per config from run records: wall (the subprocess's wall time shared evenly over its jobs), load,
    the load's share of load + windows, and the verdict."""
    import json
    from pathlib import Path

    for file in files:
        record = json.loads(Path(file).read_text(encoding="utf-8"))
        load = record.get("load_average")
        print(f"{file}: run {record['date']} on {record['machine']}"
              + (f", 1-minute load average {load} when recorded" if load is not None else ", load not recorded"))
        print(f"{'config':28} {'engine':12} {'wall':>7} {'load':>7} {'windows':>8} {'load share':>10}  verdict")
        for config in record["configs"]:
            for engine in config["engines"]:
                seconds = engine["seconds"]
                busy = seconds["load"] + seconds["run"]
                share = f"{seconds['load'] / busy:10.0%}" if busy else f"{'-':>10}"
                print(f"{config['name']:28} {engine['engine']:12} {seconds['wall']:6.1f}s {seconds['load']:6.1f}s "
                      f"{seconds['run']:7.1f}s {share}  {engine['verdict']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
