"""How long the Coq kernel takes: the whole development from scratch, and `ropecheck claims` with a warm cache.

`python benchmarks/kernel_speed.py --json` prints
`{"coq_version", "files", "compile_seconds", "compile_ok", "claims_cold_seconds", "claims_warm_seconds",
"kernel_warm_seconds", "warm_to_compile_ratio"}` — `kernel_warm_seconds` is the kernel's share of a warm run
(reading the sources, hashing, loading the cached report); the rest of `claims_warm_seconds` is the SymPy
engine deciding every statement.
Goals (ISSUE #10, #18): the whole development compiles from scratch in ≤ 90 s on the 2-core machine (`make` on a
copy of proofs/coq), `kernel_cold_seconds` is the kernel's whole cold run (every file, the generated statements
files, `Print Assumptions` and coqchk, fresh cache), and `ropecheck claims` takes ≤ 30 s once the kernel cache is
warm. The cold figure uses a fresh, empty cache directory (compiles every file, then
`Print Assumptions` for every claim theorem).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEVELOPMENT = ROOT / "proofs" / "coq"


def compile_from_scratch() -> tuple[float, bool, int]:
    """`coq_makefile` + `make -j2` on a fresh copy of the development: (seconds, succeeded, files)."""
    with tempfile.TemporaryDirectory(prefix="ropecheck-bench-") as tmp:
        copy = Path(tmp)
        files = [*DEVELOPMENT.glob("*.v"), DEVELOPMENT / "_CoqProject"]
        for path in files:
            shutil.copy2(path, copy / path.name)
        start = time.perf_counter()
        done = subprocess.run(
            "coq_makefile -f _CoqProject -o Makefile.coq && make -f Makefile.coq -j2",
            shell=True,
            cwd=copy,
            capture_output=True,
            text=True,
            check=False,
        )
        return time.perf_counter() - start, done.returncode == 0, len(files) - 1


_CLAIMS = "from ropecheck.cli._main import main; raise SystemExit(main(['claims', '--json', '--no-numeric']))"


_KERNEL = "from proofs.claims._verdicts import kernel_report; kernel_report()"
_KERNEL_COLD = (
    "from proofs.claims._bound_statements import all_bound; from proofs.kernel._kernel_build import check_development;"
    " check_development(use_cache=False, bound=all_bound())"
)


def time_claims(cache: str, program: str = _CLAIMS) -> float:
    """Wall time of `ropecheck claims --json --no-numeric` with the kernel cache at `cache`."""
    env = {**os.environ, "ROPECHECK_KERNEL_CACHE": cache, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", program],
        cwd=ROOT,
        env=env,
        capture_output=True,
        check=False,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from ropecheck.proofs.kernel._kernel import coq_version

    compile_seconds, ok, files = compile_from_scratch()
    with tempfile.TemporaryDirectory(prefix="ropecheck-bench-cache-") as cache:
        kernel_cold = time_claims(cache, _KERNEL_COLD)
    with tempfile.TemporaryDirectory(prefix="ropecheck-bench-cache-") as cache:
        cold = time_claims(cache)
        warm = time_claims(cache)
        kernel_warm = time_claims(cache, _KERNEL)
    result = {
        "coq_version": coq_version(),
        "files": files,
        "compile_seconds": round(compile_seconds, 1),
        "compile_ok": ok,
        "kernel_cold_seconds": round(kernel_cold, 1),
        "claims_cold_seconds": round(cold, 1),
        "claims_warm_seconds": round(warm, 1),
        "kernel_warm_seconds": round(kernel_warm, 1),
        "warm_to_compile_ratio": round(warm / compile_seconds, 2) if compile_seconds else None,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
