"""`ropecheck audit` with a mistyped target says what was meant (issue #24): built-in names, a function in a
file or module, and a bare function name defined in a file of the working directory (read, never imported)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ropecheck.cli._audit import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("target", "meant"),
    [
        ("transformer", "(did you mean 'transformers'"),
        ("x-transformers.alibbi", "(did you mean 'x-transformers.alibi'?)"),
        ("tests.audit_corpus.numpy_impls:rope_hlaf", "(did you mean 'rope_half'?)"),
        ("tests/audit_corpus/numpy_impls.py:bug_clokwise", "(did you mean 'bug_clockwise'?)"),
    ],
)
def test_a_mistyped_target_gets_did_you_mean(
    target: str, meant: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert main([target]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and meant in err, err


def test_a_bare_function_name_points_to_its_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "model").mkdir()
    # Importing this file would fail: the suggestion comes from reading it.
    (tmp_path / "model" / "llama.py").write_text(
        "raise SystemExit('never imported')\n\n\ndef apply_rope_llama(x, positions):\n    return x\n"
    )
    monkeypatch.chdir(tmp_path)
    assert main(["apply_rope_llama"]) == 2
    assert "(did you mean 'model/llama.py:apply_rope_llama'?)" in capsys.readouterr().err
    assert main(["apply_rope_mistral"]) == 2
    assert "(a function in a file is path/to/file.py:apply_rope_mistral)" in capsys.readouterr().err
