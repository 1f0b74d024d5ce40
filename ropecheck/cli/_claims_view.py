"""How `ropecheck claims` shows the ledger in a terminal: a table that fits the width, one claim in full, the IDs.

Data is never read as markup (a title such as "[[cos, −sin], [sin, cos]]" prints as written). On a terminal the
output fits `COLUMNS` (or the terminal's width); piped into a file or a CI log it is plain text with one record per
line and no hard wrapping, so `grep` and `head` see whole lines.
"""

from __future__ import annotations

import difflib
import math
import re
import shutil
import sys
from collections.abc import Sequence
from typing import Any, TextIO

#: The one sentence for what decides, word for word in README.md, docs/index.md, the ledger page and `claims show`.
WHO_DECIDES = (
    "The Coq kernel decides every verdict; the SymPy engine only searches for proofs and counterexamples, and its "
    "result is never the verdict."
)
NUMERIC_KEYS = ("float16", "bfloat16", "float32", "float64", "mpmath")
NUMERIC_LEGEND = (
    "numeric f16·bf16·f32·f64·mp: ✓ confirms the verdict · ~ effect below what the format resolves · "
    "? bound too loose to decide · ✗ contradiction · – not numerically tested · · not measured"
)


# TeX commands of claim titles, as the terminal shows them (the docs typeset the `$…$` math instead).
_TEX_TO_TEXT = {
    r"\mathrm": "",
    r"\langle": "⟨",
    r"\rangle": "⟩",
    r"^\top": "ᵀ",
    r"\top": "ᵀ",
    r"\theta": "θ",
    r"\omega": "ω",
    r"\alpha": "α",
    r"\phi": "φ",
    r"\sum": "Σ",
    r"\cos": "cos",
    r"\sin": "sin",
    "\\": "",
}


def plain_title(title: str) -> str:
    """A title for the terminal: its `$…$` math in plain text (`$\\omega_i$` → `ω_i`), without the dollar signs."""
    if "$" not in title:
        return title
    text = re.sub(r"\\mathrm\{([^{}]*)\}", r"\1", title.replace("$", ""))
    for tex, plain in _TEX_TO_TEXT.items():
        text = text.replace(tex, plain)
    return text.replace("{", "").replace("}", "") if "_{" not in text and "^{" not in text else text


def terminal_width(stream: TextIO) -> int | None:
    """The width to fit on a terminal (honouring `COLUMNS`), or `None` when `stream` is not a terminal."""
    if not stream.isatty():
        return None
    return max(40, shutil.get_terminal_size((100, 24)).columns)


def numeric_mark(check: dict[str, Any] | None) -> str:
    """One character per format; the marks are defined by the mirrors (`mark` in each check) when present."""
    if not check:
        return "·"
    if isinstance(check.get("mark"), str) and check["mark"]:
        return str(check["mark"])
    if check.get("tested") is False:
        return "–"
    if check.get("agrees"):
        return "✓"
    within = check.get("ratio", math.inf) <= 1
    if check.get("measure") == "discrepancy" or ("witness_margin" in check and within):
        return "~"
    return "✗"


def numeric_cell(numeric: dict[str, Any] | None) -> str:
    """The five marks of a claim's numeric evidence, in the order f16, bf16, f32, f64, mpmath."""
    numeric = numeric or {}
    return "".join(numeric_mark(numeric.get(key)) for key in NUMERIC_KEYS)


def kernel_cell(entry: dict[str, Any]) -> str:
    """`3/3 checked` (the claim's theorems the Coq kernel checked), `not run`, or `no theorem`."""
    theorems = entry.get("kernel_theorems", [])
    if not theorems:
        return "no theorem"
    if {theorem["status"] for theorem in theorems} == {"not-run"}:
        return "not run"
    checked = sum(theorem["status"] == "checked" for theorem in theorems)
    return f"{checked}/{len(theorems)} checked"


def verdict_words(entry: dict[str, Any]) -> str:
    """`refuted (correction proved)`, `proved`, `unknown`, with the kernel status when the entry carries it."""
    words = str(entry["verdict"])
    if entry.get("correction"):
        words += f" (correction {entry['correction']['verdict']})"
    return words


def _source_short(key: str) -> str:
    from ropecheck.proofs.claims._source_documents import source_document

    registered = source_document(key)
    return registered.short if registered is not None else key


