"""Issue #5: built-in targets audited end to end — `--list`, the conformance table (`--all`), reproduction
commands, `--module-cast`, and the state property on real libraries (ROPE-KV-CACHE-REUSE)."""

from __future__ import annotations

import json
import shlex

import pytest
from ropecheck.numeric.audit import adapters as _adapters
from ropecheck.numeric.audit import audit
from ropecheck.numeric.audit.adapters import get_adapter, installed_version, is_available, list_adapters
from ropecheck.numeric.audit.adapters.kinds import list_kind_adapters
from ropecheck.numeric.audit.function.scaling import parse_scaling
from ropecheck.numeric.audit.report.conformance import (
    conformance_table,
    render_markdown,
    scaling_spec,
    write_conformance,
)

from ropecheck.cli._audit import main

# Small audits keep the file well inside a minute.
SMALL = {"max_position": 2048, "dtypes": ("float32",)}


def _require(name: str) -> None:
    available, reason = is_available(get_adapter(name))
    if not available:
        pytest.skip(f"{name}: {reason}")


def _state(report) -> object:
    return next(finding for finding in report.findings if finding.property == "state")


def test_list_names_every_builtin_with_its_version_or_why_not(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list"]) == 0
    out = capsys.readouterr().out.splitlines()
    body = out[next(i for i, line in enumerate(out) if line.startswith("NAME")) + 1:]
    # One block per target: its name line, then indented lines (layout or kind; the defaults `audit NAME` uses).
    blocks: list[tuple[str, str]] = []
    for line in body:
        if line.startswith(" "):
            blocks[-1] = (blocks[-1][0], f"{blocks[-1][1]} {line.strip()}".strip())
        else:
            blocks.append((line, ""))
    kinds = list_kind_adapters()  # the sinusoidal, bias and scores built-ins follow the RoPE ones
    assert len(blocks) == len(list_adapters()) + len(kinds)
    for adapter, (line, detail) in zip(kinds, blocks[len(list_adapters()):], strict=True):
        assert line.split()[0] == adapter.name and f"kind {adapter.kind}" in detail and "defaults:" in detail
    for spec, (line, detail) in zip(list_adapters(), blocks, strict=False):
        assert line.split()[0] == spec.name and detail.startswith(spec.layout)
        assert f"defaults: base {spec.default_base:g}" in detail
        available, reason = is_available(spec)
        if available:
            assert str(installed_version(spec)) in line
        else:
            assert ("skipped: needs a GPU" if spec.needs_gpu else "not installed") in line, (line, reason)


def test_list_json_and_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["name"] for row in rows} == {spec.name for spec in list_adapters()} | {
        adapter.name for adapter in list_kind_adapters()
    }
    assert {"library", "version", "layout", "wraps", "positions"} <= set(rows[0])
    for argv, message in [
        (["transformers", "--all"], "--all audits every built-in"),
        (["--all", "--json", "--markdown"], "choose one"),
        (["--all", "--base", "500000"], "its own defaults"),
        (["tests.audit_corpus.numpy_impls:rope_half", "--module-cast"], "built-in targets only"),
    ]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_scaling_spec_round_trips_every_default_scaling() -> None:
    for spec in list_adapters():
        text = scaling_spec(spec.default_scaling)
        if spec.default_scaling is None:
            assert text is None
            continue
        parsed = parse_scaling(text).to_huggingface()
        for key, value in spec.default_scaling.items():
            if key != "type":
                assert parsed[key] == value, (spec.name, key)


def test_conformance_rows_markdown_and_gpu_rows() -> None:
    _require("transformers")
    rows = conformance_table(["transformers", "flash-attn"], **SMALL)
    transformers, flash = rows
    assert transformers["status"] == "audited" and transformers["version"] == installed_version(
        get_adapter("transformers")
    )
    assert (transformers["layout"], transformers["direction"], transformers["base"]) == (
        "half",
        "counter-clockwise",
        10000.0,
    )
    assert transformers["verdict"] == "pass" and transformers["certified"] == {"float32": "0…2047"}
    if not is_available(get_adapter("flash-attn"))[0]:
        assert flash["status"] == "skipped: needs a GPU" and flash["verdict"] is None
    markdown = render_markdown(rows)
    assert "positions 0…2047" in markdown
    assert "| `transformers` | transformers |" in markdown and "| pass |" in markdown
    assert markdown.count("\n| `") == 2
    table = [line for line in markdown.splitlines() if line.startswith("|")]
    assert len({line.replace("\\|", "").count("|") for line in table}) == 1  # every row has the header's columns


