"""The attention-level audit's findings and report (JSON and terminal text).

Claims served: every claim a finding cites (each finding carries its own `claims`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

__all__ = ["AttentionFinding", "AttentionReport"]

STATUSES = ("ok", "fail", "explained", "info", "not applicable", "could not be called")


@dataclass
class AttentionFinding:
    """One property's outcome.

    **Fields:** `property` (its name); `claims` (the ledger claims it transfers); `status` (`ok`: evaluated and
    held; `fail`: evaluated and violated; `explained`: evaluated and deviating exactly as another finding's root
    cause predicts, which fails in its place; `info`: documented behaviour measured and reported, no verdict;
    `not applicable`: the model has no such feature; `could not be called`: the model raised while probed);
    `message` (one sentence); `observed` and `bound` (the
    largest error and the bound it was held to, when numeric); `details` (anything else, JSON-ready).
    """

    property: str
    claims: tuple[str, ...]
    status: str
    message: str
    observed: float | None = None
    bound: float | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def ratio(self) -> float | None:
        """observed / bound, when both are known."""
        if self.observed is None or self.bound is None:
            return None
        if self.bound == 0:
            return math.inf if self.observed > 0 else 0.0
        return self.observed / self.bound

    def to_json(self) -> dict[str, Any]:
        return {"property": self.property, "claims": list(self.claims), "status": self.status,
                "message": self.message, "observed": self.observed, "bound": self.bound, "ratio": self.ratio,
                "details": self.details}


def numeric_finding(name: str, claims: tuple[str, ...], observed: float, bound: float, what: str,
                    fix: str, **details: Any) -> AttentionFinding:
    """A finding from an observed error and its bound: `ok` iff observed ≤ bound (NaN fails)."""
    held = observed <= bound
    message = (f"{what}: largest difference {observed:.3g} within the bound {bound:.3g}" if held else
               f"{what}: largest difference {observed:.3g} exceeds the bound {bound:.3g} — {fix}")
    return AttentionFinding(name, claims, "ok" if held else "fail", message, observed, bound, dict(details))


@dataclass
class AttentionReport:
    """The audit of one config: what was built, each finding, and the time it took."""

    config: str
    model_type: str
    notes: list[str]
    findings: list[AttentionFinding]
    seconds: float = 0.0

    @property
    def verdict(self) -> str:
        """`fail` when a finding failed; else `incomplete` when the model could not be called for one; else
        `pass`."""
        if any(f.status == "fail" for f in self.findings):
            return "fail"
        return "incomplete" if any(f.status == "could not be called" for f in self.findings) else "pass"

    def finding(self, name: str) -> AttentionFinding:
        """The finding of one property (KeyError when the audit did not run it)."""
        for item in self.findings:
            if item.property == name:
                return item
        raise KeyError(name)

    def failed(self) -> list[str]:
        return [f.property for f in self.findings if f.status == "fail"]

    def to_json(self) -> dict[str, Any]:
        return {"config": self.config, "model_type": self.model_type, "verdict": self.verdict,
                "notes": self.notes, "seconds": round(self.seconds, 2),
                "findings": [f.to_json() for f in self.findings]}

    def to_text(self, columns: int | None = None) -> str:
        """The report as text: a title line, the notes, one record per finding (status, property, message).

        **Arguments:** `columns`: None for one line per record (for pipes and `grep`); a terminal's width to wrap
        every record at spaces into it, the detail on continuation lines under the property name.

        **Returns:** the text, without a final newline.
        """
        if columns is None:
            lines = [f"attention audit of {self.config} ({self.model_type}): {self.verdict}"]
            lines += [f"  note: {note}" for note in self.notes]
            width = max(len(f.property) for f in self.findings) if self.findings else 0
            for item in self.findings:
                lines.append(f"  {item.status:<14} {item.property:<{width}}  {item.message}")
            lines.append(f"  ({self.seconds:.1f} s)")
            return "\n".join(lines)
        import textwrap

        def wrap(text: str, first: str, rest: str) -> list[str]:
            return textwrap.wrap(text, width=columns, initial_indent=first, subsequent_indent=rest,
                                 break_long_words=False, break_on_hyphens=False)

        lines = wrap(f"attention audit of {self.config} ({self.model_type}): {self.verdict}", "", "    ")
        for note in self.notes:
            lines += wrap(f"note: {note}", "  ", "        ")
        status = max(len(f.status) for f in self.findings) if self.findings else 0
        for item in self.findings:  # the status column, then the property with its message under it
            lines += wrap(f"{item.status:<{status}} {item.property}: {item.message}", "  ", " " * (status + 3))
        lines.append(f"  ({self.seconds:.1f} s)")
        return "\n".join(lines)
