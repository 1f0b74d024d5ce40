"""One `test_<claim id>` per ledger claim: the kernel's verdict matches the expected one, and so does the engine.

The expected verdicts below are the *oracle* (what a careful reader concludes). The ledger's verdict comes
from the Coq kernel (`ropecheck.proofs.claims._verdicts`): proved only with a checked verdict theorem, refuted only
with a checked negation (and a checked correction). Without coqc every verdict must read "engine only (kernel not
run)". The SymPy engine's decision is checked beside it: wherever it decides, it agrees with the oracle, and
its counterexamples are re-checked independently with mpmath at 60 digits.
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import pytest
import sympy as sp
from ropecheck.proofs import ENGINE_ONLY, Claim, Verdict, all_claims, coq_available, get_claim
from ropecheck.proofs.claims._source_documents import source_document
from ropecheck.proofs.engine._statements import Identity
from ropecheck.proofs.kernel._kernel import is_standard_axiom

from ._scaling_expected import SCALING_EXPECTED

EXPECTED = {
    "ATT-SOFTMAX-PERMUTATION": "proved",
    "ATT-EQUIVARIANCE": "proved",
    "ATT-PE-BREAKS-EQUIVARIANCE": "proved",
    "SPE-DOT-RELATIVE": "proved",
    "SPE-SHIFT-ROTATION": "proved",
    "SPE-SHIFT-ROTATION-004": "refuted",
    "SPE-FREQUENCY-004": "proved",  # the formula meant (ω = 1/10000^{2i/d}); the printed one is a refuted note
    "SPE-WAVELENGTH-RANGE": "proved",
    "SPE-SLOWEST-WAVE-004": "proved",
    "SPE-TOKEN-SUM-BREAKS": "proved",
    "SPE-QK-EXPANSION": "proved",  # the four terms summed; the printed "." (product) is a refuted note
    "SPE-ADDITIVE-EXPANSION-003": "proved",
    "SPE-SHIFT-LINEAR-004": "proved",
    "SPE-LAST-TERM-RELATIVE": "refuted",
    "SPE-DOT-NONMONOTONE": "proved",
    "SPE-DOT-AVERAGES-OUT": "proved",
    "RPE-SHIFT-INVARIANCE": "proved",
    "RPE-KV-CACHE-IMPOSSIBLE": "refuted",
    "ROPE-COMPLEX-INNER-PRODUCT": "proved",
    "ROPE-REAL-PART-COS-ONLY": "proved",
    "ROPE-KV-COS-ONLY": "refuted",
    "ROPE-COMPLEX-IS-ROTATION": "proved",
    "ROPE-PAIR-FORMULA": "proved",
    "ROPE-RELATIVE-MATRIX": "proved",
    "ROPE-QK-RELATIVE": "proved",
    "ROPE-GENERAL-FORM": "proved",
    "ROPE-SCORE-SINE-TERM-003": "refuted",
    "ROPE-DOT-PROPERTY-003": "proved",
    "ROPE-SHIFT-INVARIANCE-003": "proved",
    "ROPE-NORM-PRESERVING": "proved",
    "ROPE-FREQUENCIES": "proved",
    "ROPE-DECAY-TO-ZERO": "refuted",
    "ROPE-DECAY-BOUND": "proved",
    "ROPE-DECAY-BOUND-MONOTONE": "proved",  # the trend of RoFormer Fig. 2; "monotone" is the refuted literal
    "ROPE-DECAY-MONOTONE": "refuted",
    "ROPE-LINEAR-ATTENTION-SEED": "refuted",
    "ROPE-LINEAR-ATTENTION-ROFORMER": "proved",
    "ROPE-KV-CACHE-REUSE": "proved",
    "ROPE-PREFIX-REPHASE": "proved",
    "ROPE-KV-CACHE-SIZE": "proved",
    "ATT-DOT-SYMMETRIC": "proved",
    "ATT-CAUSAL-ROW": "refuted",
    "ROPE-FULL-STRENGTH-AT-ZERO": "proved",
    "ROPE-LINEAR-ATTENTION-004": "refuted",  # norm preservation does not keep the rotated normaliser ≥ 0
    "ROPE-ABS-AND-REL": "proved",  # every even d but 2, 4, 8 (Positions.v); those would need π irrational
    "SPE-UNIQUE-POSITION": "proved",  # likewise
    "SPE-LINEAR-ATTENTION-INCOMPATIBLE": "refuted",
    # ISSUE #18 point 9 (proofs/claims/_claims_{relative,sinusoidal,binary,cache,rope}.py and their topics' .v files)
    "RPE-CLIP-INDISTINGUISHABLE": "proved",
    "RPE-OFFSET-COUNT": "proved",
    "RPE-BREAKS-LINEAR-ATTENTION": "proved",  # proofs/coq/LinearBias.v
    "SPE-FREQUENCIES-DECREASING": "proved",
    "SPE-DISTINCT-WAVELENGTHS": "proved",
    "SPE-SMOOTHNESS-004": "proved",
    "BINARY-3-TO-4-FLIPS-004": "proved",
    "BINARY-TABLE-004": "proved",
    "ROPE-CACHED-KEY-POSITIONAL-003": "proved",
    "ROPE-SINE-TERM-WHOLE-SCORE-003": "proved",
    "SPE-ADD-CHANGES-NORM-DIRECTION-004": "proved",
    "APE-PREFIX-STALE-003": "proved",
}
EXPECTED.update(SCALING_EXPECTED)  # the context-extension literature (ISSUE #33)


def _interval_contains_zero(text: str) -> bool:
    lo, hi = (mpmath.mpf(x) for x in text.strip("[]").split(","))
    return bool(lo <= 0 <= hi)


def _identities(statement: object) -> list[Identity]:
    if statement is None:
        return []
    if isinstance(statement, Identity):
        return [statement]
    found: list[Identity] = []
    for attribute in ("parts", "steps"):
        for part in getattr(statement, attribute, ()) or ():
            found += _identities(part)
    for attribute in ("inner", "against", "base", "step"):
        found += _identities(getattr(statement, attribute, None))
    return found


def _largest_residual_at(identity: Identity, point: dict[str, sp.Expr]) -> float:
    lhs, rhs = (sp.sympify(side) for side in (identity.lhs, identity.rhs))
    residuals = list(lhs - rhs) if isinstance(lhs, sp.MatrixBase) else [lhs - rhs]
    symbols = {s for r in residuals for s in r.free_symbols}
    if {str(s) for s in symbols} - set(point):
        return 0.0
    substitution = {s: point[str(s)] for s in symbols}
    return max(abs(complex(sp.N(r.xreplace(substitution), 60))) for r in residuals)


def _recheck_counterexample_with_mpmath(claim: Claim) -> None:
    """Substitute the counterexample into the claim's identities and evaluate at 60 digits, independently."""
    decision = claim.decide()
    assert decision.counterexample is not None
    identities = _identities(claim.statement)
    if not identities or not decision.counterexample.point:
        return  # witness-style refutations: their certified value is checked through the interval
    point = {k: sp.sympify(v) for k, v in decision.counterexample.point.items()}
    assert max(_largest_residual_at(identity, point) for identity in identities) > 1e-30


