"""`ropecheck claims` in a terminal: one row per claim that fits the width, a legend, a summary, progress.

Each claim is one row — ID, verdict, the kernel's count of checked theorems, the numeric marks — with every ID in
full and the columns after it aligned (the ID column is as wide as the longest ID), and the title in full: on the
row when it fits, else on the lines below it, indented. `--wide` prints every column in full
(`_claims_view.print_table`); piped output stays one tab-separated record per line.
"""

from __future__ import annotations

import sys
import textwrap
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from ._claims_view import kernel_cell, numeric_cell, plain_title

VERDICT_WIDTH = 8
#: Room the columns after the ID need: verdict, Coq count, numeric marks and their spaces.
_STATUS_WIDTH = VERDICT_WIDTH + 1 + 4 + 1 + 5 + 1
TITLE_INDENT = "    "
LEGEND = (
    "verdict: proved / refuted by a theorem the Coq kernel checked; proved* / refuted*: the claim also has "
    "a corrected or other reading, and that reading is proved too (claims show ID gives it); "
    "unknown: not decided (claims show ID says why) · Coq: theorems the kernel checked / stated (– not run) · "
    "num(eric) f16 bf16 f32 f64 mp: ✓ confirms · ~ below what the format resolves · ? bound too loose · "
    "✗ contradiction · – not tested · details: ropecheck claims show ID, or --wide"
)


def short_verdict(entry: dict[str, Any]) -> str:
    """`proved`, `refuted`, `refuted*` (its correction proved), `unknown`, or `engine` (kernel not run)."""
    verdict = str(entry["verdict"])
    if verdict.startswith("engine only"):
        return "engine"
    correction = entry.get("correction") or {}
    return verdict + ("*" if correction.get("verdict") == "proved" else "")


def kernel_count(entry: dict[str, Any]) -> str:
    """`3/3` (theorems the kernel checked / theorems stated), `–` when the kernel did not run, `none`."""
    cell = kernel_cell(entry)
    return {"no theorem": "none", "not run": "–"}.get(cell, cell.removesuffix(" checked"))


def summary_line(entries: Sequence[dict[str, Any]], kernel_version: str | None) -> str:
    """`46 claims: 27 proved, 17 refuted, 2 unknown — kernel: Coq 8.16.1` (or why the kernel did not run)."""
    counts = Counter(str(entry["verdict"]) for entry in entries)
    parts = [f"{counts[v]} {v}" for v in ("proved", "refuted", "unknown") if counts[v]]
    parts += [f"{n} {v}" for v, n in counts.items() if v not in ("proved", "refuted", "unknown")]
    kernel = f"Coq {kernel_version}" if kernel_version else "not run (Coq is not installed)"
    noun = "claim" if len(entries) == 1 else "claims"
    return f"{len(entries)} {noun}: {', '.join(parts)} — kernel: {kernel}"


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width=width, break_long_words=False, break_on_hyphens=False) or [""]


def print_lines(
    entries: Sequence[dict[str, Any]], width: int, kernel_version: str | None, stream: TextIO | None = None
) -> None:
    """The ledger at `width` columns: a header, one line per claim, the legend and the summary.

    **Arguments:**

    - `entries`: claims as `Claim.to_json()` gives them (with `numeric` when measured).
    - `width`: the terminal's columns; no line printed is wider.
    - `kernel_version`: the Coq version for the summary (`None` when the kernel did not run).
    - `stream`: where to write (standard output by default).
    """
    stream = sys.stdout if stream is None else stream
    has_numeric = any("numeric" in entry for entry in entries)
    id_width = max((len(entry["id"]) for entry in entries), default=2)
    header = ["ID".ljust(id_width), "verdict".ljust(VERDICT_WIDTH), "Coq "]
    if has_numeric:
        header.append("num. ")
    header.append("title")
    stream.write(" ".join(header)[:width] + "\n")
    for entry in entries:
        claim_id = entry["id"]
        cells = [short_verdict(entry).ljust(VERDICT_WIDTH), kernel_count(entry).ljust(4)]
        if has_numeric:
            cells.append(numeric_cell(entry.get("numeric")).ljust(5))
        if id_width + _STATUS_WIDTH > width:  # too narrow for the ID column: the status on its own line
            stream.write(claim_id + "\n")
            claim_id = ""
        line = " ".join([claim_id.ljust(min(id_width, width - _STATUS_WIDTH)), *cells])
        title = " ".join(plain_title(entry["title"]).split())
        if len(line) + 1 + len(title) <= width:
            stream.write(f"{line} {title}\n")
            continue
        stream.write(line.rstrip() + "\n")
        lines = textwrap.wrap(title, width=width, initial_indent=TITLE_INDENT, subsequent_indent=TITLE_INDENT)
        stream.write("\n".join(lines) + "\n")
    stream.write("\n" + "\n".join(_wrap(LEGEND if has_numeric else LEGEND.split(" · num(eric)")[0], width)) + "\n")
    stream.write("\n".join(_wrap(summary_line(entries, kernel_version), width)) + "\n")


class Progress:
    """`checking claims 12/46: ROPE-DECAY-TO-ZERO` on one line of standard error while the ledger is computed;
    silent when standard error is not a terminal (a CI log gets no progress noise), cleared at the end."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.active = self.stream.isatty()

    def __call__(self, done: int, total: int, claim_id: str) -> None:
        if not self.active:
            return
        if done >= total:
            self.stream.write("\r\x1b[K")
        else:
            self.stream.write(f"\r\x1b[Kropecheck: checking claims {done + 1}/{total}: {claim_id}"[:79])
        self.stream.flush()

    def note(self, text: str) -> None:
        """A step before the per-claim loop (loading the registry, the kernel)."""
        if self.active:
            self.stream.write(f"\r\x1b[Kropecheck: {text}"[:79])
            self.stream.flush()