def test_failing_findings_carry_claims_and_a_reproduction_that_reproduces(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _require("transformers")
    rows = conformance_table(["transformers"], max_position=2048, dtypes=("float32", "float64"))
    failures = rows[0]["failures"]
    precision = next(f for f in failures if f["property"] == "precision")
    assert precision["dtype"] == "float64" and "ROPE-FREQUENCIES" in precision["claims"]
    assert precision["reproduce"].startswith("ropecheck audit transformers ")
    markdown = render_markdown(rows)
    assert f"Reproduce: `{precision['reproduce']}`" in markdown and "ROPE-FREQUENCIES" in markdown
    # The printed command, run as is, shows the same failing property.
    argv = shlex.split(precision["reproduce"])[2:]
    assert main([*argv, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert any(f["property"] == "precision" and not f["ok"] and f["dtype"] == "float64" for f in report["findings"])


def test_all_json_and_write_conformance(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    _require("transformers")
    subset = [get_adapter("transformers"), get_adapter("vllm")]
    monkeypatch.setattr(_adapters, "list_adapters", lambda: subset)
    monkeypatch.setattr("ropecheck.numeric.audit.adapters.kinds.list_kind_adapters", lambda: [])  # RoPE rows only here
    assert main(["--all", "--json", "--max-position", "1024", "--dtypes", "float32"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["max_position"] == 1024 and [row["name"] for row in document["rows"]] == ["transformers", "vllm"]
    written = write_conformance(tmp_path / "docs" / "conformance.json", max_position=1024, dtypes="float32")
    on_disk = json.loads((tmp_path / "docs" / "conformance.json").read_text(encoding="utf-8"))
    assert on_disk["rows"][0]["name"] == "transformers" and on_disk["markdown"] == written["markdown"]


def test_module_cast_reports_bfloat16_inv_freq_rounding(capsys: pytest.CaptureFixture[str]) -> None:
    _require("transformers")
    options = {"base": 10000, "dtypes": "bfloat16", "max_position": 2048}
    assert audit("transformers", **options).ok  # float32 module, bfloat16 activations: conforms
    report = audit("transformers", module_cast=True, **options)  # inv_freq buffer cast to bfloat16
    failing = {finding.property for finding in report.failures()}
    # One root cause: the precision class (θ held in bfloat16); the spectrum it explains reads "ok at ... precision".
    assert failing == {"precision"} and "bfloat16" in report.failures()[0].detail
    spectrum = next(f for f in report.findings if f.property == "spectrum")
    assert spectrum.status == "explained" and spectrum.explained_by == "precision"
    rows = conformance_table(["transformers"], max_position=2048, dtypes=("bfloat16",), module_cast=True)
    commands = [f["reproduce"] for f in rows[0]["failures"] if f["property"] == "precision"]
    assert commands and commands[0].endswith("--module-cast")
    assert main([*shlex.split(commands[0])[2:], "--json"]) == 1
    capsys.readouterr()


def test_state_catches_equinox_cache_keyed_without_theta() -> None:
    _require("equinox")
    report = audit("equinox", base=10000, dtypes="float32", max_position=1024)
    state = _state(report)
    assert not state.ok
    assert "base 500000" in state.detail and "cache shared across instances" in state.detail
    assert "ROPE-KV-CACHE-REUSE" in state.claims


def test_state_does_not_double_count_float32_angles() -> None:
    # transformers forms angles in float32: precision fails in float64, but that is not state.
    _require("transformers")
    report = audit("transformers", base=10000, dtypes="float32,float64", max_position=1024)
    assert any(f.property == "precision" and f.dtype == "float64" for f in report.failures())
    state = _state(report)
    assert state.ok, state.detail
    assert "both orders" in state.detail and "head size 64" in state.detail


def test_state_catches_leaked_dynamic_frequencies_in_transformers_5_3() -> None:
    _require("transformers")
    if installed_version(get_adapter("transformers")) != "5.3.0":
        pytest.skip("the leak is the behaviour of transformers 5.3.0 (requirements/libraries.txt pins it)")
    options = {"base": 10000, "scaling": "dynamic:4,orig=512", "dtypes": "float32", "max_position": 1024}
    report = audit("transformers.dynamic", **options)
    state = _state(report)
    assert not state.ok and "an earlier call left state behind" in state.detail
