"""The stable keys claims cite their sources by (records in `_source_documents`: title, author, date, URL)."""

from __future__ import annotations

from ._claim import Source

NOTE_000 = "seed-000"
NOTE_001 = "seed-001"
SUMMARY_002 = "seed-002"
EXPLAINER_003 = "seed-003"
BLOG_004 = "seed-004"
SEEDS = (NOTE_000, NOTE_001, SUMMARY_002, EXPLAINER_003, BLOG_004)

ROFORMER = "roformer-2021"
VASWANI = "vaswani-2017"
SHAW = "shaw-2018"
KATHAROPOULOS = "katharopoulos-2020"


def quote(key: str, passage: str) -> Source:
    """A source by its key with the passage it is quoted from (only the passage the claim needs)."""
    return Source(key=key, quote=passage)
