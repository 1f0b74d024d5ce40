"""The sinusoidal, bias and scores kinds: correct implementations get no false alarm; each bug class is caught by
its root-cause property alone; every property of every kind fails on some buggy target (issue #13)."""

from __future__ import annotations

import numpy as np
import pytest
from ropecheck.numeric.audit import AuditError, audit
from ropecheck.numeric.audit.kinds.encodings import PROPERTIES

SIN = "tests.audit_corpus.sinusoidal_impls"
BIAS = "tests.audit_corpus.bias_impls"
SCORES = "tests.audit_corpus.scores_impls"
FAST = {
    "sinusoidal": {"max_position": 4096, "dtypes": "float32,bfloat16,float64"},
    "bias": {"max_position": 4096, "dtypes": "float32,bfloat16,float64"},
    "scores": {"max_position": 1024, "dtypes": "float32,bfloat16,float64"},
}
JAX_FAST = {"dtypes": "float32"}

CORRECT = [
    ("sinusoidal", f"{SIN}:sin_interleaved", {}),
    ("sinusoidal", f"{SIN}:sin_concat_t2t", {"layout": "concat", "frequencies": "t2t"}),
    ("sinusoidal", f"{SIN}:sin_fairseq_offset", {"offset": 2}),
    ("sinusoidal", f"{SIN}:SinTable", {}),
    ("sinusoidal", f"{SIN}:tf_marian_table", {"layout": "concat", "frequencies": "standard"}),
    ("sinusoidal", f"{SIN}:sin_concat_torch", {}),
    ("sinusoidal", f"{SIN}:sin_interleaved_jax", JAX_FAST),
    ("bias", f"{BIAS}:t5_bias", {"scheme": "t5:buckets=32,max_distance=128,bidirectional=true"}),
    ("bias", f"{BIAS}:t5_causal", {"scheme": "t5:bidirectional=false"}),
    ("bias", f"{BIAS}:t5_torch", {}),
    ("bias", f"{BIAS}:alibi_bias", {"scheme": "alibi"}),
    ("bias", f"{BIAS}:alibi_causal_12", {}),
    # m·k cast to a 16-bit dtype rounds the row constant softmax sees (issue #20): correct in float32 and wider only.
    ("bias", f"{BIAS}:alibi_bloom_torch", {"dtypes": "float32,float64"}),
    ("bias", f"{BIAS}:alibi_jax", {**JAX_FAST, "max_position": 1024}),
    ("scores", f"{SCORES}:shaw_scores", {"clip": 4}),
    ("scores", f"{SCORES}:rope_scores", {}),
    ("scores", f"{SCORES}:bias_scores", {}),
    ("scores", f"{SCORES}:shaw_torch", {}),
]

