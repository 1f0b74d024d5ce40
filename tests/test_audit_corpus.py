"""The audit corpus: correct implementations get no false alarm; each bug class is caught by its property."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from ropecheck.numeric.audit import PROPERTIES, AuditError, audit

NP = "tests.audit_corpus.numpy_impls"
TORCH = "tests.audit_corpus.torch_impls"
JAX = "tests.audit_corpus.jax_impls"
# Small audits: every property is exercised, the whole file stays within a few seconds per target.
FAST = {"max_position": 4096, "head_dim": 32, "dtypes": "float32,bfloat16,float64"}

CORRECT = [
    (f"{NP}:rope_interleaved", {}),
    (f"{NP}:rope_half", {"base": 10000, "layout": "half"}),
    (f"{NP}:rope_float32_angles", {"base": 10000, "dtypes": "float32,bfloat16,float16,float64"}),
    (f"{NP}:rope_partial", {"base": 10000, "rotary_dim": 16}),
    (f"{NP}:rope_linear4", {"base": 10000, "scaling": "linear:4"}),
    (f"{NP}:rope_linear4", {"scaling": "linear:4"}),
    (f"{NP}:rope_base500k", {}),
    (f"{NP}:GoodRope", {"base": 10000}),
    (f"{TORCH}:rope_half_float32", {"base": 10000}),
]

# (target, options, bug class, the root cause: exactly the properties that fail)
BUGGY = [
    (f"{NP}:bug_clockwise", {"base": 10000}, "clockwise direction", {"direction"}),
    (f"{TORCH}:bug_clockwise", {"base": 10000}, "clockwise direction (torch)", {"direction"}),
    # The shapes of the JAX test below (JAX compiles each shape once per process; direction is size-independent).
    (f"{JAX}:bug_clockwise", {"dtypes": "float32", "max_position": 256, "head_dim": 16}, "clockwise direction (jax)",
     {"direction"}),
    (f"{NP}:bug_wrong_base", {"base": 10000}, "wrong base", {"spectrum"}),
    (f"{NP}:bug_layout_mixed", {"base": 10000}, "layout swapped", {"pairing"}),
    (f"{NP}:rope_interleaved", {"base": 10000, "layout": "half"}, "layout declared wrong", {"pairing"}),
    (f"{TORCH}:bug_angles_float16", {"base": 10000}, "angles formed in float16", {"precision"}),
    (f"{NP}:bug_positions_ignored", {"base": 10000}, "positions ignored (arange)", {"positions"}),
    (f"{NP}:bug_positions_float16", {"base": 10000}, "positions cast to float16", {"precision"}),
    (f"{NP}:bug_missing_sin", {"base": 10000}, "non-rotation: missing sin", {"pairing"}),
    (f"{NP}:bug_scaled", {"base": 10000}, "non-rotation: scaled", {"norm"}),
    (f"{NP}:bug_rms_normalised", {"base": 10000}, "non-rotation: normalised (non-linear)", {"linearity"}),
    (f"{NP}:bug_off_by_one", {"base": 10000}, "off-by-one position", {"identity"}),
    (f"{NP}:bug_mutates_input", {"base": 10000}, "mutates input", {"contract"}),
    (f"{NP}:bug_nondeterministic", {"base": 10000}, "nondeterministic", {"contract"}),
    (f"{NP}:CachedRope", {"base": 10000}, "cache shared across instances ignores a new base", {"state"}),
    (f"{NP}:bug_wrong_shape", {"base": 10000}, "wrong shape", {"contract"}),
    (f"{NP}:bug_nan_output", {"base": 10000}, "NaN output", {"contract"}),
]


@pytest.mark.parametrize(
    ("target", "options"), CORRECT, ids=[f"{t.split(':')[1]}-{i}" for i, (t, _) in enumerate(CORRECT)]
)
def test_correct_implementation_has_no_false_alarm(target: str, options: dict) -> None:
    report = audit(target, **{**FAST, **options})
    assert report.failures() == [], [f.to_json() for f in report.failures()]
    assert report.verdict == "pass"
    assert {f.property for f in report.findings} == set(PROPERTIES)


@pytest.mark.parametrize(("target", "options", "bug", "expected"), BUGGY, ids=[b[2] for b in BUGGY])
def test_bug_fails_by_its_root_cause_alone(target: str, options: dict, bug: str, expected: set[str]) -> None:
    report = audit(target, **{**FAST, **options})
    failing = {f.property for f in report.failures()}
    assert report.verdict == "fail"
    assert failing == expected, f"{bug}: expected exactly {expected} to fail, got {failing}: {report.summary}"
    assert {cause["property"] for cause in report.root_causes} == expected
    for finding in report.failures():
        assert finding.detail and finding.claims and finding.fix
    assert report.summary.startswith("FAIL") and "Fix:" in report.summary


def test_every_property_but_relative_is_some_bug_root_cause() -> None:
    # relative follows from the pointwise checks (ROPE-RELATIVE-MATRIX), so it is never a root cause of its own;
    # test_relative_fails_on_ignored_positions sees it fail.
    caught = set().union(*(expected for *_, expected in BUGGY))
    assert caught == set(PROPERTIES) - {"relative"}


def test_relative_fails_on_ignored_positions_and_is_explained_by_them() -> None:
    report = audit(f"{NP}:bug_positions_ignored", base=10000, **FAST)
    relative = [f for f in report.findings if f.property == "relative"]
    assert relative and all(f.status == "explained" and f.explained_by == "positions" for f in relative)
    assert all("Scores are not shift-invariant" in f.detail for f in relative)


def test_inferred_layout_base_and_direction_are_reported() -> None:
    report = audit(f"{NP}:rope_base500k", **FAST)
    assert "Base not declared: inferred 500000" in report.summary and "Llama 3" in report.summary
    assert (report.layout, report.direction, report.base, report.base_source) == (
        "half",
        "counter-clockwise",
        500000.0,
        "inferred",
    )
    assert audit(f"{NP}:rope_interleaved", **FAST).layout == "interleaved"


def test_positions_beyond_float16_range_are_caught_at_65505() -> None:
    # A targeted large-position check: float16 positions overflow past 65504.
    report = audit(f"{NP}:bug_positions_float16", base=10000, max_position=70000, head_dim=8, dtypes="float32")
    precision = next(f for f in report.findings if f.property == "precision")
    assert not precision.ok and precision.position == 2049 and "float16" in precision.detail
    assert report.certified["float32"]["largest_position"] < 2049


def test_raising_target_is_an_error() -> None:
    with pytest.raises(AuditError, match="RuntimeError: rotary kernel not compiled"):
        audit(f"{NP}:bug_raises", **FAST)


def test_hanging_target_is_stopped() -> None:
    with pytest.raises(AuditError, match=r"did not return within 0\.5 s"):
        audit(f"{NP}:bug_hangs", timeout=0.5, **FAST)


@pytest.fixture
def _jax_without_x64() -> Iterator[None]:
    """JAX's x64 flag is process-global (the numeric mirrors turn it on): pin it off for one test."""
    import jax

    previous = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", False)
    yield
    jax.config.update("jax_enable_x64", previous)


