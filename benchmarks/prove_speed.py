"""Start-up and answer times of `ropecheck prove` (issue #11: start ≤ 0.5 s; issue 37: README examples ≤ 1.5 s CPU
with the kernel step excluded), and the share of the true identities of `tests/_prove_corpus.py` that reach exit 0.

`python benchmarks/prove_speed.py --json` runs the console script as a user does (a fresh process each time,
best of `--repeat` runs) and prints, per measurement, wall seconds and CPU seconds (user + system of the
process and its worker, which does not grow with the machine's load the way wall time does), each with its
ratio to the goal and to a bare `import sympy` in the same run:

- `help`: `ropecheck prove --help` (no SymPy import);
- `ready`: `python -c "import <READY_MODULES>"`: the CLI plus what the worker imports before it reads the
  statement — the start-up;
- `trivial`: `ropecheck prove "x == x" --no-kernel`, start-up plus the worker (a fresh interpreter that imports
  the engine) plus the smallest decision;
- one entry per README example with `--no-kernel` (the engine's answer: the 1.5 s goal), and the same with the
  Coq kernel check (`kernel: …`; coqc alone takes seconds, so these have no goal);
- `corpus` (unless `--no-corpus`): each corpus identity through `ropecheck prove --json` once; the share at
  exit 0 (goal ≥ 85 %), the statements that ended elsewhere with their exit code and reason, and the CPU time.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

STARTUP_GOAL = 0.5
READY_MODULES = "ropecheck.cli._main, ropecheck.proofs.engine._engine, ropecheck.proofs.prove._parse"
EXAMPLE_GOAL = 1.5
CORPUS_GOAL = 0.85
README_EXAMPLES = [
    ["sqrt(x**2) == x", "--real", "x"],
    ["(x**2 - 1)/(x - 1) == x + 1"],
    ["exp(-1000) + 1 == 1"],
    ["sin(2*x)/sin(x) == 2*cos(x)"],
    ["cos(pi/7) - cos(2*pi/7) + cos(3*pi/7) == 1/2"],
    ["(b*s**(d/(d-2)))**(-2*j/d) == b**(-2*j/d)*s**(-2*j/(d-2))", "--positive", "b", "s", "--real", "d", "j"],
    ["atan(x) + atan(1/x) == pi/2", "--positive", "x"],
    ["log(exp(x)) == x"],
]


KERNEL_EXAMPLES = [["sin(2*x) == 2*sin(x)*cos(x)", "--real", "x"], ["sin(x)**2 + cos(x)**2 == 1", "--real", "x"]]


def _adopt_orphans() -> None:
    """Become the reaper of orphaned descendants (Linux): `prove`'s forkserver and worker outlive their parent
    by a moment, and their CPU time counts only if someone waits for them."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER


def _reap() -> None:
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def _measure(command: list[str], repeat: int) -> tuple[float, float]:
    """Best wall time and best CPU time (user + sys of the child and all its descendants, coqc included) over
    `repeat` runs. The worker runs in bubblewrap's PID namespace, whose CPU time does not reach us through
    `wait`: a `prove --json` command reports it (`worker_cpu_seconds`) and it is added."""
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, check=False, timeout=120, text=True)
        _reap()
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime) + _worker_cpu(done.stdout))
    return min(walls), min(cpus)


def _worker_cpu(stdout: str) -> float:
    try:
        return float(json.loads(stdout).get("worker_cpu_seconds", 0.0))
    except (ValueError, AttributeError):
        return 0.0


def _corpus(ropecheck: str) -> dict[str, object]:
    """Each true identity of the test corpus through `ropecheck prove --json`: the share that reaches exit 0."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests._prove_corpus import TRUE_IDENTITIES

    codes: dict[str, int] = {}
    elsewhere: dict[str, str] = {}
    worker_cpu = 0.0
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for statement, flags in TRUE_IDENTITIES:
        done = subprocess.run([ropecheck, "prove", statement, *flags, "--json"], capture_output=True, text=True,
                              check=False, timeout=300)
        _reap()
        codes[statement] = done.returncode
        worker_cpu += _worker_cpu(done.stdout)
        if done.returncode != 0:
            try:
                answer = json.loads(done.stdout)
                reason = answer.get("kernel", {}).get("reason") or answer.get("method", "")
            except ValueError:
                reason = done.stderr.strip()[-200:]
            elsewhere[statement] = f"exit {done.returncode}: {reason}"[:300]
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    share = sum(code == 0 for code in codes.values()) / len(codes)
    return {"identities": len(codes), "exit_0": sum(code == 0 for code in codes.values()),
            "share_exit_0": round(share, 3), "goal": CORPUS_GOAL, "met": share >= CORPUS_GOAL,
            "cpu": round((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime) + worker_cpu, 1),
            "not_exit_0": elsewhere}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-corpus", dest="corpus", action="store_false", help="skip the corpus (minutes)")
    args = parser.parse_args()
    _adopt_orphans()
    python = sys.executable
    ropecheck = shutil.which("ropecheck", path=str(Path(python).parent)) or "ropecheck"

    sympy_wall, sympy_cpu = _measure([python, "-c", "import sympy"], args.repeat)
    runs: dict[str, tuple[list[str], float]] = {
        "help": ([ropecheck, "prove", "--help"], STARTUP_GOAL),
        "ready": ([python, "-c", f"import {READY_MODULES}"], STARTUP_GOAL),
        "trivial": ([ropecheck, "prove", "x == x", "--no-kernel", "--json"], EXAMPLE_GOAL),
    }
    for example in README_EXAMPLES:
        runs[example[0]] = ([ropecheck, "prove", *example, "--no-kernel", "--json"], EXAMPLE_GOAL)
    for example in KERNEL_EXAMPLES:
        runs[f"kernel: {example[0]}"] = ([ropecheck, "prove", *example, "--json"], float("nan"))
    result: dict[str, object] = {"sympy_import": {"wall": round(sympy_wall, 3), "cpu": round(sympy_cpu, 3)}}
    for name, (command, goal) in runs.items():
        wall, cpu = _measure(command, args.repeat)
        result[name] = {
            "wall": round(wall, 3),
            "cpu": round(cpu, 3),
            "goal": goal if goal == goal else None,
            "cpu_over_goal": round(cpu / goal, 2) if goal == goal else None,
            "wall_over_goal": round(wall / goal, 2) if goal == goal else None,
            "cpu_over_sympy_import": round(cpu / sympy_cpu, 2) if sympy_cpu else None,
        }
    if args.corpus:
        result["corpus"] = _corpus(ropecheck)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for name, row in result.items():
        print(f"{name[:60]:62} {row}")


if __name__ == "__main__":
    main()
