"""`ropecheck audit-attention`: exit codes, one-line errors for bad input, JSON output (issue #22)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("transformers")
from ropecheck.cli._main import main


@pytest.mark.parametrize("content, expected", [
    (None, "neither a config file nor a built-in config"),
    ("{bad", "cannot read"),
    ("[1, 2]", "is not a model config"),
    ('{"model_type": "no-such-model"}', "transformers cannot build 'no-such-model'"),
])
def test_bad_configs_give_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               content: str | None, expected: str) -> None:
    path = tmp_path / "config.json"
    if content is not None:
        path.write_text(content)
    before = path.read_text() if content is not None else None
    assert main(["audit-attention", str(path)]) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1 and "Traceback" not in err
    if before is not None:
        assert path.read_text() == before  # the user's file is only read


def test_no_config_and_unknown_options_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit-attention"]) == 2
    assert main(["audit-attention", "--no-such-option"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_list_and_json_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit-attention", "--list"]) == 0
    assert "gemma-3" in capsys.readouterr().out.split()
    assert main(["audit-attention", "llama-3.1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["verdict"] == "pass"
    assert {f["property"] for f in report["findings"]} >= {"kv-cache", "left-padding", "batch-isolation"}


def test_a_failing_property_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    import transformers

    code = main(["audit-attention", "llama-dynamic-ntk"])
    out = capsys.readouterr().out
    failed = "fail           spectrum-reset" in out
    assert code == (1 if failed else 0)
    if transformers.__version__ == "5.3.0":
        assert failed  # the dynamic NTK reset defect measured on 5.3.0


@pytest.mark.deep
def test_no_library_warnings_with_environment_paths_before_the_report() -> None:
    """Issue 36: torchao and torch logged load warnings with the environment's absolute paths before the report;
    `audit-attention` imports them quietly (`_quiet`). Opt-in (--deep): each import costs about 12 CPU-s. Seen
    failing without the quiet block (the same import prints the paths)."""
    import subprocess
    import sys

    loud = "from transformers import LlamaForCausalLM"
    quiet = "from ropecheck.cli._audit_config import quiet_engines\nwith quiet_engines():\n    " + loud
    runs = {name: subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
            for name, code in (("loud", loud), ("quiet", quiet))}
    assert "site-packages" in runs["loud"].stderr, "the libraries no longer warn: this check shows nothing"
    assert runs["quiet"].returncode == 0 and runs["quiet"].stderr == "", runs["quiet"].stderr[-2000:]


FACTORIES = str(Path(__file__).parent / "attention_factories.py")


def test_your_own_model_from_a_factory(capsys: pytest.CaptureFixture[str]) -> None:
    """`--model FILE:FACTORY`: a patched copy of the library's Llama whose layer 1 drops RoPE fails rope-presence
    (and nothing else; the unpatched class passes in the Python API test below)."""
    assert main(["audit-attention", "llama-3.1", "--model", f"{FACTORIES}:llama_without_rope_on_layer_1",
                 "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    failed = [f["property"] for f in report["findings"] if f["status"] == "fail"]
    assert failed == ["rope-presence"], failed
    assert any("llama_without_rope_on_layer_1" in note for note in report["notes"])


@pytest.mark.parametrize("spec, expected", [
    ("no_colon_here", "expected MODULE:FACTORY"),
    ("no_such_module_xyz:build", "cannot import 'no_such_module_xyz'"),
    (f"{FACTORIES}:missing", "has no attribute 'missing'"),
    (f"{FACTORIES}:NOT_CALLABLE", "not a callable factory(config)"),
    (f"{FACTORIES}:raises", "raised RuntimeError: this factory cannot build anything"),
    (f"{FACTORIES}:returns_a_string", "returned str, not a torch module"),
    ("os:system('echo hacked')", "has no attribute"),
])
def test_a_bad_model_factory_gives_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], spec: str,
                                                       expected: str) -> None:
    assert main(["audit-attention", "llama-3.1", "--model", spec]) == 2
    captured = capsys.readouterr()
    assert expected in captured.err and captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert "hacked" not in captured.out  # nothing typed is evaluated


def test_the_python_api_takes_a_factory_or_its_name() -> None:
    from ropecheck.numeric.audit.attention import audit_model, build_tiny_model, load_model_factory
    from ropecheck.numeric.audit.attention._applied import check_rope_presence

    clean = build_tiny_model("llama-3.1", factory=load_model_factory(f"{FACTORIES}:llama"))
    patched = build_tiny_model("llama-3.1", factory=load_model_factory(f"{FACTORIES}:llama_without_rope_on_layer_1"))
    assert audit_model(clean, [check_rope_presence]).verdict == "pass"
    assert audit_model(patched, [check_rope_presence]).verdict == "fail"


def test_the_pytest_plugin_fixture_fails_a_test_on_a_failing_model(ropecheck_attention) -> None:
    """The plugin's `ropecheck_attention` fixture: the patched Llama fails the test, naming rope-presence."""
    with pytest.raises(pytest.fail.Exception, match=r"fail +rope-presence"):
        ropecheck_attention("llama-3.1", model=f"{FACTORIES}:llama_without_rope_on_layer_1")


def test_a_model_that_raises_when_probed_could_not_be_called_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit-attention", "llama-3.1", "--model", f"{FACTORIES}:llama_that_raises_when_called",
                 "--json"]) == 1
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["verdict"] == "incomplete" and "Traceback" not in captured.err
    statuses = {f["status"] for f in report["findings"]}
    assert "fail" not in statuses and "could not be called" in statuses
