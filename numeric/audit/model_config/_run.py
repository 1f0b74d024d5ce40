"""`audit_config`: a config in; the expected values per layer type and regime, and a verdict per engine, out.

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from ._compare import Finding, compare, verdict_of
from ._expected import Expected, expected_values, per_layer_table
from ._parse import ModelConfig, load_config
from .engines import ENGINES, EngineUnavailable, engine_module
from .engines._isolation import isolated_streams

__all__ = ["ConfigAudit", "EngineResult", "audit_config"]


@dataclasses.dataclass
class EngineResult:
    """One engine on one config: `name`, `version` (or "not available"), `verdict` ("conforms", "differs",
    "could not be built", "does not know model_type", "not available"), `findings`, `reason` (why not available)."""

    name: str
    version: str
    verdict: str
    findings: list[Finding] = dataclasses.field(default_factory=list)
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        """The `engines` entry of the JSON report."""
        out: dict[str, Any] = {"version": self.version, "verdict": self.verdict,
                               "findings": [f.to_json() for f in self.findings]}
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclasses.dataclass
class ConfigAudit:
    """A config audit: `model` (the parsed config), `expected` (per layer type and regime), `engines`."""

    model: ModelConfig
    expected: list[Expected]
    engines: list[EngineResult]

    @property
    def verdict(self) -> str:
        """"differs" when any available engine differs, else "conforms" (engines not available do not count)."""
        return "differs" if any(e.verdict == "differs" for e in self.engines) else "conforms"

    def to_json(self) -> dict[str, Any]:
        """The object `ropecheck audit-config --json` prints: `config`, `layers` (per layer type and regime),
        `per_layer` (per layer index, pointing into `layers`), `engines`."""
        return {
            "config": {"path": self.model.path, "model_type": self.model.model_type,
                       "unread_keys": list(self.model.unread_keys),
                       "defaults": self.model.defaults.to_json() if self.model.defaults else None},
            "layers": [e.to_json() for e in self.expected],
            "per_layer": per_layer_table(self.expected),
            "engines": {e.name: e.to_json() for e in self.engines},
        }


def _run_engine(name: str, model: ModelConfig, expected: list[Expected]) -> EngineResult:
    module = engine_module(name)
    with isolated_streams():  # never interactive, never printing into the report
        try:
            version = module.version()
        except EngineUnavailable as reason:
            return EngineResult(name, "not available", "not available", reason=str(reason))
        observations = module.observe(model, expected)
    findings = [f for e, o in zip(expected, observations, strict=True) for f in compare(name, e, o)]
    return EngineResult(name, version, verdict_of(findings), findings)


def audit_config(path: str | Path, engines: list[str] | None = None) -> ConfigAudit:
    """Audit a model config: its expected values and each engine's.

    **Arguments:** `path` (a config.json or a directory holding one), `engines` (names from `ENGINES`; None: all).

    **Returns:** the `ConfigAudit`.

    **Raises:** `ConfigError` for a config that cannot be read; `KeyError` for an unknown engine name;
    `AdapterError` for a failure inside ropecheck's own engine adapter (ropecheck's bug, never the engine's).
    """
    model = load_config(path)
    expected = [entry for layer in model.layers for entry in expected_values(layer)]
    names = list(ENGINES) if engines is None else engines
    for name in names:
        if name not in ENGINES:
            raise KeyError(name)
    return ConfigAudit(model, expected, [_run_engine(name, model, expected) for name in names])
