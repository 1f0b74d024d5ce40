"""The docs' lists of numeric marks come from the live ledger at build time (issue 23, point 7): the generator
reads each claim's marks, the numerics page includes its output, and no hand-written list or count is left."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from ropecheck_docs._data import DTYPES  # noqa: E402
from ropecheck_docs._marks_page import mark_lists, marks_by_format  # noqa: E402


def _claim(claim_id: str, marks: dict[str, str]) -> dict:
    return {"id": claim_id, "numeric": {fmt: {"mark": marks.get(fmt, "✓")} for fmt in DTYPES}}


def test_lists_follow_the_claims() -> None:
    claims = [
        _claim("A", dict.fromkeys(DTYPES, "–")),
        _claim("B", {"bfloat16": "?"}),
        _claim("C", {"float16": "–"}),  # untested in one format only: not in the every-format list
        _claim("D", {"float32": "✗"}),
    ]
    text = mark_lists(claims)
    assert "1 of 4 claims** " in text and "{claim}`A`" in text and "{claim}`C`" not in text.split("\n")[0]
    assert "- bfloat16: {claim}`B`" in text and "- float32: {claim}`D`" in text
    assert marks_by_format(claims, "?") == {fmt: ["B"] if fmt == "bfloat16" else [] for fmt in DTYPES}
    # A changed ledger changes the list: the generated text is not a constant.
    claims[1] = _claim("B", {})
    assert "- bfloat16: {claim}`B`" not in mark_lists(claims)


def test_numerics_page_includes_the_generated_lists() -> None:
    text = (ROOT / "docs" / "numerics.md").read_text()
    assert "```{include} generated/_parts/mark_lists.md" in text
    assert "Their verdicts stand on the kernel-checked proofs alone" not in text  # the old hand-written list
    init = (ROOT / "docs" / "_ext" / "ropecheck_docs" / "__init__.py").read_text()
    assert '"mark_lists.md", mark_lists(claims)' in init
    for page in ("README.md", "docs/reference.md"):  # the README's reference material moved to docs/reference.md
        assert "seven claims" not in (ROOT / page).read_text()
