"""M-RoPE 3-D position ids (issue #22): the reference tables are the published rule, and the installed
transformers' `get_rope_index` is checked against them; a broken generator fails."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("transformers")
from ropecheck.numeric.audit.attention._mrope_index import (
    CASES,
    Segment,
    _generator,
    audit_position_ids,
    check_position_ids,
    reference_positions,
)

VIDEO = [Segment("text", 3), Segment("video", grid=(4, 4, 4), seconds=1.0), Segment("text", 2)]


def test_reference_table_for_text_video_text_is_the_published_rule() -> None:
    # Three text tokens, a (4, 4, 4) video at 1 s per grid with 4 tokens per second, two text tokens: the
    # temporal stream steps by 4 per frame and the trailing text resumes at max of all streams + 1.
    table = reference_positions(VIDEO, merge=2, interval_per_second=4, split_frames=False)
    assert table[0].tolist() == [0, 1, 2, *[3] * 4, *[7] * 4, *[11] * 4, *[15] * 4, 16, 17]
    assert table[1].tolist() == [0, 1, 2, *[3, 3, 4, 4] * 4, 16, 17]
    assert table[2].tolist() == [0, 1, 2, *[3, 4, 3, 4] * 4, 16, 17]


def test_reference_fractional_interval_rounds_after_multiplying() -> None:
    half = [Segment("video", grid=(4, 2, 2), seconds=0.5)]
    assert reference_positions(half, 2, 1, False)[0].tolist() == [0, 0, 1, 1]  # ⌊k·1·0.5⌋, not k·⌊0.5⌋ = 0


def test_image_positions_of_the_installed_qwen2_vl_and_qwen3_vl_match() -> None:
    for model_type in ("qwen2_vl", "qwen3_vl", "glm4v"):
        assert check_position_ids(model_type, "image", *CASES["image"]).status == "ok"


def test_installed_qwen2_5_vl_text_after_video_defect_is_reported() -> None:
    finding = check_position_ids("qwen2_5_vl", "video", VIDEO)
    resumed = finding.details["text_after_vision"]
    assert finding.status == "fail"
    assert resumed["expected"] == 16
    if resumed["got"] != resumed["expected"]:  # transformers 5.3.0: start + max(h, w)/m = 3 + 2
        assert "resumes at" in finding.message


def test_a_generator_with_a_shifted_height_stream_fails() -> None:
    installed, _, _ = _generator("qwen2_vl")

    def shifted(*args, **kwargs):
        positions, delta = installed(*args, **kwargs)
        positions = positions.clone()
        positions[1] += 1
        return positions, delta

    finding = check_position_ids("qwen2_vl", "image", *CASES["image"], generator=shifted)
    assert finding.status == "fail" and "stream h" in finding.message


def test_every_case_runs_for_every_generator() -> None:
    findings = [f for model_type in ("qwen2_vl", "qwen2_5_vl", "qwen3_vl", "glm4v")
                for f in audit_position_ids(model_type)]
    assert len(findings) == 4 * len(CASES)
    assert all(f.status in {"ok", "fail"} for f in findings), [f.message for f in findings if f.status == "info"]
    assert all(np.asarray(f.details["expected"]).shape[0] == 3 for f in findings)
