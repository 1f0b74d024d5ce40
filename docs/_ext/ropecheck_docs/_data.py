"""The data every generated page is made from: the ledger as `ropecheck claims --json` prints it.

In the real build the claims come from `proofs.all_claims()` (decided live) and, once `numeric.mirrors` exists,
each claim's numeric evidence is merged under the key `numeric`. A build may instead point
`ropecheck_claims_json` at a file of the same shape (the tests do, with fake claims).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

TOPICS = ("attention", "sinusoidal", "relative", "rope", "decay", "cache", "linear-attention", "scaling")
TOPIC_TITLES = {
    "attention": "Attention and permutation equivariance",
    "sinusoidal": "Sinusoidal positional encoding",
    "relative": "Relative position encodings",
    "rope": "Rotary position embedding (RoPE)",
    "decay": "Long-term decay",
    "cache": "KV cache",
    "linear-attention": "Linear attention",
    "scaling": "Context extension (rope_scaling)",
}
DTYPES = ("float16", "bfloat16", "float32", "float64", "mpmath")
_REQUIRED = ("id", "title", "topic", "statement", "sources", "verdict", "method", "certificate")


class ClaimDataError(ValueError):
    """The claims payload does not have the `ropecheck claims --json` shape."""


def source_title(key: str) -> str:
    """How a page cites a source key: the document's title, author, date and URL as it gives them."""
    from ropecheck.proofs.claims._source_documents import source_title as title

    return title(key)


def short_source(key: str) -> str:
    """A short label for tables: `Note 2024-09-08` for a seed, `Su et al. 2021` for a paper."""
    from ropecheck.proofs.claims._source_documents import source_document

    registered = source_document(key)
    return registered.short if registered is not None else key


def is_seed(key: str) -> bool:
    """Whether a source key names a seed document (`seed-001`) rather than a paper."""
    from ropecheck.proofs.claims._source_documents import is_seed as seed

    return seed(key)


def _evidence_function() -> Callable[[Any], dict[str, Any]] | None:
    """`ropecheck.numeric.mirrors.numeric_evidence`, or None while that module does not exist yet."""
    try:
        from ropecheck.numeric.mirrors import numeric_evidence
    except ModuleNotFoundError as error:
        if error.name != "ropecheck.numeric.mirrors":
            raise  # a missing dependency inside the module is a real failure
        return None
    return numeric_evidence


def registry_payload() -> dict[str, Any]:
    """`{"claims": [...]}` from the live registry, with numeric evidence merged where available (the entries
    `ropecheck claims --json` prints, from the same content-keyed cache: `ropecheck.numeric._ledger_cache`)."""
    if _evidence_function() is not None:
        from ropecheck.numeric._ledger_cache import claim_entries

        return {"claims": claim_entries([], with_numeric=True)}
    from ropecheck import proofs

    return {"claims": [claim.to_json() for claim in proofs.all_claims()]}


def load_claims(json_path: str, confdir: str | Path) -> list[dict[str, Any]]:
    """The claims to document: from `json_path` (relative to `confdir`) when set, else from the registry.

    **Raises:**

    `ClaimDataError` naming the claim and field when the payload is malformed.
    """
    if json_path:
        payload = json.loads((Path(confdir) / json_path).read_text(encoding="utf-8"))
    else:
        payload = registry_payload()
    claims = payload.get("claims") if isinstance(payload, dict) else None
    if not isinstance(claims, list) or not claims:
        raise ClaimDataError('expected {"claims": [...]} with at least one claim')
    seen: set[str] = set()
    for claim in claims:
        missing = [key for key in _REQUIRED if key not in claim]
        if missing:
            raise ClaimDataError(f"claim {claim.get('id', '?')!r} lacks {', '.join(missing)}")
        if claim["id"] in seen:
            raise ClaimDataError(f"duplicate claim ID {claim['id']!r}")
        if not re.fullmatch(r"[A-Z0-9][A-Z0-9-]*", claim["id"]):
            raise ClaimDataError(f"claim ID {claim['id']!r} is not of the form ROPE-RELATIVE-MATRIX")
        seen.add(claim["id"])
    return claims


def topics_in_order(claims: list[dict[str, Any]]) -> list[str]:
    """Topics in the documented order, then any unlisted topic in ledger order."""
    present = [claim["topic"] for claim in claims]
    ordered = [topic for topic in TOPICS if topic in present]
    for topic in present:
        if topic not in ordered:
            ordered.append(topic)
    return ordered
