"""Root-cause attribution: one root cause, one failing finding (GUIDE §5); the summary paragraph.

Most attribution happens while the audit runs: a root cause (a direction, a gain, a position offset, a base, a
precision class) adjusts the ideal, so the properties after it are judged against what the target does and pass,
or read "ok at <class> precision". What remains are failures that cannot be re-judged that way (positions
ignored: every shifted score differs). Here a failing finding is *explained* by an earlier failing one when the
earlier property's defect implies it (`EXPLAINS`) and both concern the same dtype (or one has none): it then
reads "see <root cause>" and no longer counts as a failure of its own. "Could not call" findings are neither
root causes nor explained: they say the target raised, never that the mathematics is wrong.

Works on findings only, so every kind's report goes through it.
"""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.function.results import AuditReport, Finding
from ropecheck.numeric.audit.function.table_length import SHORT_TABLE_PREFIX

__all__ = ["EXPLAINS", "ROOT_ORDER", "attribute_root_causes", "finding_rows", "summarise"]

#: The order in which root causes are sought: a property earlier in this list may explain a later one.
ROOT_ORDER = (
    "contract",
    "pairing",
    "linearity",
    "positions",
    "direction",
    "identity",
    "norm",
    "spectrum",
    "precision",
    "relative",
    "state",
)
_ALL = frozenset(ROOT_ORDER)
#: Property → the properties whose failure its own failure implies.
EXPLAINS: dict[str, frozenset[str]] = {
    "contract": _ALL,
    "pairing": _ALL - {"contract", "state"},
    "linearity": frozenset({"norm", "precision", "relative", "identity", "spectrum", "positions"}),
    "positions": frozenset({"relative", "precision", "spectrum", "norm"}),
    # Direction, a position offset (identity) and a constant gain (norm) adjust the ideal when found, so what
    # fails after them fails against the adjusted ideal: an independent root cause, explained by nothing.
    "direction": frozenset(),
    "identity": frozenset(),
    "norm": frozenset(),
    "spectrum": frozenset({"precision", "relative", "norm", "identity", "linearity"}),
    "precision": frozenset({"spectrum", "norm", "relative", "linearity", "identity", "state", "positions"}),
    "relative": frozenset(),
    "state": frozenset(),
}


#: How a precision finding that names the target's precision class begins (`properties.precision`).
PRECISION_CLASS_PREFIX = "Precision class:"


#: How a wrong switch point of a length-dependent scaling begins (`properties.switch_points`).
SWITCH_PREFIX = "The switch point of the scaling is wrong:"
#: How a length-dependent rule that differs on both sides of its switch begins (`properties.switch_points`): the
#: rule, not the switch point (treated as `SWITCH_PREFIX` by the attribution).
RULE_PREFIX = "The scaling's rule differs on both sides of the switch:"

#: What the state property says of a cached table converted in place to each call's dtype (`properties.state`):
#: the dtype audited first then carries a later dtype's rounding, which its precision sweep measured.
IN_PLACE_DTYPE = "a cached table is converted to the input's dtype in place"

#: How the sweep's non-finite contract finding begins (`properties.precision`): it explains nothing else (the other
#: properties were judged on the finite positions) and nothing explains it.
NONFINITE_PREFIX = "Non-finite output (inf or NaN) at"


def _explains(root: Finding, finding: Finding, primary: str | None) -> bool:
    """Whether `root`'s defect accounts for `finding` quantitatively: only a root cause whose correction was not
    already applied to the ideal (what was judged after a correction is the residual) explains a later finding."""
    independent = (NONFINITE_PREFIX, SHORT_TABLE_PREFIX)
    if root.corrected or root.detail.startswith(independent) or finding.detail.startswith(independent):
        return False
    return (
        _rank(root) < _rank(finding)
        and finding.property in EXPLAINS.get(root.property, frozenset())
        and _same_scope(root, finding, primary)
    )


def _rank(finding: Finding) -> int:
    return ROOT_ORDER.index(finding.property) if finding.property in ROOT_ORDER else len(ROOT_ORDER)


def _primary_dtype(report: AuditReport) -> str | None:
    """The most precise dtype audited: the one the structure and spectrum were measured in."""
    supported = [d for d, info in report.dtypes.items() if info.get("status") == "supported"]
    return next((d for d in ("float64", "float32", "float16", "bfloat16") if d in supported), None)


def _same_scope(root: Finding, other: Finding, primary: str | None = None) -> bool:
    # A target that mutates x or is nondeterministic makes every other finding moot in every dtype; a wrong
    # output dtype or shape concerns its own dtype only.
    if root.property == "contract" and root.detail.startswith(("A repeated call", "Modifies")):
        return True
    if root.dtype is None or root.dtype == other.dtype:
        return True
    # A finding without a dtype (pairing, spectrum, …) was measured in the primary dtype.
    return other.dtype is None and root.dtype == primary


