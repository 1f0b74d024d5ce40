"""The cross-engine conformance table (`ropecheck audit-config CONFIG... --markdown`): real configs × engines, each
cell the engine's verdict on that config, then every difference found, with the key misread and the engine's
file:line — the docs page `config-conformance` is this output.

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

from pathlib import Path

from ._run import ConfigAudit

__all__ = ["conformance_markdown"]


def _name(audit: ConfigAudit) -> str:
    path = Path(audit.model.path)
    return path.parent.name if path.name == "config.json" else path.name


def _cell(audit: ConfigAudit, engine: str) -> str:
    (result,) = [e for e in audit.engines if e.name == engine]
    if result.verdict in ("conforms", "not available"):
        return result.verdict
    keys = sorted({f"`{f.key}`" for f in result.findings if f.key})
    return f"**{result.verdict}**" + (f" ({', '.join(keys)})" if keys else "")


def _layers(audit: ConfigAudit) -> str:
    seen = []
    for entry in audit.expected:
        layer = entry.layer
        if layer.rope_type == "none":
            text = f"no RoPE on {len(layer.layer_indices)} layers"
            if text not in seen:
                seen.append(text)
            continue
        text = f"{layer.rope_type} d={layer.rotary_dim} base={layer.base:g}"
        if layer.factor:
            text += f" s={layer.factor:g}"
        if entry.attention_factor != 1:
            text += f" attn={entry.attention_factor:.5g}"
        if entry.softmax_multiplier != 1:
            text += f" softmax×{entry.softmax_multiplier:.5g}"
        if text not in seen:
            seen.append(text)
    return "; ".join(seen)


def conformance_markdown(audits: list[ConfigAudit]) -> str:
    """The Markdown table and the list of differences.

    **Arguments:** `audits` (one `ConfigAudit` per config, all with the same engines).

    **Returns:** Markdown text.
    """
    engines = [e.name for e in audits[0].engines] if audits else []
    versions = {e.name: e.version for a in audits for e in a.engines}
    columns = ["config", "expected (per layer type)"] + [
        f"{name} {versions[name]}" if versions[name] != "not available" else name for name in engines]
    header = "| " + " | ".join(columns) + " |"
    lines = [header, "|" + "---|" * (2 + len(engines))]
    for audit in audits:
        cells = [f"`{_name(audit)}`", _layers(audit), *(_cell(audit, engine) for engine in engines)]
        lines.append("| " + " | ".join(cells) + " |")
    differences = []
    for audit in audits:
        for engine in audit.engines:
            for f in engine.findings:
                where = f" (`{f.where}`)" if f.where else ""
                key = f" — key `{f.key}`" if f.key else ""
                differences.append(f"- **{engine.name} {engine.version}**, `{_name(audit)}` {f.layer_type}/{f.regime}, "
                                   f"{f.quantity}: {f.message}{key}{where}")
    lines += ["", "Differences found:" if differences else "No differences found.", "", *differences]
    lines += _sweeps(audits)
    return "\n".join(lines) + "\n"


def _sweeps(audits: list[ConfigAudit]) -> list[str]:
    """The expected θ of every length-dependent layer type across its sweep (`sweep_lengths`)."""
    rows = []
    for audit in audits:
        for entry in audit.expected:
            if entry.layer.rope_type not in ("dynamic", "longrope"):
                continue
            rows.append(f"| `{_name(audit)}` | {entry.layer.layer_type} | {entry.layer.rope_type} | {entry.length} | "
                        f"{entry.regime} | {entry.inv_freq[1]:.10g} | {entry.inv_freq[-1]:.10g} |")
    if not rows:
        return []
    return ["", "Length sweep (expected θ₁ and the last θ at each length L = largest position + 1):", "",
            "| config | layer type | rope | L | regime | θ₁ | θ last |", "|---|---|---|---|---|---|---|", *rows]