def test_correct_jax_implementation_and_unsupported_dtype(_jax_without_x64: None) -> None:
    # JAX without x64 cannot hold float64: reported unsupported (not a crash), the rest is audited and passes.
    report = audit(
        f"{JAX}:rope_interleaved", base=10000, max_position=256, head_dim=16, dtypes="float32,bfloat16,float64"
    )
    assert report.dtypes["float64"]["status"] == "unsupported"
    assert report.failures() == [], [f.to_json() for f in report.failures()]
    assert report.framework == "jax" and report.verdict == "pass"


def test_callable_and_options_through_python_api() -> None:
    from tests.audit_corpus import numpy_impls

    x_seen = []

    def fn(x, positions):  # a user's own function, passed as an object
        x_seen.append(x.shape)
        return numpy_impls.rope_half(x, positions)

    report = audit(fn, base=10000, layout="half", max_position=512, head_dim=16, dtypes=["float32"])
    assert report.ok and report.target.endswith("fn")
    assert report.to_json()["verdict"] == "pass"
    assert report.target_seconds > 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"base": 0.5}, "^base must be"),
        ({"layout": "zigzag"}, "^layout must be"),
        ({"dtypes": "float8"}, "unknown dtype"),
        ({"scaling": "linear"}, "needs a factor"),
        ({"max_position": 1}, "^max_position must be at least 2"),
        ({"framework": "mlx2"}, "^framework must be"),
    ],
)
def test_bad_options_are_audit_errors(options: dict, message: str) -> None:
    # From Python the error names the keyword (`max_position`), never the command line's flag (`--max-position`).
    with pytest.raises(AuditError, match=message) as error:
        audit(f"{NP}:rope_half", **options)
    assert "--" not in str(error.value)


def test_a_probe_the_target_rejects_is_could_not_call_never_a_math_failure() -> None:
    from tests.audit_corpus import numpy_impls

    def sorted_only(x, positions):  # a kernel that requires increasing positions
        if np.any(np.diff(positions) <= 0):
            raise ValueError("positions must be strictly increasing")
        return numpy_impls.rope_half(x, positions)

    report = audit(sorted_only, base=10000, **FAST)
    rejected = [f for f in report.findings if f.status == "could not call"]
    assert rejected and {f.property for f in rejected} == {"positions"}
    assert all("positions must be strictly increasing" in f.detail for f in rejected)
    assert report.root_causes == [] and report.verdict == "fail"
    assert "no mathematical failure" in report.summary and "Could not call the target for: positions" in report.summary
