"""The report of `audit-engines`: text for the terminal, JSON, and the conformance page's Markdown (generated from
runs only: each table names the engine versions, the date and the machine the runs were made on).

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import re
from pathlib import Path
from typing import Any

from ._audit import ConfigRun, EngineRun
from ._engines import ENGINES

__all__ = ["PAGE_BEGIN", "PAGE_END", "conformance_markdown", "machine", "run_record", "to_text", "update_page"]

PAGE_BEGIN = "<!-- audit-engines live runs: generated, do not edit -->"
PAGE_END = "<!-- end of audit-engines live runs -->"


def machine() -> str:
    """The machine, in words: CPU model, cores, OS."""
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), "")
    except OSError:
        pass
    return f"{model or platform.processor() or platform.machine()}, {os.cpu_count()} cores, {platform.system()}"


def run_record(runs: list[ConfigRun]) -> dict[str, Any]:
    """The JSON document of one `audit-engines` run (what `--json` prints and the page is generated from), with the
    machine's 1-minute load average when it was written (its timings depend on it on a shared machine)."""
    return {"date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"), "machine": machine(),
            "load_average": round(os.getloadavg()[0], 2), "configs": [run.to_json() for run in runs]}


def _cell(engine: dict[str, Any]) -> str:
    verdict = engine["verdict"]
    attribution = engine.get("attribution") or {}
    if verdict == "conforms":
        ratio = max((float(w["ratio"]) for w in engine["windows"]), default=0.0)
        return f"conforms (ratio {ratio:.2g})"
    if verdict in ("differs", "differs by design"):
        nonfinite = engine.get("nonfinite")
        key = f"`{attribution['key']}`" if attribution.get("explained") else "not explained"
        if nonfinite:
            first = nonfinite["first"]
            past = (f", past its {nonfinite['cache']['rows']}-row rotary cache" if nonfinite["cache"] else
                    "; not explained")
            before = f"{key} before position {first}; " if attribution else ""
            return f"**{verdict}** ({before}non-finite from position {first}{past})"
        return f"**{verdict}** ({key})"
    if verdict == "not available":
        return "not run here (not installed)"
    return f"**{verdict}**"


