"""Issue #14: documented API limits read "n/a (offset-only API)", not *fail*; the conformance page carries the
README's explanations and reproduction commands; audits wear the "conforms" badge, never the green "proved"."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from ropecheck.numeric.audit.report.api_limits import apply_api_limits
from ropecheck.numeric.audit.report.conformance import render_markdown

ROOT = Path(__file__).resolve().parents[1]
PUBLISHED = ROOT / "docs" / "conformance.json"
BEYOND_OFFSET = (
    "The positions argument is not honoured: shuffled positions: row 5 (position 0) differs from the plain call's"
    " row for that position by 2; non-contiguous positions: row 61 (position 430) differs by 1.9."
)


def _row(positions_api: str, *details: tuple[str, str]) -> dict[str, Any]:
    failures = [
        {"property": prop, "dtype": "float32", "detail": detail, "claims": ["ROPE-KV-CACHE-REUSE"],
         "reproduce": "ropecheck audit lib --dtypes float32"}
        for prop, detail in details
    ]
    return {"name": "lib", "positions_api": positions_api, "verdict": "fail" if failures else "pass",
            "failures": failures, "status": "audited"}


def test_an_offset_only_api_is_not_a_failure_of_positions() -> None:
    row = apply_api_limits(_row("offset", ("positions", BEYOND_OFFSET)))
    assert row["verdict"] == "pass" and row["audit_verdict"] == "fail" and row["failures"] == []
    assert [limit["shown"] for limit in row["api_limits"]] == ["n/a (offset-only API)"]
    assert apply_api_limits(row) == row  # idempotent (the docs apply it to rows read from JSON)
    # A library with no positions argument at all (equinox): every probe is beyond its API.
    none = apply_api_limits(_row("none", ("positions", "offset positions: row 0 differs by 2.")))
    assert none["verdict"] == "pass" and none["api_limits"][0]["shown"].startswith("n/a (no positions argument")


def test_what_the_api_can_express_still_fails() -> None:
    # The offset probe is expressible through an offset API: failing it is a real defect.
    offset_broken = apply_api_limits(_row("offset", ("positions", "offset positions: row 0 differs by 2.")))
    assert offset_broken["verdict"] == "fail" and offset_broken["api_limits"] == []
    # An API that takes arbitrary positions has no excuse.
    arbitrary = apply_api_limits(_row("arbitrary", ("positions", BEYOND_OFFSET)))
    assert arbitrary["verdict"] == "fail" and len(arbitrary["failures"]) == 1
    # Another property's failure keeps the row failing; only positions moves.
    mixed = apply_api_limits(_row("offset", ("positions", BEYOND_OFFSET), ("precision", "too far")))
    assert mixed["verdict"] == "fail" and [f["property"] for f in mixed["failures"]] == ["precision"]
    assert [limit["property"] for limit in mixed["api_limits"]] == ["positions"]


def test_published_table_shows_offset_only_apis_as_not_applicable() -> None:
    payload = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    rows = {row["name"]: row for row in payload["rows"]}
    for name in ("mlx", "mlx.traditional", "rotary-embedding-torch"):
        assert rows[name]["positions_api"] == "offset"
        assert not any(f["property"] == "positions" for f in rows[name]["failures"]), name
        assert {limit["shown"] for limit in rows[name]["api_limits"]} == {"n/a (offset-only API)"}
    assert rows["mlx"]["verdict"] == "pass" and rows["mlx"]["audit_verdict"] == "fail"
    assert rows["equinox"]["verdict"] == "fail" and [f["property"] for f in rows["equinox"]["failures"]] == ["state"]
    markdown = render_markdown(payload["rows"], max_position=payload["max_position"])
    assert markdown == payload["markdown"]
    mlx_line = next(line for line in markdown.splitlines() if line.startswith("| `mlx` |"))
    assert "positions: n/a (offset-only API)" in mlx_line and "| pass |" in mlx_line


@pytest.fixture
def docs_ext(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(ROOT / "docs" / "_ext"))
    pytest.importorskip("sphinx")
    from ropecheck_docs import _audit_pages, _conformance_page

    yield SimpleNamespace(audit_pages=_audit_pages, conformance_page=_conformance_page)
    for name in [name for name in sys.modules if name.startswith("ropecheck_docs")]:
        del sys.modules[name]


def test_conformance_page_carries_explanations_commands_and_audit_badges(docs_ext: Any) -> None:
    app = SimpleNamespace(
        config=SimpleNamespace(ropecheck_conformance_json="conformance.json"),
        confdir=str(ROOT / "docs"),
        outdir=str(ROOT / "docs" / "_build" / "html"),
    )
    page = docs_ext.conformance_page.conformance_page(app)
    readme = docs_ext.conformance_page.readme_defects(ROOT / "README.md")
    assert len(readme) >= 5
    for library, finding, reproduce in readme:  # the README's explanations and commands, on the page
        assert finding in page and reproduce in page, library
    payload = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    for row in payload["rows"]:
        for failure in row["failures"]:  # every failing finding in the audit's words
            assert " ".join(failure["detail"].split()[:3]) in page.replace("\\", ""), (row["name"], failure)
    mlx = page[page.index("* - `mlx`"):][:600]
    assert "n/a \\(offset\\-only API\\)" in mlx and "verdict-conforms" in mlx and "fail" not in mlx
    assert "verdict-fails" in page and "verdict-proved" not in page
    assert "## Documented API limits (not defects)" in page


def test_worked_examples_wear_the_audit_badges(docs_ext: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    monkeypatch.setattr(docs_ext.audit_pages, "EXAMPLE_POSITIONS", 512)
    monkeypatch.setattr(docs_ext.audit_pages, "EXAMPLE_DTYPES", ("float32", "float16"))
    text, _ = docs_ext.audit_pages.examples_part(tmp_path)
    assert "verdict-conforms" in text and "verdict-fails" in text  # one passes, the float16-angle one fails
    assert "verdict-proved" not in text and "verdict-refuted" not in text
    guide = (ROOT / "docs" / "audit-guide.md").read_text(encoding="utf-8")
    assert 'class="verdict verdict-conforms">conforms<' in guide