def _check_kernel(claim: Claim, expected: str) -> None:
    """The kernel's verdict, its theorems and their axioms."""
    kernel = claim.kernel()
    if not coq_available():
        assert kernel.verdict == ENGINE_ONLY, kernel
        return
    assert kernel.verdict == expected, kernel.reason
    roles = {t.role: t for t in kernel.theorems if t.status == "checked"}
    for theorem in kernel.theorems:
        if theorem.status == "checked":
            assert all(is_standard_axiom(a) for a in theorem.axioms), theorem
    if expected == "proved":
        assert "verdict" in roles and "negation" not in roles, kernel.theorems
    if expected == "refuted":
        assert "negation" in roles and "verdict" not in roles, kernel.theorems
        assert kernel.correction == "proved", f"{claim.id}: refuted without a kernel-checked correction"
    if expected == "unknown":
        assert kernel.reason, "an unknown verdict says why"


def _check(claim_id: str) -> None:
    claim = get_claim(claim_id)
    _check_kernel(claim, EXPECTED[claim_id])
    decision = claim.decide()  # the engine's derivation: it may stay undecided, but never disagrees
    assert str(decision.verdict) in (EXPECTED[claim_id], "unknown"), (decision.method, decision.steps)
    assert claim.sources and all(s.quote.strip() for s in claim.sources)
    assert all(source_document(s.key) is not None for s in claim.sources), [s.key for s in claim.sources]
    if decision.verdict is Verdict.REFUTED:
        counterexample = decision.counterexample
        assert counterexample is not None
        if counterexample.interval:
            assert any(not _interval_contains_zero(text) for text in counterexample.interval.values())
        else:
            assert counterexample.description, "a refutation without an interval must describe its construction"
        _recheck_counterexample_with_mpmath(claim)
        assert claim.correction is not None, "a refuted claim carries its corrected statement"
    entry = claim.to_json()
    assert entry["verdict"] == claim.kernel().verdict and entry["test"] == claim.test_name
    assert entry["kernel_theorems"] == [t.to_json() for t in claim.kernel().theorems]


