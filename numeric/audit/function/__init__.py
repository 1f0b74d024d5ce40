"""`ropecheck.numeric.audit.function`: the function-level auditor — one implementation `fn(x, positions)` (or a
table, a bias, a score function) called as a black box.

`runner` (`audit()`), `session`/`calls`/`targets`/`position_forms` (load, call, time out), `extract` (M(p),
pairing, angles), `ideal` (the reference rotation), `policy` (the tolerance policy), `scaling` (context-extension
references), `attribution` (root causes and the summary), `results` (the report), `context`/`options`/`noise`/
`wording`/`table_length`/`builtin_defaults`, `arguments` (the options of `ropecheck audit`, shared by the command
line in `ropecheck.cli` and the `rope_targets` lines), and the pytest front ends `plugin_targets` and
`pytest_plugin`. What each property checks lives in `numeric.audit.properties`, what each kind probes in
`numeric.audit.kinds`.

This package's `__init__` imports nothing (the pytest plugin loads through it).
"""
