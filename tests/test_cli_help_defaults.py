"""`ropecheck audit --help` states the defaults a user would otherwise have to look up (issue 36: `orig=` in
`llama3:F[,orig=N,…]` had none)."""

from __future__ import annotations

from ropecheck.numeric.audit.function.arguments import build_parser
from ropecheck.numeric.audit.function.scaling import _DEFAULT_ORIGINAL


def test_audit_help_states_the_default_of_orig() -> None:
    """The help says the defaults the parser really applies (`scaling._DEFAULT_ORIGINAL`)."""
    text = " ".join(build_parser().format_help().split())
    others = {value for kind, value in _DEFAULT_ORIGINAL.items() if kind != "llama3"}
    assert len(others) == 1, "the help names one default for every kind but llama3"
    assert f"orig defaults to {others.pop()} ({_DEFAULT_ORIGINAL['llama3']} for llama3)" in text
