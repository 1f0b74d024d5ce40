"""The one wall-time budget of the test suite: how long a test lets an external process run before calling it hung.

Fifteen minutes for anything a test starts (a CLI command, a pytest run on a sample project, coqc, pip, a docs
build step). It bounds a process that hangs; it never measures speed — the slowest of these takes well under a
minute on an idle 2-core machine and a few minutes with both cores saturated by other work, so a slow machine only
makes the suite slower, never red (ISSUE #25). Speed is measured in `benchmarks/`, not asserted in tests.
"""

SUBPROCESS_BUDGET = 900.0
"""Seconds an external process started by a test may run (a hang guard, not a speed check)."""
