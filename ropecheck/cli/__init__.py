"""The `ropecheck` command line: one thin layer over `ropecheck.proofs` and `ropecheck.numeric` — it parses
arguments, calls their APIs and prints (`claims` and its terminal view, `prove` in its confined worker,
`audit-config` and `audit-attention`; the function-level `audit` and `audit-engines` still have their parsers beside
the auditor in `ropecheck.numeric.audit`).
"""

from ._main import main

__all__ = ["main"]
