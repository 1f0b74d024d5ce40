"""How long `ropecheck claims` takes once its caches are warm (the kernel report and the ledger entries).

`python benchmarks/claims_view_speed.py --json` prints `{"machine", "load_before", "cold_cpu_seconds",
"warm_cpu_seconds", "warm_wall_seconds", "import_cpu_seconds", "warm_to_import_ratio"}`:

- `cold_*`: the first run with an empty ledger cache (SymPy derivation, LaTeX, numeric evidence of every claim);
- `warm_*`: the next run, which reads the cached entries (goal: ≤ 5 s wall on an idle 2-core machine);
- `import_cpu_seconds`: a bare `python -c "import ropecheck.proofs, ropecheck.numeric"`, the floor any run pays;
- `warm_to_import_ratio`: warm CPU / import CPU — the machine-independent figure `tests/test_measured_figures.py`
  re-measures against the README's.

CPU seconds are the child's user + system time (`resource.getrusage`), so a busy machine changes them far less
than wall time; the machine (CPU model, cores) and the load average are recorded beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = ["-m", "ropecheck", "claims"]
IMPORT = ["-c", "import ropecheck.proofs, ropecheck.numeric"]


def machine() -> str:
    """`<CPU model>, <n> cores` as /proc/cpuinfo names it (or the platform's processor string)."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"


def run(arguments: list[str], ledger_cache: str | None) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of `python <arguments>` with the ledger cache at `ledger_cache` (None: the
    user's default cache)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if ledger_cache is not None:
        env["ROPECHECK_LEDGER_CACHE"] = ledger_cache
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *arguments], cwd=ROOT, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def warm_ratio(ledger_cache: str | None = None) -> dict[str, float]:
    """Warm `ropecheck claims` against a bare import, both in CPU seconds (the cache is warmed first)."""
    cold_cpu, _ = run(CLAIMS, ledger_cache)
    warm_cpu, warm_wall = run(CLAIMS, ledger_cache)
    import_cpu = min(run(IMPORT, ledger_cache)[0] for _ in range(2))
    return {
        "cold_cpu_seconds": round(cold_cpu, 2),
        "warm_cpu_seconds": round(warm_cpu, 2),
        "warm_wall_seconds": round(warm_wall, 2),
        "import_cpu_seconds": round(import_cpu, 2),
        "warm_to_import_ratio": round(warm_cpu / import_cpu, 2) if import_cpu else float("inf"),
    }


def measure() -> dict[str, object]:
    """Cold (a fresh ledger cache), warm and import-only runs, with the machine and its load."""
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="ropecheck-bench-ledger-") as fresh:
        figures = warm_ratio(fresh)
    return {"machine": machine(), "load_before": round(load, 2), **figures}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure()
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