def _sources(entry: dict[str, Any]) -> str:
    return ", ".join(dict.fromkeys(_source_short(s["key"]) for s in entry["sources"]))


def print_table(entries: Sequence[dict[str, Any]], stream: TextIO | None = None, width: int | None = None) -> None:
    """The ledger: ID, verdict, numeric marks and title; fitted to the terminal, or one tab-separated line each.

    **Arguments:**

    - `entries`: claims as `Claim.to_json()` gives them (with `numeric` when measured).
    - `stream`: where to write (a terminal gets a fitted table; anything else plain lines).
    - `width`: the table's width (`--wide`); by default the terminal's, or plain lines when not a terminal.
    """
    stream = sys.stdout if stream is None else stream
    has_numeric = any("numeric" in entry for entry in entries)
    width = width or terminal_width(stream)
    if width is None:
        for entry in entries:
            cells = [entry["id"], verdict_words(entry), "kernel " + kernel_cell(entry)]
            if has_numeric:
                cells.append(numeric_cell(entry.get("numeric")))
            cells += [_sources(entry), plain_title(entry["title"])]
            stream.write("\t".join(cells) + "\n")
        if has_numeric:
            stream.write(NUMERIC_LEGEND + "\n")
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text("ropecheck claims ledger"), expand=False, pad_edge=False, show_lines=False)
    table.add_column("ID", no_wrap=True, style="bold")
    table.add_column("verdict", no_wrap=width >= 100, max_width=28)
    table.add_column("kernel", no_wrap=True)
    if has_numeric:
        table.add_column("numeric", no_wrap=True)
    if width >= 100:
        table.add_column("sources", max_width=22)
    table.add_column("title", ratio=1, overflow="fold")
    colour = {"proved": "green", "refuted": "red", "unknown": "yellow"}
    for entry in entries:
        row: list[Text] = [
            Text(entry["id"]),
            Text(verdict_words(entry), style=colour.get(entry["verdict"], "magenta")),
            Text(kernel_cell(entry)),
        ]
        if has_numeric:
            row.append(Text(numeric_cell(entry.get("numeric"))))
        if width >= 100:
            row.append(Text(_sources(entry)))
        row.append(Text(plain_title(entry["title"])))
        table.add_row(*row)
    console = Console(file=stream, width=width, markup=False, highlight=False, emoji=False)
    console.print(table)
    if has_numeric:
        console.print(Text(NUMERIC_LEGEND), overflow="fold")


def print_ids(entries: Sequence[dict[str, Any]], stream: TextIO | None = None) -> None:
    """`claims list`: one line per claim, `ID  topic  title` (no verdicts: listing decides nothing)."""
    stream = sys.stdout if stream is None else stream
    for entry in entries:
        stream.write(f"{entry['id']}\t{entry['topic']}\t{plain_title(entry['title'])}\n")


def resolve_ids(requested: Sequence[str], known: Sequence[str]) -> tuple[list[str], list[str]]:
    """Map user-typed IDs to ledger IDs case-insensitively (`_` and `-` alike).

    **Returns:** `(resolved, errors)`: the ledger IDs found, and one message per ID not found, with a
    "did you mean" suggestion when a close ID exists.
    """
    folded = {_fold(claim_id): claim_id for claim_id in known}
    resolved: list[str] = []
    errors: list[str] = []
    for raw in requested:
        for item in (part for part in raw.split(",") if part.strip()):
            hit = folded.get(_fold(item))
            if hit is not None:
                resolved.append(hit)
                continue
            close = suggest_ids(item, list(folded))
            names = ", ".join(folded[c] for c in close)
            hint = f"; did you mean {names}?" if close else "; see 'ropecheck claims list'"
            errors.append(f"unknown claim ID {item.strip()!r}{hint}")
    return list(dict.fromkeys(resolved)), errors


def suggest_ids(typed: str, folded_ids: Sequence[str], limit: int = 6) -> list[str]:
    """IDs that contain what was typed (`decay` → every `…-DECAY-…` claim), then IDs spelled alike."""
    wanted = _fold(typed)
    contains = [i for i in folded_ids if wanted and wanted in i]
    close = difflib.get_close_matches(wanted, list(folded_ids), n=3, cutoff=0.6)
    return list(dict.fromkeys([*contains, *close]))[:limit]


