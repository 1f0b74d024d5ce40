"""The errata page's literature sections (ISSUE #33 item 4): one section per paper or reference code with a statement
the kernel did not prove as written, each row with the quote, the verdict, what holds and the theorem's `file:line` —
generated from ledger entries."""

from __future__ import annotations

from pathlib import Path

import pytest


def _entry(claim_id: str, key: str, verdict: str, theorem: str) -> dict:
    return {
        "id": claim_id,
        "title": "a title",
        "topic": "scaling",
        "statement": r"x = y",
        "verdict": verdict,
        "sources": [{"key": key, "quote": "as the paper states it"}],
        "correction": {"statement": r"x \ne y", "explanation": "what holds"} if verdict == "refuted" else None,
        "kernel_theorems": [
            {
                "role": "negation" if verdict == "refuted" else "verdict",
                "module": "Ropecheck.Scaling",
                "theorem": theorem,
            }
        ],
    }


def test_errata_has_a_section_per_literature_source_with_theorem_locations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "docs" / "_ext"))
    claims = [
        _entry("ALIBI-SLOPES-GENERAL", "press-2022", "refuted", "alibi_slopes_general_negation"),
        _entry("NTK-ENDPOINTS", "peng-2024", "proved", "ntk_endpoints"),
    ]
    from ropecheck_docs._pages import errata_page

    page = errata_page(claims)
    assert "## The context-extension literature" in page
    assert "Train Short, Test Long" in page  # a refuted statement is an erratum of its paper
    assert "YaRN" not in page  # a statement proved as written is on the ledger, not in the errata
    # the theorem's file:line, breakable after its folder (two code spans, a zero-width space between)
    assert "`proofs/coq/`\u200b`Scaling.v:" in page and "what holds" in page
    assert "## Claims from papers" not in page  # the literature is not listed twice
