"""The `ropecheck` command line: one thin layer over `ropecheck.proofs` and `ropecheck.numeric` — it parses
arguments, calls their APIs and prints (`claims` and its terminal view, `prove` in its confined worker, `audit`
in `_audit` (its parser beside the auditor in `ropecheck.numeric.audit.function.arguments`, shared with the pytest
plugin), `audit-config` and `audit-attention`; `audit-engines` still has its parser beside the auditor).
"""

from ._main import main, run_console_script

__all__ = ["main", "run_console_script"]
