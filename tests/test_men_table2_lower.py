"""MEN-TABLE2-D128's lower side (proofs/coq/MenTable2Lower.v, ISSUE #33): B(m) = Σ_{k<64} cos(m·b^(−k/64)) ≥ 0 for
every real m ∈ [0, 12222.62] with b = 3.1·10⁵ and m ∈ [0, 22465.54] with b = 6.4·10⁵, decided by one machine-integer
checker over the unit phases of MenTable2Phases.v.

The generated phases file must be what its generator prints; the kernel must refuse each theorem once its interval
reaches past the first zero (12222.6266…, 22465.5468…); and the checker itself must answer `false` on a perturbed
input (the starting powers halved, so every B(m) it sees is about half, below the chord loss K/4 at the dips)."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest
from ropecheck.proofs import coq_available
from ropecheck.proofs.claims import _men_table2_gen

from ._wrong_statements import check_wrong_statements

COQ = Path(__file__).resolve().parents[1] / "proofs" / "coq"


def test_phases_file_is_what_the_generator_prints() -> None:
    assert (COQ / "MenTable2Phases.v").read_text() == _men_table2_gen.phases_file()


def test_centres_are_within_half_a_unit_of_the_phases() -> None:
    import mpmath

    scale = 2**_men_table2_gen.SCALE_BITS
    with mpmath.workdps(30):
        for base in (_men_table2_gen.BASE_16K, _men_table2_gen.BASE_32K):
            for k, (x, y) in enumerate(_men_table2_gen.unit_phase_centres(base)):
                angle = mpmath.power(base, mpmath.mpf(-k) / 64)
                assert abs(x - scale * mpmath.cos(angle)) <= 0.5 and abs(y - scale * mpmath.sin(angle)) <= 0.5


@pytest.mark.skipif(not coq_available(), reason="coqc is not installed")
def test_lower_side_is_rejected_past_the_first_zero() -> None:
    outcomes = check_wrong_statements(
        {
            "men_table2_16k_lower": [("0 <= m <= 1222262 / 100 ->", "0 <= m <= 1222263 / 100 ->")],
            "men_table2_32k_lower": [("0 <= m <= 2246554 / 100 ->", "0 <= m <= 2246555 / 100 ->")],
        }
    )
    assert outcomes == {
        "men_table2_16k_lower": ["control accepted", "rejected"],
        "men_table2_32k_lower": ["control accepted", "rejected"],
    }, outcomes


_PERTURBED_CHECK = """From Coq Require Import ZArith List.
From Ropecheck Require Import MenTable2Lower.
Goal fst (walk centres_int_16k kquarter_16k walk_16k (Uint63.of_Z 0)
            (map (fun w => (PrimInt63.lsr (fst w) (Uint63.of_Z 1), PrimInt63.lsr (snd w) (Uint63.of_Z 1)))
                 (powers_at centres_int_16k 0))) = false.
Proof. vm_compute. reflexivity. Qed.
"""


@pytest.mark.deep
@pytest.mark.skipif(not coq_available(), reason="coqc is not installed")
def test_checker_answers_false_on_halved_powers() -> None:
    from ropecheck.proofs.kernel._kernel_build import materialise

    with tempfile.TemporaryDirectory() as tmp:
        build = Path(tmp)
        status = materialise(build)
        assert status["Ropecheck.MenTable2Lower"].compiled, status["Ropecheck.MenTable2Lower"]
        (build / "PerturbedCheck.v").write_text(_PERTURBED_CHECK)
        done = subprocess.run(
            ["coqc", "-R", ".", "Ropecheck", "PerturbedCheck.v"], cwd=build, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr
