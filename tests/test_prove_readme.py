"""Issue #19: README's `prove` section and `prove --help` say what exit 0 and exit 4 mean, with the issue's
examples, and every README example exits with the code written beside it."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from ropecheck.proofs import coq_available

from ropecheck.cli._main import _build_parser, main

from ._prove_memo import one_coqc_run_per_source

# The README's reference material lives in docs/reference.md (the README links it from its quick start).
README = Path(__file__).resolve().parents[1] / "docs" / "reference.md"
HEADING = "## Deciding your own identity: `ropecheck prove`"
SECTION = README.read_text(encoding="utf-8").split(HEADING)[1].split("\n## ")[0]
EXAMPLES = re.findall(r"(?m)^    \$ ropecheck prove (.+?)\s+# exit (\d)$", SECTION)


def _prove_help() -> str:
    parser = _build_parser()
    action = next(a for a in parser._actions if getattr(a, "choices", None) and "prove" in a.choices)
    return action.choices["prove"].format_help()


def test_readme_and_help_say_what_exit_0_and_exit_4_mean() -> None:
    help_text = _prove_help()
    # `--help` is wrapped to the terminal's width (80 columns here): compare the words, not the line breaks.
    for text in (SECTION, " ".join(help_text.split())):
        assert re.search(r"0\s+.*proved.*Coq (kernel )?checked", text.replace("\n", " ")), text[:400]
        assert "proved by the engine only" in text and "Coq cannot state" in SECTION + help_text
        for example in ("x/x == 1", "E**(I*pi) + 1 == 0", "sin(pi/10) == (sqrt(5) - 1)/4",
                        "cos(x/2) == sqrt((1 + cos(x))/2)"):
            assert example in text, example
    assert {code for _, code in EXAMPLES} == {"0", "1", "2", "3", "4"}


@pytest.fixture(autouse=True)
def _one_coqc_run_per_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """Examples also in test_prove_statement.py's list print the same `.v` text: coqc checks it once per process."""
    one_coqc_run_per_source(monkeypatch)


@pytest.mark.skipif(not coq_available(), reason="the exit-0 examples need coqc")
@pytest.mark.parametrize(("command", "code"), EXAMPLES, ids=[c[:40] for c, _ in EXAMPLES])
def test_each_readme_example_exits_as_written(command: str, code: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", *shlex.split(command)]) == int(code), capsys.readouterr()