def attribute_root_causes(report: AuditReport) -> None:
    """Mark explained failures, list the root causes, set the verdict and the summary (in place).

    **Arguments:**

    - `report`: the report, findings as the properties recorded them.
    """
    failing = sorted((f for f in report.findings if f.status == "fail"), key=_rank)
    primary = _primary_dtype(report)
    roots: list[Finding] = []
    # A wrong switch point means the sweep measured the target against a rule it does not follow at any long call
    # (dynamic NTK's base changes with every length): a precision class named there is not the target's.
    switched = {f.dtype for f in failing if f.detail.startswith((SWITCH_PREFIX, RULE_PREFIX))}
    # A table converted in place to each call's dtype: the earlier dtype's precision finding measured the later
    # dtype's rounding; state is the root cause (fixing it removes the precision failure).
    converted = next((f for f in failing if f.property == "state" and IN_PLACE_DTYPE in f.detail), None)
    if converted is not None and not any(f.property == "contract" for f in failing):
        roots.append(converted)
        failing = [f for f in failing if f is not converted]
        for finding in failing:
            if finding.property == "precision" and f"the same instance's {finding.dtype} output changed" in (
                    converted.detail):
                finding.status, finding.ok, finding.explained_by = "explained", True, "state"
                finding.detail = f"see state: {finding.detail}"
                finding.fix = None
        failing = [f for f in failing if f.status == "fail"]
    for finding in failing:
        if (
            finding.property == "precision"
            and finding.detail.startswith(PRECISION_CLASS_PREFIX)
            and finding.dtype not in switched
        ):
            roots.append(finding)  # a named precision class is a root cause of its own, never a consequence
            continue
        cause = next(
            (root for root in roots if _explains(root, finding, primary)),
            None,
        )
        if cause is None:
            roots.append(finding)
            continue
        where = f" [{cause.dtype}]" if cause.dtype else ""
        finding.status, finding.ok, finding.explained_by = "explained", True, cause.property
        finding.detail = f"see {cause.property}{where}: {finding.detail}"
        finding.fix = None
    grouped: dict[str, dict[str, Any]] = {}
    for f in roots:  # one root cause per property, with every dtype it shows in
        entry = grouped.setdefault(
            f.property, {"property": f.property, "dtypes": [], "dtype": f.dtype, "detail": f.detail, "fix": f.fix or ""}
        )
        if f.dtype:
            entry["dtypes"].append(f.dtype)
    report.root_causes = list(grouped.values())
    ok = bool(report.findings) and all(f.ok for f in report.findings)
    report.verdict = "pass" if ok else "fail"
    report.summary = summarise(report)


def _first_sentence(text: str) -> str:
    head, dot, _ = text.partition(". ")
    return head + "." if dot else text.rstrip(".") + "."


def summarise(report: AuditReport) -> str:
    """One paragraph: verdict, root cause(s) with their fix, what could not be called, the loud notes."""
    audited = [dtype for dtype, info in report.dtypes.items() if info.get("status") == "supported"]
    positions = f"positions 0…{report.max_position - 1}"
    parts: list[str] = []
    if report.verdict == "pass":
        parts.append(
            f"PASS: {report.target} conforms at {positions} in {', '.join(audited) or 'no dtype'}"
            f" ({report.layout} pairs, {report.direction}"
            + (f", base {report.base:g}" if isinstance(report.base, float) and report.base == report.base else "")
            + ")."
        )
        explained = [f for f in report.findings if f.status == "explained" and f.explained_by == "precision"]
        if explained:
            parts.append("Some properties hold only at the precision class the sweep found (see precision).")
    else:
        roots = report.root_causes
        could_not = [f for f in report.findings if f.status == "could not call"]
        count = f"{len(roots)} root cause{'s' if len(roots) != 1 else ''}" if roots else "no mathematical failure"
        parts.append(f"FAIL: {report.target} — {count}.")
        for root in roots:
            where = f" [{', '.join(root['dtypes'])}]" if root["dtypes"] else ""
            text = f"{root['property']}{where}: {_first_sentence(root['detail'])}"
            if root["fix"]:
                text += f" Fix: {root['fix']}."
            parts.append(text)
        if could_not:
            names = sorted({f.property for f in could_not})
            parts.append(f"Could not call the target for: {', '.join(names)} (it raised; see those findings).")
    if report.table_positions is not None:
        parts.append(f"The table holds {report.table_positions} positions: audited 0…{report.table_positions - 1}.")
    parts += list(report.notes)
    return " ".join(parts)


def finding_rows(report: AuditReport) -> list[dict[str, Any]]:
    """Findings for presentation: failing and could-not-call first, then explained, then passing."""
    order = {"fail": 0, "could not call": 1, "explained": 2, "pass": 3}
    return [f.to_json() for f in sorted(report.findings, key=lambda f: order.get(f.status, 4))]
