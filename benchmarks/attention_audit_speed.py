"""Wall time of the whole attention-level audit (`ropecheck audit-attention`) per built-in config.

Issue #22 asks for ≤ 30 s per config on the 2-core machine. Printed per config: seconds for the build and
every check, and the ratio to that budget (performance is reported as ratios, never asserted in tests).

Run: `python benchmarks/attention_audit_speed.py [NAME ...]`.
"""

from __future__ import annotations

import sys
import time

BUDGET_SECONDS = 30.0


def main(names: list[str]) -> int:
    import torch
    from ropecheck.numeric.audit.attention import BUILTIN_CONFIGS
    from ropecheck.numeric.audit.attention._audit import audit_attention

    torch.set_num_threads(1)
    audit_attention("llama-3.1")  # warm-up: imports and first-call dispatch are not the audit's cost
    for name in names or list(BUILTIN_CONFIGS):
        start = time.perf_counter()
        report = audit_attention(name)
        seconds = time.perf_counter() - start
        print(f"{name:18} {seconds:6.1f} s  ratio to the {BUDGET_SECONDS:.0f} s budget {seconds / BUDGET_SECONDS:.2f}"
              f"  verdict {report.verdict} ({', '.join(report.failed()) or 'no failure'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