def conformance_markdown(records: list[dict[str, Any]]) -> str:
    """The configs × engines table and the findings, from `run_record` documents (one per run; a later run of the
    same config and engine replaces an earlier one).

    **Arguments:** `records`.

    **Returns:** Markdown.
    """
    cells: dict[str, dict[str, dict[str, Any]]] = {}
    versions: dict[str, list[tuple[str, str, str]]] = {}
    for record in records:
        for config in record["configs"]:
            for engine in config["engines"]:
                if engine["verdict"] == "not available" and engine["engine"] in cells.get(config["name"], {}):
                    continue
                cells.setdefault(config["name"], {})[engine["engine"]] = {**engine, "config": config}
                run = (engine["version"], record["date"], record["machine"])
                if engine["verdict"] != "not available" and run not in versions.setdefault(engine["engine"], []):
                    versions[engine["engine"]].append(run)
    names = list(ENGINES)
    lines = ["| config | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for config in sorted(cells):
        row = [_cell(cells[config][n]) if n in cells[config] else "not run here" for n in names]
        lines.append(f"| `{config}` | " + " | ".join(row) + " |")
    lines.append("")
    lines.append("Runs:")
    lines.append("")
    for name in names:
        for version, date, where in versions.get(name, []):
            lines.append(f"- **{name}** {version}: run {date} on {where}.")
        if not versions.get(name):
            lines.append(f"- **{name}**: not run here.")
    findings = [(c, n, e) for c, row in sorted(cells.items()) for n, e in row.items()
                if e["verdict"] not in ("conforms", "not available")]
    if findings:
        lines += ["", "Findings:", ""]
    for config, name, engine in findings:
        # A record keeps non-finite numbers as the strings "inf"/"nan" (finite_json); float() reads them back.
        worst = max(engine["windows"], key=lambda w: float(w["ratio"]), default=None)
        measured = (f" — largest |Δ log p| {float(worst['largest_difference']):.3g} at positions "
                    f"{worst['positions'][0]}–{worst['positions'][1]} ({worst['window']}), bound "
                    f"{float(worst['bound']):.3g}"
                    if worst else "")
        attribution = engine.get("attribution") or {}
        nonfinite = engine.get("nonfinite")
        scope = f" for the positions before {nonfinite['first']}" if nonfinite else ""
        explained = (f"; explained by {attribution['words']}{scope} (ratio after switching it in the reference "
                     f"{float(attribution['ratio']):.3g})" if attribution.get("explained") else
                     f"; closest suspect {attribution['words']} leaves ratio {float(attribution['ratio']):.3g}"
                     if attribution else "")
        explained += _nonfinite_words(nonfinite)
        design = f". Differs by design: {_names_as_code(engine['design'])}" if engine.get("design") else ""
        design += f". Where the engine reads it: {_names_as_code(engine['source'])}" if engine.get("source") else ""
        reason = f": {_as_code(engine['reason'])}" if engine.get("reason") else ""
        lines.append(f"- **{name}**, `{config}`: {engine['verdict']}{reason}{measured}{explained}{design}")
    return "\n".join(lines) + "\n"


def _nonfinite_words(nonfinite: dict[str, Any] | None) -> str:
    """`EngineRun.nonfinite` in words ("" for None): where the non-finite answers begin, and the rotary cache they
    begin past."""
    if not nonfinite:
        return ""
    words = f"; non-finite log-probabilities from position {nonfinite['first']}"
    if nonfinite["ratio_before"] is not None:
        words += f" (largest ratio before it {float(nonfinite['ratio_before']):.3g}, attributed on its own)"
    cache = nonfinite["cache"]
    if cache:
        words += (f"; the loaded model's rotary embedding ({cache['class']}, run by {cache['forward'] or 'forward'}) "
                  f"holds cos/sin for {cache['rows']} positions, 0–{cache['rows'] - 1}")
    return words


def _names_as_code(text: str) -> str:
    """`text` with its file paths and identifiers (words holding `/` or `_`) as code spans (a phone wraps them);
    a code span already in `text` is kept whole (wrapping its words again would break it into pieces)."""
    pieces = re.split(r"(`[^`]*`)", text)
    return "".join(piece if number % 2 else re.sub(r"(?<![`\w])([\w.\-]*[/_][\w./:\-]*\w)", r"`\1`", piece)
                   for number, piece in enumerate(pieces))


def _as_code(message: str, limit: int = 400) -> str:
    """An engine's message as inline code (it is the engine's text, and a phone wraps code at its edge), without
    the recording machine's folders (`…/site-packages/x.py` keeps from the package on) and cut at `limit`."""
    message = re.sub(r"/\S*/site-packages/", "", message)
    message = re.sub(r"/\S*/(numeric|ropecheck|proofs)/", r"\1/", message)
    if len(message) > limit:
        message = message[: limit - 1] + "…"
    fence = "`" * (max((len(run) for run in re.findall(r"`+", message)), default=0) + 1)
    return f"{fence} {message} {fence}"


def _engine_text(engine: EngineRun) -> list[str]:
    head = f"{engine.engine}: {engine.verdict}"
    if engine.version != "not available":
        head += f" ({engine.version}; load {engine.load_s:.1f} s, run {engine.run_s:.1f} s)"
    lines = [head]
    if engine.reason:
        lines.append(f"  {engine.reason}")
    for window in engine.windows:
        data = window.to_json()
        lines.append(f"  {data['window']:<24} positions {data['positions'][0]}–{data['positions'][1]}: "
                     f"|Δ log p| {data['largest_difference']:.3g}, bound {data['bound']:.3g}, ratio {data['ratio']:.3g}"
                     + (f" (without the float16 term {data['ratio_without_float16_term']:.3g})"
                        if "ratio_without_float16_term" in data else ""))
    if engine.attribution:
        a = engine.attribution
        state = "explained by" if a.explained else "not explained; closest"
        lines.append(f"  {state}: {a.words} [key `{a.key}`, layers {list(a.layers)}; ratio {a.ratio_before:.3g} → "
                     f"{a.ratio:.3g}]")
    if engine.nonfinite:
        lines.append(f"  {_nonfinite_words(engine.nonfinite)[2:]}")
    if engine.design:
        lines.append(f"  differs by design: {engine.design}")
    if engine.source:
        lines.append(f"  where the engine reads it: {engine.source}")
    lines += [f"  not reached: {text}" for text in engine.not_reached]
    lines += [f"  note: {text}" for text in engine.notes]
    return lines


def to_text(runs: list[ConfigRun]) -> str:
    """The terminal report."""
    lines = []
    for run in runs:
        lines.append(f"config: {run.files.source} → tiny model {run.files.directory}")
        for layer in run.files.table.layers:
            lines.append(f"  layers {list(layer.layer_indices)} {layer.layer_type}: {layer.rope_type}, "
                         f"base {layer.base:g}, d {layer.rotary_dim}")
        lines.append("  windows: " + ", ".join(f"{w.name} {w.start}–{w.end - 1}" for w in run.files.windows))
        for engine in run.engines:
            lines += _engine_text(engine)
        lines.append("")
    return "\n".join(lines)


def update_page(page: Path, records: Path) -> None:
    """Rewrite the generated section of the conformance page from every run record in `records` (`*.json`, as
    `audit-engines --record` writes them; later files replace earlier rows), leaving the rest of the page as it is.

    **Arguments:** `page` (docs/config-conformance.md), `records` (docs/engines-runs).
    """
    documents = [json.loads(file.read_text(encoding="utf-8")) for file in sorted(records.glob("*.json"))]
    documents.sort(key=lambda d: d["date"])
    table = conformance_markdown(documents) if documents else "No live run recorded yet.\n"
    text = page.read_text(encoding="utf-8")
    section = f"{PAGE_BEGIN}\n{table}{PAGE_END}"
    if PAGE_BEGIN in text and PAGE_END in text:
        head, rest = text.split(PAGE_BEGIN, 1)
        text = head + section + rest.split(PAGE_END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    page.write_text(text, encoding="utf-8")
