"""The `Claim` record: one checkable statement from the source documents, keyed by a stable ID."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine._certificate import Decision
from ..engine._statements import Statement
from ..kernel._kernel import coq_version
from ._source_documents import source_document
from ._verdicts import ENGINE_ONLY, KernelVerdict, kernel_verdict


@dataclass(frozen=True)
class Source:
    """Where a claim was made: a source document's stable key (`seed-001`, `roformer-2021`) and the passage quoted."""

    key: str
    quote: str

    def to_json(self) -> dict[str, str]:
        """The key, the document's record (title, author, date, URL as it gives them) and the quote."""
        document = source_document(self.key)
        record = document.to_json() if document is not None else {"key": self.key, "title": self.key}
        return {**record, "quote": self.quote}


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
    - `statement`: the statement the engine decides (see `ropecheck.proofs.engine._statements`).
    - `assumptions`: the symbol domains in words (the SymPy symbols carry them as assumptions).
    - `sources`: source keys (`seed-001`, `roformer-2021`) with the passage quoted.
    - `interpretation`: how a loose or ambiguous source was read.
    - `correction`: for claims expected to be refuted, the corrected statement (itself decided).
    - `literal`: the literal reading in words, where the decided reading is stronger than the source's words
      (its verdict comes from the kernel's `x_literal` / `x_literal_negation`).
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
    literal: str = ""
    mirror: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def test_name(self) -> str:
        return "test_" + self.id.lower().replace("-", "_")

    def decide(self) -> Decision:
        """The SymPy engine's decision (memoised per process): the human-readable derivation, never the verdict.

        The ledger's verdict is `kernel().verdict`: only the Coq kernel makes a claim proved or refuted.
        """
        return _decide_statement(self.id, self.statement)

    def kernel(self) -> KernelVerdict:
        """The verdict from the Coq kernel (`proved`/`refuted` only for a checked theorem; see `_verdicts`)."""
        return kernel_verdict(self.id)

    @property
    def verdict(self) -> str:
        """The ledger's verdict: `proved`, `refuted`, `unknown` or `engine only (kernel not run)`."""
        return self.kernel().verdict

    def decide_correction(self) -> Decision | None:
        if self.correction is None:
            return None
        return _decide_statement(self.id + "/correction", self.correction.statement)

    def to_json(self) -> dict[str, Any]:
        decision, kernel = self.decide(), self.kernel()
        out: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "topic": self.topic,
            "statement": self.latex,
            "engine_statement": self.statement.latex,
            "assumptions": list(self.assumptions),
            "sources": [s.to_json() for s in self.sources],
            "interpretation": self.interpretation,
            "verdict": kernel.verdict,
            "verdict_reason": kernel.reason,
            "verdict_reading": self.interpretation or self.latex,
            "kernel_theorems": [t.to_json() for t in kernel.theorems],
            "kernel_version": coq_version(),
            "engine_verdict": str(decision.verdict),
            "engine_role": "the SymPy search that found the proof; never the verdict",
            "method": decision.method,
            "certificate": decision.to_json(),
            "test": self.test_name,
        }
        if self.literal or kernel.literal is not None:
            literal_verdict = kernel.literal or "unknown"
            out["literal"] = {
                "reading": self.literal,
                "verdict": ENGINE_ONLY if kernel.verdict == ENGINE_ONLY else literal_verdict,
            }
        if self.correction is not None:
            corrected = self.decide_correction()
            assert corrected is not None
            correction_verdict = kernel.correction or "unknown"
            out["correction"] = {
                "statement": self.correction.latex,
                "explanation": self.correction.explanation,
                "verdict": ENGINE_ONLY if kernel.verdict == ENGINE_ONLY else correction_verdict,
                "engine_verdict": str(corrected.verdict),
                "method": corrected.method,
                "certificate": corrected.to_json(),
            }
        return out


_DECISIONS: dict[str, Decision] = {}


def _decide_statement(key: str, statement: Statement) -> Decision:
    if key not in _DECISIONS:
        _DECISIONS[key] = statement.decide()
    return _DECISIONS[key]
