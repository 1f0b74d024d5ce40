"""The kinds' built-in adapters on real libraries (no weights): what conforms, and the defects found (README)."""

from __future__ import annotations

import pytest
from ropecheck.numeric.audit import audit
from ropecheck.numeric.audit.adapters.kinds import find_adapter, list_kind_adapters

QUICK = {"max_position": 1024, "dtypes": "float32"}

CONFORMING = [
    "x-transformers.relative-position-bias",
    "x-transformers.alibi",
    "x-transformers.scaled-sinusoidal",
    "transformers.t5-bias",
    "transformers.t5-bias-decoder",
    "transformers.bloom-alibi",
    "transformers.mpt-alibi",
    "transformers.marian-sinusoidal",
    "transformers.m2m100-sinusoidal",
    "keras-hub.sine-position-encoding",
    "keras-hub.alibi",
]


def _available(name: str) -> None:
    adapter = find_adapter(name)
    assert adapter is not None
    reason = adapter.unavailable()
    if reason:
        pytest.skip(reason)


@pytest.mark.parametrize("name", CONFORMING)
def test_builtin_conforms_in_float32(name: str) -> None:
    _available(name)
    report = audit(name, kind=find_adapter(name).kind, **QUICK)
    assert report.failures() == [], [f.to_json() for f in report.failures()]


def test_t5_buckets_are_read_through_the_table() -> None:
    _available("transformers.t5-bias")
    report = audit("transformers.t5-bias", kind="bias", **QUICK)
    assert report.detected["table_readable"] is True
    sign = next(f for f in report.findings if f.property == "sign")
    assert sign.ok and "table" in sign.detail


def test_falcon_alibi_is_computed_in_bfloat16() -> None:
    _available("transformers.falcon-alibi")
    report = audit("transformers.falcon-alibi", kind="bias", **QUICK)
    assert {f.property for f in report.failures()} == {"precision"}
    assert "bfloat16" in report.failures()[0].detail


def test_speech2text_table_ignores_the_past_length() -> None:
    _available("transformers.speech2text-sinusoidal")
    report = audit("transformers.speech2text-sinusoidal", kind="sinusoidal", max_position=2048, dtypes="float32")
    assert {f.property for f in report.failures()} == {"state"}
    assert "fresh instance raises" in report.failures()[0].detail


def test_sixteen_bit_layers_fail_precision_only() -> None:
    _available("keras-hub.sine-position-encoding")
    report = audit(
        "keras-hub.sine-position-encoding", kind="sinusoidal", max_position=1024, dtypes="float32,bfloat16"
    )
    assert {f.property for f in report.failures()} == {"precision"}
    assert report.certified["bfloat16"]["largest_position"] < 1023


def test_every_adapter_is_listed_with_a_kind() -> None:
    names = [adapter.name for adapter in list_kind_adapters()]
    assert len(names) == len(set(names)) >= 13
    assert {adapter.kind for adapter in list_kind_adapters()} == {"sinusoidal", "bias"}


@pytest.mark.deep
@pytest.mark.parametrize("name", [adapter.name for adapter in list_kind_adapters()])
def test_builtin_in_every_dtype_at_32768_positions(name: str) -> None:
    _available(name)
    adapter = find_adapter(name)
    report = audit(name, kind=adapter.kind, max_position=32768, dtypes="float32,bfloat16,float16,float64")
    assert report.verdict in ("pass", "fail") and report.findings


def _readme_defects() -> list[tuple[list[str], str]]:
    import re
    import shlex
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- kinds-defects -->", 1)[1].split("<!-- /kinds-defects -->", 1)[0]
    rows = []
    for line in block.strip().splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        finding = re.findall(r"\(`(\w+)`", cells[1])[-1]
        rows.append((shlex.split(cells[2].strip("`"))[2:], finding))
    return rows


@pytest.mark.parametrize(("argv", "prop"), _readme_defects(), ids=[a[0] for a, _ in _readme_defects()])
def test_readme_defect_reproduces(argv: list[str], prop: str, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from ropecheck.cli._audit import main

    _available(argv[0])
    assert main([*argv, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [root["property"] for root in data["root_causes"]] == [prop]