# (kind, target, options, bug class, the one property that must fail)
BUGGY = [
    ("sinusoidal", f"{SIN}:bug_flipped_exponent", {}, "flipped ω sign (SPE-FREQUENCY-004)", "spectrum"),
    ("sinusoidal", f"{SIN}:bug_flipped_exponent_jax", JAX_FAST, "flipped ω sign (jax)", "spectrum"),
    ("sinusoidal", f"{SIN}:sin_concat_t2t", {"frequencies": "standard"}, "t2t vs standard frequencies", "spectrum"),
    ("sinusoidal", f"{SIN}:sin_concat_t2t", {"layout": "interleaved"}, "concat/interleaved mismatch", "layout"),
    ("sinusoidal", f"{SIN}:bug_off_by_one", {}, "off-by-one offset", "positions"),
    ("sinusoidal", f"{SIN}:sin_fairseq_offset", {}, "fairseq offset undeclared", "positions"),
    ("sinusoidal", f"{SIN}:bug_positions_ignored", {}, "positions ignored", "positions"),
    ("sinusoidal", f"{SIN}:bug_positions_float16", {}, "16-bit positions", "precision"),
    ("sinusoidal", f"{SIN}:bug_positions_half_torch", {"dtypes": "float32,bfloat16"}, "16-bit positions (torch)",
     "precision"),
    ("sinusoidal", f"{SIN}:bug_overwrite_in_place", {}, "in-place overwrite (TF Marian)", "relative"),
    ("sinusoidal", f"{SIN}:bug_column_index", {}, "sin/cos of a pair at different frequencies", "relative"),
    ("sinusoidal", f"{SIN}:BugAliasedTable", {}, "returned rows alias the table", "state"),
    ("sinusoidal", f"{SIN}:BugSinInPlace", {}, "table overwritten in place on every call", "state"),
    ("sinusoidal", f"{SIN}:BugGrowsFromLength", {}, "table grown from the call length (past ignored)", "state"),
    ("sinusoidal", f"{SIN}:bug_cos_first", {}, "pairs stored (cos, sin)", "shift"),
    ("bias", f"{BIAS}:bug_t5_no_clamp", {}, "missing bucket clamp", "buckets"),
    ("bias", f"{BIAS}:bug_t5_always_bidirectional", {"scheme": "t5:bidirectional=false"},
     "ignored bidirectional flag", "buckets"),
    ("bias", f"{BIAS}:bug_t5_flipped_sign", {}, "flipped relative sign", "sign"),
    ("bias", f"{BIAS}:bug_t5_log_formula", {}, "wrong log-bucket formula", "buckets"),
    ("bias", f"{BIAS}:bug_alibi_naive_slopes", {}, "naive non-power-of-two ALiBi slopes", "slopes"),
    ("bias", f"{BIAS}:bug_alibi_reversed", {}, "reversed slopes", "slopes"),
    ("bias", f"{BIAS}:bug_alibi_reversed_jax", {**JAX_FAST, "max_position": 1024}, "reversed slopes (jax)", "slopes"),
    ("bias", f"{BIAS}:bug_alibi_wrong_sign", {}, "wrong bias sign", "sign"),
    ("bias", f"{BIAS}:bug_alibi_distance_float16", {"dtypes": "float32"}, "16-bit distances", "precision"),
    ("bias", f"{BIAS}:bug_alibi_positions_torch", {}, "positions ignored (torch)", "relative"),
    ("bias", f"{BIAS}:bug_bias_top_slice", {}, "decoding row sliced from the top", "cache"),
    ("scores", f"{SCORES}:bug_absolute_key_embedding", {}, "absolute position leaks into scores", "relative"),
    ("scores", f"{SCORES}:bug_shaw_unclipped_past", {}, "Shaw table clipped on one side", "clipping"),
    ("scores", f"{SCORES}:bug_shaw_unclipped_torch", {}, "Shaw table clipped on one side (torch)", "clipping"),
    ("scores", f"{SCORES}:shaw_scores", {"clip": 3}, "Shaw clipping distance differs from declared", "clipping"),
    ("scores", f"{SCORES}:bug_log_softmax", {}, "normalised scores (log-softmax)", "linearity"),
    ("scores", f"{SCORES}:bug_dynamic_base_by_keys", {}, "frequencies depend on the number of keys", "cache"),
]


def _options(kind: str, options: dict) -> dict:
    return {**FAST[kind], **options}


@pytest.mark.parametrize(("kind", "target", "options"), CORRECT,
                         ids=[f"{kind}-{t.split(':')[1]}" for kind, t, _ in CORRECT])
def test_correct_implementation_has_no_false_alarm(kind: str, target: str, options: dict) -> None:
    report = audit(target, kind=kind, **_options(kind, options))
    assert report.failures() == [], [f.to_json() for f in report.failures()]
    assert report.verdict == "pass" and report.kind == kind
    evaluated = {f.property for f in report.findings} | set(report.not_evaluated)
    assert evaluated == set(PROPERTIES[kind])


@pytest.mark.parametrize(("kind", "target", "options", "bug", "prop"), BUGGY, ids=[b[3] for b in BUGGY])
def test_bug_is_caught_by_its_root_cause_alone(kind: str, target: str, options: dict, bug: str, prop: str) -> None:
    report = audit(target, kind=kind, **_options(kind, options))
    failing = {f.property for f in report.failures()}
    assert report.verdict == "fail"
    assert failing == {prop}, f"{bug}: expected only {prop} to fail, got {failing}"
    assert report.root_causes[0]["property"] == prop and report.summary.startswith("FAIL")
    for finding in report.failures():
        assert finding.detail and finding.claims and finding.fix


def test_every_property_of_every_kind_fails_on_some_bug() -> None:
    for kind, properties in PROPERTIES.items():
        caught = {prop for k, *_, prop in BUGGY if k == kind}
        assert caught | {"contract"} == set(properties), (kind, set(properties) - caught)


@pytest.mark.parametrize("kind", ["sinusoidal", "bias", "scores"])
def test_contract_fails_on_a_wrong_shape(kind: str) -> None:
    def sinusoidal(positions):
        return np.zeros((len(positions) + 1, 8))

    def bias(q, k):
        return np.zeros((len(q), len(k)))

    def scores(q, k, qp, kp):
        return np.zeros((len(k), len(q) + 1))

    target = {"sinusoidal": sinusoidal, "bias": bias, "scores": scores}[kind]
    report = audit(target, kind=kind, **FAST[kind])
    assert {f.property for f in report.failures()} == {"contract"}