def _fold(claim_id: str) -> str:
    return claim_id.strip().upper().replace("_", "-")


def print_claim(entry: dict[str, Any], stream: TextIO | None = None) -> None:
    """`claims show ID`: statement, reading, sources with quotes, verdict and certificate in words,
    counterexample, correction, kernel status and numeric evidence — wrapped to the terminal, plain otherwise."""
    stream = sys.stdout if stream is None else stream
    width = terminal_width(stream)
    out = _Writer(stream, width)
    out.heading(f"{entry['id']} — {plain_title(entry['title'])}")
    out.field("verdict", f"{entry['verdict']} — {entry.get('verdict_reason', '')}")  # from the kernel theorem
    out.field("statement", entry["statement"])
    for item in entry.get("assumptions", []):
        out.bullet(item, label="assumption")
    if entry.get("interpretation"):
        out.field("reading", entry["interpretation"])
    literal = entry.get("literal")
    if literal and literal.get("reading"):
        out.field("literal", f"{literal['reading']} — {literal.get('verdict', 'unknown')} (kernel)")
    out.heading("Sources")
    from ropecheck.proofs.claims._source_documents import source_title

    for source in entry["sources"]:
        out.bullet(f"{source_title(source['key'])}: “{_one_line(source['quote'])}”")
    _certificate_words(out, entry.get("certificate", {}))
    correction = entry.get("correction")
    if correction:
        out.heading("Correction")
        out.field("statement", correction["statement"])
        if correction.get("explanation"):
            out.field("why", correction["explanation"])
        out.field("verdict", f"{correction.get('verdict', '?')} (kernel)")
        out.field(
            "search",
            f"the SymPy engine alone reached {correction.get('engine_verdict', '?')} "
            f"({correction.get('method', '?')}); the kernel's theorem decides",
        )
    theorems = entry.get("kernel_theorems")
    if theorems is not None:
        out.heading("Kernel (Coq)")
        if not theorems:
            out.bullet("no theorem: " + str(entry.get("kernel_reason", "the kernel does not decide this claim")))
        from ._claims_cite import source_commit, theorem_location

        for theorem in theorems:
            axioms = ", ".join(theorem.get("axioms", [])) or "closed under the global context"
            out.bullet(f"{theorem['role']}: {theorem['module']}.{theorem['theorem']} — {theorem['status']}; {axioms}")
            location = theorem_location(theorem["module"], theorem["theorem"])
            if theorem.get("role") != "instance":
                out.field("at", location or "printed from the registry when the development is built")
            if theorem.get("elaborated_statement"):
                out.field("states", _one_line(theorem["elaborated_statement"]))
        if theorems:
            out.field("commit", f"{source_commit()} (cite with the BibTeX on the claim's docs page)")
    if entry.get("engine_verdict") or entry.get("method"):
        out.heading("How the proof was searched for (SymPy)")
        out.field(
            "search",
            f"the SymPy engine alone reached {entry.get('engine_verdict', '?')} ({entry.get('method', '?')}); "
            "the kernel's theorem above decides",
        )
    numeric = entry.get("numeric")
    if numeric:
        _numeric_words(out, numeric)
    out.field("test", entry.get("test", ""))
    out.heading(WHO_DECIDES)


MARK_WORDS = {
    "✓": "confirms",
    "~": "below what the format resolves",
    "?": "bound too loose to decide",
    "✗": "contradiction",
}


def print_answer(topic: Any, entries: Sequence[dict[str, Any]], stream: TextIO | None = None) -> None:
    """`claims show TOPIC`: the topic's one-paragraph answer from its claims' verdicts (`_claims_topics`), wrapped
    to the terminal, then where the details are."""
    from ._claims_topics import answer_paragraph

    stream = sys.stdout if stream is None else stream
    out = _Writer(stream, terminal_width(stream))
    out.heading(answer_paragraph(topic, entries, plain_title))
    out.field("details", "ropecheck claims show " + " ".join(topic.claim_ids))
    out.heading(WHO_DECIDES)


