"""Axioms are judged by coqchk's fully qualified names, and the cache key follows the Coq environment (no Coq run).

Each rule is seen rejecting: a project `FloatAxioms.boom` beside Coq's `Coq.Floats.FloatAxioms.*`, a name coqchk does
not list, an ambiguous name, a coqchk that failed; and the environment digest changes with `COQPATH` and with a
library `.vo` file.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from ropecheck.proofs.kernel._kernel_coqchk import CoqchkResult, judge_axioms, parse_coqchk_axioms, qualify
from ropecheck.proofs.kernel._kernel_env import environment_digest, required_libraries

COQCHK_OUTPUT = """
CONTEXT SUMMARY
===============

* Theory: Set is predicative

* Axioms:
    Coq.Logic.Classical_Prop.classic
    Coq.Reals.ClassicalDedekindReals.sig_forall_dec
    Coq.Floats.FloatAxioms.add_spec
    Ropecheck.FloatAxioms.boom
    Ropecheck.Other.Classical_Prop.classic_copy
    mathcomp.ssreflect.fintype.SubsetDef.subset

* Constants/Inductives relying on type-in-type: <none>
"""
CHECKED = CoqchkResult(True, tuple(parse_coqchk_axioms(COQCHK_OUTPUT)), "coqchk accepted every project module")


def test_coqchk_axioms_are_read_fully_qualified() -> None:
    assert CHECKED.axioms[0] == "Coq.Logic.Classical_Prop.classic" and len(CHECKED.axioms) == 6
    assert qualify("Classical_Prop.classic", CHECKED.axioms) == "Coq.Logic.Classical_Prop.classic"
    assert qualify("FloatAxioms.boom", CHECKED.axioms) == "Ropecheck.FloatAxioms.boom"


def test_standard_axioms_and_coq_primitive_floats_pass() -> None:
    names, reason = judge_axioms(("Classical_Prop.classic", "FloatAxioms.add_spec"), CHECKED)
    assert reason is None and names == ("Coq.Logic.Classical_Prop.classic", "Coq.Floats.FloatAxioms.add_spec")


@pytest.mark.parametrize(
    ("short", "why"),
    [
        ("FloatAxioms.boom", "Ropecheck.FloatAxioms.boom (project axiom)"),  # named like Coq's, but the project's
        ("cheat", "not named by coqchk"),  # coqchk does not list it: no answer is not "standard"
        ("subset", "mathcomp.ssreflect.fintype.SubsetDef.subset"),  # a library name, but not a standard axiom
    ],
)
def test_other_axioms_fail(short: str, why: str) -> None:
    _, reason = judge_axioms(("Classical_Prop.classic", short), CHECKED)
    assert reason is not None and why in reason


def test_an_ambiguous_name_fails() -> None:
    ambiguous = CoqchkResult(True, ("Coq.Logic.Classical_Prop.classic", "Ropecheck.X.Classical_Prop.classic"), "")
    _, reason = judge_axioms(("Classical_Prop.classic",), ambiguous)
    assert reason is not None


def test_a_failed_coqchk_fails_every_theorem() -> None:
    _, reason = judge_axioms((), CoqchkResult(False, (), "coqchk rejected the development: bad .vo"))
    assert reason == "coqchk rejected the development: bad .vo"


def test_the_environment_digest_follows_coqpath_and_library_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = ["From Coquelicot Require Import Complex.\nFrom Ropecheck Require Import Defs.\n"]
    assert required_libraries(sources) == {"Coquelicot": {"Complex"}}
    monkeypatch.delenv("COQPATH", raising=False)
    plain = environment_digest(sources, "-q")
    assert environment_digest(sources, "-q") == plain
    assert environment_digest(sources, "-q -w all") != plain  # the flags
    library = tmp_path / "Coquelicot"
    library.mkdir()
    (library / "Complex.vo").write_bytes(b"one")
    monkeypatch.setenv("COQPATH", str(tmp_path))
    first = environment_digest(sources, "-q")
    assert first != plain
    (library / "Complex.vo").write_bytes(b"two")  # same size, same path: the content digest tells them apart
    os.utime(library / "Complex.vo", ns=(0, 0))
    assert environment_digest(sources, "-q") != first
