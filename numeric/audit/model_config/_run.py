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

__all__ = ["ConfigAudit", "EngineResult", "audit_config", "audit_configs"]


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


def _run_engine(name: str, configs: list[tuple[ModelConfig, list[Expected]]]) -> list[EngineResult]:
    """Engine `name` on every config: its version once, then its observations — from one call where the adapter
    has `observe_many` (one subprocess for all configs), else config by config."""
    module = engine_module(name)
    with isolated_streams():  # never interactive, never printing into the report
        try:
            version = module.version()
        except EngineUnavailable as reason:
            return [EngineResult(name, "not available", "not available", reason=str(reason)) for _ in configs]
        if hasattr(module, "observe_many"):
            observed = module.observe_many(configs)
        else:
            observed = [module.observe(model, expected) for model, expected in configs]
    results = []
    for (_, expected), observations in zip(configs, observed, strict=True):
        findings = [f for e, o in zip(expected, observations, strict=True) for f in compare(name, e, o)]
        results.append(EngineResult(name, version, verdict_of(findings), findings))
    return results


def audit_configs(paths: list[str | Path], engines: list[str] | None = None) -> list[ConfigAudit]:
    """Audit several model configs: what `audit_config` gives for each, with each engine started once for all of
    them where its adapter can (MLX-LM: one subprocess), so its import is paid once.

    **Arguments:** `paths` (config.json files or directories holding one), `engines` (names from `ENGINES`; None:
    all).

    **Returns:** one `ConfigAudit` per path, in order.

    **Raises:** as `audit_config` (every config is read before any engine runs).
    """
    models = [load_config(path) for path in paths]
    configs = [(model, [entry for layer in model.layers for entry in expected_values(layer)]) for model in models]
    names = list(ENGINES) if engines is None else engines
    for name in names:
        if name not in ENGINES:
            raise KeyError(name)
    per_engine = [_run_engine(name, configs) for name in names]
    return [ConfigAudit(model, expected, [results[i] for results in per_engine])
            for i, (model, expected) in enumerate(configs)]


def audit_config(path: str | Path, engines: list[str] | None = None) -> ConfigAudit:
    """Audit a model config: its expected values and each engine's.

    **Arguments:** `path` (a config.json or a directory holding one), `engines` (names from `ENGINES`; None: all).

    **Returns:** the `ConfigAudit`.

    **Raises:** `ConfigError` for a config that cannot be read; `KeyError` for an unknown engine name;
    `AdapterError` for a failure inside ropecheck's own engine adapter (ropecheck's bug, never the engine's).
    """
    (audit,) = audit_configs([path], engines)
    return audit