def test_detections_are_reported() -> None:
    report = audit(f"{SIN}:sin_fairseq_offset", kind="sinusoidal", offset=2, max_position=2048, dtypes="float32")
    assert (report.detected["layout"], report.detected["frequencies"], report.detected["offset"]) == (
        "concat", "t2t", 2)
    report = audit(f"{BIAS}:alibi_causal_12", kind="bias", max_position=1024, dtypes="float32")
    assert report.detected["scheme"] == {"name": "alibi"} and report.detected["alibi_heads"] == 12
    report = audit(f"{SCORES}:shaw_scores", kind="scores", max_position=512, dtypes="float32")
    assert (report.detected["clip_future"], report.detected["clip_past"]) == (4, 4)


def test_precision_names_the_first_position_and_the_class() -> None:
    report = audit(f"{SIN}:bug_positions_float16", kind="sinusoidal", max_position=4096, dtypes="float32")
    finding = next(f for f in report.failures() if f.property == "precision")
    assert finding.position == 2049 and "float16" in finding.detail
    assert report.certified["float32"]["largest_position"] < 2049 <= 4095


def test_json_keeps_the_rope_report_shape() -> None:
    data = audit(f"{BIAS}:bug_alibi_wrong_sign", kind="bias", max_position=1024, dtypes="float32").to_json()
    for key in ("target", "kind", "verdict", "summary", "root_causes", "findings", "dtypes", "certified"):
        assert key in data
    assert data["kind"] == "bias" and data["verdict"] == "fail"
    assert data["findings"][0]["property"] == "contract"
    assert any(f["status"] == "explained" for f in data["findings"])


@pytest.mark.parametrize(
    ("kind", "options", "message"),
    [
        ("sinusoidal", {"layout": "half"}, "^layout for kind='sinusoidal' must be"),
        ("sinusoidal", {"frequencies": "log"}, "^frequencies must be"),
        ("sinusoidal", {"scheme": "alibi"}, "takes no scheme"),
        ("bias", {"scheme": "t5:buckets=x"}, "positive integer"),
        ("bias", {"scheme": "t5:colour=red"}, "unknown setting"),
        ("bias", {"scheme": "__import__('os')"}, "^scheme must be"),
        ("bias", {"max_position": 512}, "^max_position must be an integer of at least 640 for kind='bias'"),
        ("scores", {"clip": -1}, "^clip must be"),
        ("scores", {"offset": 3}, "takes no offset"),
        ("rope", {"scheme": "alibi"}, "^kind='rope' takes no scheme"),
    ],
)
def test_bad_options_are_audit_errors(kind: str, options: dict, message: str) -> None:
    # From Python the error names keywords (`max_position`, `kind='bias'`), never command-line flags.
    target = {"sinusoidal": f"{SIN}:sin_interleaved", "bias": f"{BIAS}:t5_bias", "scores": f"{SCORES}:rope_scores",
              "rope": "tests.audit_corpus.numpy_impls:rope_half"}
    with pytest.raises(AuditError, match=message) as error:
        audit(target[kind], kind=kind, **{**FAST.get(kind, {}), **options})
    assert "--" not in str(error.value)


def test_a_probe_the_target_rejects_is_could_not_call_never_a_math_failure() -> None:
    def scores(q, k, q_positions, k_positions):  # a kernel that requires increasing key positions
        if np.any(np.diff(k_positions) <= 0):
            raise ValueError("key positions must be strictly increasing")
        return np.asarray(q, dtype=np.float32) @ np.asarray(k, dtype=np.float32).T

    report = audit(scores, kind="scores", max_position=512, dtypes="float32")
    rejected = [f for f in report.findings if f.status == "could not call"]
    assert [f.property for f in rejected] == ["relative"] and "strictly increasing" in rejected[0].detail
    assert report.root_causes == [] and "Could not call" in report.summary
    assert report.verdict == "fail" and "cache" in report.not_evaluated


@pytest.mark.deep
@pytest.mark.parametrize(("kind", "target", "options"), CORRECT,
                         ids=[f"deep-{kind}-{t.split(':')[1]}" for kind, t, _ in CORRECT])
def test_correct_implementation_in_every_dtype_at_32768_positions(kind: str, target: str, options: dict) -> None:
    if "jax" in target:
        pytest.importorskip("jax")
    wide = {"max_position": 32768, "dtypes": "float32,bfloat16,float16,float64"}
    if "jax" in target:
        wide["dtypes"] = "float32,bfloat16,float16"
    report = audit(target, kind=kind, **{**options, **wide})
    assert report.failures() == [], [f.to_json() for f in report.failures()]