def numeric_line(check: dict[str, Any]) -> str:
    """One format's numeric evidence in words: what the error is of, the rounding bound it is held to and the
    ratio, or `not numerically tested` where nothing was compared (never a `nan` figure).

    **Arguments:**

    - `check`: one format's column of the evidence (`ropecheck.numeric.mirrors._evidence.summarise`).

    **Returns:** e.g. `✓ confirms: largest error of the statement computed in the dtype (…) 1.2e-07 over 8 cases;
    rounding bound 3.1e-06, ratio 0.034`, or `–, not numerically tested`.
    """
    mark = numeric_mark(check)

    def figure(key: str) -> str | None:
        value = check.get(key)
        return f"{value:.3g}" if isinstance(value, int | float) and math.isfinite(value) else None

    error, bound, ratio = figure("max_error") or figure("error"), figure("bound"), figure("ratio")
    if mark == "–" or error is None:
        words = f"{mark}, not numerically tested"
    else:
        cases = check.get("cases")
        over = f" over {cases} cases" if isinstance(cases, int) and cases else ""
        if check.get("measure") == "discrepancy":
            what = f"the refutation's discrepancy |left − right| at the counterexample, computed in the dtype: {error}"
        else:
            what = (
                f"largest error of the statement computed in the dtype (|left − right| for an identity) {error}{over}"
            )
        words = f"{mark} {MARK_WORDS.get(mark, '')}: {what}".replace("  ", " ")
        if bound is not None:
            words += f"; rounding bound {bound}" + (f", ratio {ratio}" if ratio is not None else "")
    if check.get("note"):
        words += f", {check['note']}"
    return words


def _numeric_words(out: _Writer, numeric: dict[str, Any]) -> None:
    out.heading("Numeric evidence")
    checks = {key: numeric[key] for key in NUMERIC_KEYS if numeric.get(key)}
    reasons = "; ".join(f"{u['part']}: {u['reason']}" for u in numeric.get("not_tested") or [])
    if checks and all(numeric_line(check).startswith("–, not numerically tested") for check in checks.values()):
        out.bullet("not numerically tested" + (f" ({reasons})" if reasons else ""))
        return
    for key, check in checks.items():
        out.bullet(f"{key}: {numeric_line(check)}")
    if reasons:
        out.bullet(reasons, label="not numerically tested")


def _certificate_words(out: _Writer, certificate: dict[str, Any]) -> None:
    steps = certificate.get("steps") or []
    if steps:
        out.heading("Engine search (the SymPy derivation that found the proof; not the verdict)")
        for number, step in enumerate(steps, start=1):
            out.bullet(f"{number}. {step.get('name', 'step')}: {step.get('verdict', '?')} ({step.get('method', '')})")
    counterexample = certificate.get("counterexample")
    if counterexample:
        found = "Counterexample" if certificate.get("verdict") != "proved" else "Witness"
        out.heading(f"{found} found by the engine search (the kernel's is in the theorem it states)")
        if counterexample.get("description"):
            out.field("what", counterexample["description"])
        values = counterexample.get("values") or {}
        if values:
            out.field("values", ", ".join(f"{name} = {value}" for name, value in values.items()))
        point = counterexample.get("point") or {}
        if point:
            out.field("at", ", ".join(f"{name} = {value}" for name, value in point.items()))
        for part, interval in (counterexample.get("interval") or {}).items():
            out.field(f"certified {part}", f"{interval} (excludes 0)")
    for item in certificate.get("conditions") or []:
        out.bullet(item, label="side condition")
    for item in certificate.get("notes") or []:
        out.bullet(item, label="note")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class _Writer:
    """Headings, labelled fields and bullets, wrapped at `width` (no wrapping when `width` is None)."""

    def __init__(self, stream: TextIO, width: int | None) -> None:
        self.stream = stream
        self.width = width

    def _emit(self, text: str, indent: str, first: str) -> None:
        if self.width is None:
            self.stream.write(first + _one_line(text) + "\n")
            return
        import textwrap

        wrapped = textwrap.wrap(
            _one_line(text),
            width=self.width,
            initial_indent=first,
            subsequent_indent=indent,
            break_long_words=True,
            break_on_hyphens=False,
        )
        self.stream.write("\n".join(wrapped or [first]) + "\n")

    def heading(self, text: str) -> None:
        self.stream.write("\n")
        self._emit(text, "", "")

    def field(self, name: str, text: str) -> None:
        self._emit(text, "    ", f"{name}: ")

    def bullet(self, text: str, label: str = "") -> None:
        self._emit(text, "    ", f"  - {label + ': ' if label else ''}")
