"""The conformance table the docs publish (`docs/conformance.json`) matches the built-ins and installed versions.

It is the committed output of `write_conformance` (auditing every library takes ~35 s, so the docs build reads
the file instead of re-auditing); this test fails when an adapter or a library version changed without the
table being regenerated.
"""

from __future__ import annotations

import json
from pathlib import Path

from ropecheck.numeric.audit.adapters import installed_version, is_available, list_adapters
from ropecheck.numeric.audit.adapters.kinds import list_kind_adapters

PUBLISHED = Path(__file__).resolve().parents[1] / "docs" / "conformance.json"
REGENERATE = (
    "regenerate: .venv/bin/python -c \"from numeric.audit.report.conformance import write_conformance; "
    "write_conformance('docs/conformance.json')\""
)


def test_published_table_covers_every_builtin_at_the_installed_versions() -> None:
    payload = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    rows = {row["name"]: row for row in payload["rows"]}
    kinds = list_kind_adapters()
    assert set(rows) == {spec.name for spec in list_adapters()} | {adapter.name for adapter in kinds}, REGENERATE
    for spec in list_adapters():
        available, _ = is_available(spec)
        if available:
            assert rows[spec.name]["version"] == installed_version(spec), f"{spec.name}: {REGENERATE}"
    for adapter in kinds:  # the sinusoidal, bias and scores built-ins (issue #13)
        if adapter.unavailable() is None:
            assert rows[adapter.name]["version"] == adapter.version(), f"{adapter.name}: {REGENERATE}"
            assert rows[adapter.name]["kind"] == adapter.kind


def test_every_published_failure_names_a_claim_and_a_reproduction_command() -> None:
    payload = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    for row in payload["rows"]:
        for failure in row.get("failures", []):
            assert failure["claims"], failure
            assert failure["reproduce"].startswith("ropecheck audit " + row["name"]), failure
