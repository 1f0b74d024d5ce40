"""The `Claim` record: one checkable statement from the source documents, keyed by a stable ID."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ._certificate import Decision
from ._statements import Statement


@dataclass(frozen=True)
class Source:
    """Where a claim was made: a seed file name (in `shared/seeds/`) or a paper, and the passage quoted."""

    document: str
    quote: str

    def to_json(self) -> dict[str, str]:
        return {"document": self.document, "quote": self.quote}


@dataclass(frozen=True)
class Correction:
    """The right statement for a refuted claim; it is decided by the same engine."""

    latex: str
    statement: Statement
    explanation: str = ""


@dataclass(frozen=True)
class Claim:
    """A ledger entry.

    **Arguments:**

    - `id`: stable identifier (`ROPE-RELATIVE-MATRIX`); names the test, the mirror and the doc page.
    - `title`: one line.
    - `topic`: `attention`, `sinusoidal`, `relative`, `rope`, `decay`, `cache` or `linear-attention`.
    - `latex`: the statement as people read it.
    - `statement`: the statement the engine decides (see `proofs._statements`).
    - `assumptions`: the symbol domains in words (the SymPy symbols carry them as assumptions).
    - `sources`: seed file names (and papers) with the passage quoted.
    - `interpretation`: how a loose or ambiguous source was read.
    - `correction`: for claims expected to be refuted, the corrected statement (itself decided).
    - `mirror`: extra data for the numeric mirror (explicit sizes, sample ranges), keyed by name.
    """

    id: str
    title: str
    topic: str
    latex: str
    statement: Statement
    assumptions: tuple[str, ...]
    sources: tuple[Source, ...]
    interpretation: str = ""
    correction: Correction | None = None
    mirror: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def test_name(self) -> str:
        return "test_" + self.id.lower().replace("-", "_")

    def decide(self) -> Decision:
        """Decide the claim now (memoised per process; never stored in the source)."""
        return _decide_statement(self.id, self.statement)

    def decide_correction(self) -> Decision | None:
        if self.correction is None:
            return None
        return _decide_statement(self.id + "/correction", self.correction.statement)

    def to_json(self) -> dict[str, Any]:
        decision = self.decide()
        out: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "topic": self.topic,
            "statement": self.latex,
            "engine_statement": self.statement.latex,
            "assumptions": list(self.assumptions),
            "sources": [s.to_json() for s in self.sources],
            "interpretation": self.interpretation,
            "verdict": str(decision.verdict),
            "method": decision.method,
            "certificate": decision.to_json(),
            "test": self.test_name,
        }
        if self.correction is not None:
            corrected = self.decide_correction()
            assert corrected is not None
            out["correction"] = {
                "statement": self.correction.latex,
                "explanation": self.correction.explanation,
                "verdict": str(corrected.verdict),
                "method": corrected.method,
                "certificate": corrected.to_json(),
            }
        return out


_DECISIONS: dict[str, Decision] = {}


def _decide_statement(key: str, statement: Statement) -> Decision:
    if key not in _DECISIONS:
        _DECISIONS[key] = statement.decide()
    return _DECISIONS[key]