def _make_test(claim_id: str) -> Callable[[], None]:
    def test() -> None:
        _check(claim_id)

    test.__name__ = "test_" + claim_id.lower().replace("-", "_")
    test.__doc__ = f"{claim_id}: live verdict {EXPECTED[claim_id]!r} with a valid certificate."
    return test


for _claim_id in EXPECTED:
    globals()["test_" + _claim_id.lower().replace("-", "_")] = _make_test(_claim_id)


def test_every_ledger_claim_has_an_expected_verdict_and_a_test() -> None:
    ids = [c.id for c in all_claims()]
    assert sorted(ids) == sorted(EXPECTED), set(ids) ^ set(EXPECTED)
    for claim in all_claims():
        assert callable(globals().get(claim.test_name)), claim.test_name


@pytest.mark.parametrize("claim_id", ["ROPE-KV-COS-ONLY", "ROPE-SCORE-SINE-TERM-003"])
def test_refutations_are_mathematical_not_rounding(claim_id: str) -> None:
    """The certified residual of these refutations is of order 1, far from any rounding level."""
    counterexample = get_claim(claim_id).decide().counterexample
    assert counterexample is not None
    lo, hi = (abs(mpmath.mpf(x)) for x in counterexample.interval["re"].strip("[]").split(","))
    assert min(lo, hi) > 1e-6


def test_engine_and_kernel_agree_wherever_both_decide() -> None:
    decided = {"proved", "refuted"}
    disagreements = [
        (c.id, str(c.decide().verdict), c.verdict)
        for c in all_claims()
        if str(c.decide().verdict) in decided and c.verdict in decided and str(c.decide().verdict) != c.verdict
    ]
    assert not disagreements


def test_no_verdict_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """With coqc missing, no claim reads plain "proved" or "refuted"."""
    from ropecheck.proofs.claims import _verdicts
    from ropecheck.proofs.kernel import _kernel

    monkeypatch.setenv("ROPECHECK_COQC", "")
    for cached in (_kernel.coqc_path, _kernel.coq_version, _verdicts.kernel_report):
        cached.cache_clear()
    try:
        verdicts = {c.id: c.to_json()["verdict"] for c in all_claims()}
        assert set(verdicts.values()) == {ENGINE_ONLY}, verdicts
    finally:
        monkeypatch.delenv("ROPECHECK_COQC")
        for cached in (_kernel.coqc_path, _kernel.coq_version, _verdicts.kernel_report):
            cached.cache_clear()
