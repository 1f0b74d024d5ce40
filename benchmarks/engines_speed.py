"""Wall time of `ropecheck audit-engines` per engine on one config, and the share spent loading the engine.

Issue #38's target: all four engines on one config in ≤ 3 min on the 2-core machine, vLLM's start-up included,
the one-time install excluded. Printed per engine: the subprocess's wall time (interpreter start, imports, load,
the windows), the load share (model load, incl. GGUF conversion for llama.cpp), and the run; then the reference
(build, save, float64 passes with their Jacobians) and the total as a ratio to the budget. Performance is reported as
ratios, never asserted in tests.

Run: `python benchmarks/engines_speed.py [CONFIG] [--engine NAME ...]` (default: tests/model_configs/llama3.1-8b,
every engine).
"""

from __future__ import annotations

import argparse
import time

BUDGET_SECONDS = 180.0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("config", nargs="?", default="tests/model_configs/llama3.1-8b")
    parser.add_argument("--engine", action="append", dest="engines")
    args = parser.parse_args()
    import torch
    from ropecheck.numeric.audit.engines_live._audit import prepare, run_engines
    from ropecheck.numeric.audit.engines_live._engines import ENGINES

    torch.set_num_threads(1)
    began = time.perf_counter()
    (prepared,) = prepare([args.config])
    reference = time.perf_counter() - began
    print(f"reference (build, save, {len(prepared.files.windows)} windows with Jacobians): {reference:6.1f} s")
    total = reference
    for name in args.engines or list(ENGINES):
        start = time.perf_counter()
        (run,) = run_engines([prepared], [name])
        wall = time.perf_counter() - start
        (engine,) = run.engines
        total += wall
        share = engine.load_s / wall if wall else 0.0
        print(f"{name:13} {wall:6.1f} s  load {engine.load_s:6.1f} s ({share:4.0%})  windows {engine.run_s:5.1f} s"
              f"  verdict {engine.verdict}" + (f" ({engine.reason[:60]})" if engine.reason else ""))
    print(f"total {total:6.1f} s  ratio to the {BUDGET_SECONDS:.0f} s budget {total / BUDGET_SECONDS:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
