"""The audit showcase (docs/audit-reference.md, moved there from the README): every command passes or fails
exactly as its comment says (issue #12)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from ropecheck.cli._audit import main

ROOT = Path(__file__).resolve().parents[1]


def _showcase() -> list[tuple[list[str], int, str]]:
    text = (ROOT / "docs" / "audit-reference.md").read_text(encoding="utf-8")
    block = text.split("<!-- showcase -->", 1)[1].split("<!-- /showcase -->", 1)[0]
    rows = []
    for line in block.strip().splitlines():
        command, _, comment = line.strip().partition("#")
        code = int(re.search(r"exit (\d)", comment).group(1))
        argv = shlex.split(command)
        assert argv[:2] == ["ropecheck", "audit"]
        rows.append((argv[2:], code, comment.strip()))
    return rows


SHOWCASE = _showcase()


@pytest.mark.parametrize(("argv", "code", "comment"), SHOWCASE, ids=[" ".join(a[:1]) for a, _, _ in SHOWCASE])
def test_showcase_command_exits_as_the_readme_says(
    argv: list[str], code: int, comment: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if argv[0].startswith("transformers"):
        pytest.importorskip("transformers")
    monkeypatch.chdir(ROOT)
    assert main(argv) == code, capsys.readouterr().out
    out = capsys.readouterr().out
    if "only" in comment:
        failing = comment.split(":", 1)[1].split("only")[0].strip()
        assert f"FAIL {failing}" in " ".join(out.split()), out
    for quoted in re.findall(r'"([^"]+)"', comment):
        assert quoted.lower() in " ".join(out.split()).lower(), (quoted, out)
