"""pytest plugin: `pytest --rope-impl TARGET` runs ropecheck's conformance checks inside any test suite.

One test item per audit property (`ropecheck[TARGET]::contract`, `::identity`, …) is added to the session; the
audit runs once (on the first item) and each item fails with its property's findings, or is skipped when the
property could not be evaluated. The report header names the target. Nothing heavy is imported when the plugin
loads: NumPy, torch and JAX are imported only when the first item runs.

Options: `--rope-impl TARGET` (`package.module:attr`, `path/to/file.py:attr`, or a built-in target), and
`--rope-base`, `--rope-layout`, `--rope-scaling`, `--rope-rotary-dim`, `--rope-max-position`, `--rope-dtypes`,
`--rope-framework`, `--rope-head-dim`, `--rope-timeout`, `--rope-direction`, `--rope-partial` with the meaning of
the `ropecheck audit` options; `--rope-kind sinusoidal|bias|scores` audits another kind of target (items
named after that kind's properties) with `--rope-frequencies`, `--rope-offset`, `--rope-scheme`,
`--rope-clip`. Unlike the command line, the plugin is strict by default: an undeclared base fails
(`--rope-no-strict` makes it a note).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from numeric.audit.properties import PROPERTIES

_AUDIT_KEY = "_ropecheck_audit"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ropecheck", "ropecheck RoPE conformance")
    group.addoption("--rope-impl", metavar="TARGET", default=None, help="audit this RoPE fn(x, positions)")
    group.addoption("--rope-base", type=float, default=None, help="expected θ base (default: inferred)")
    group.addoption("--rope-layout", default=None, help="expected pairing: interleaved or half")
    group.addoption("--rope-scaling", default=None, help="scaling spec, e.g. linear:4 or yarn:8,orig=4096")
    group.addoption("--rope-rotary-dim", type=int, default=None, help="expected rotary dimension")
    group.addoption("--rope-max-position", type=int, default=32768, help="audit positions 0…N−1")
    group.addoption("--rope-dtypes", default=None, help="comma-separated dtypes (default: float32,bfloat16,float16)")
    group.addoption("--rope-direction", default="counter-clockwise", help="counter-clockwise or clockwise")
    group.addoption("--rope-partial", default=None, help="partial rotary placement: first or p-rope")
    group.addoption(
        "--rope-no-strict",
        action="store_true",
        help="let an undeclared base pass with a note (by default it fails: declare --rope-base)",
    )
    group.addoption("--rope-framework", default="auto", help="auto, numpy, torch or jax")
    group.addoption("--rope-head-dim", type=int, default=None, help="head dimension d")
    group.addoption("--rope-timeout", type=float, default=30.0, help="seconds one call may take")
    group.addoption("--rope-kind", default="rope", help="rope (default), sinusoidal, bias or scores")
    group.addoption("--rope-frequencies", default=None, help="sinusoidal: standard or t2t (default: detected)")
    group.addoption("--rope-offset", type=int, default=0, help="sinusoidal: row of position p is PE(p + K)")
    group.addoption("--rope-scheme", default=None, help="bias: t5[:buckets=…,max_distance=…] or alibi")
    group.addoption("--rope-clip", type=int, default=None, help="scores: the declared Shaw clipping distance")


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    target = config.getoption("--rope-impl")
    if not target:
        return None
    kind = config.getoption("--rope-kind")
    if kind != "rope":
        top = config.getoption("--rope-max-position") - 1
        return [f"ropecheck: auditing {kind} target {target} (positions 0…{top})"]
    return [f"ropecheck: auditing RoPE target {target} (positions 0…{config.getoption('--rope-max-position') - 1})"]


class RopeAuditCollector(pytest.Collector):
    """The group of one item per property for the audited target."""

    def collect(self) -> Iterator[pytest.Item]:
        from numeric.audit.kinds.names import KIND_PROPERTIES

        for prop in KIND_PROPERTIES.get(self.config.getoption("--rope-kind"), PROPERTIES):
            yield RopePropertyItem.from_parent(self, name=prop)


class RopePropertyItem(pytest.Item):
    """One audit property of the target: passes when all its findings are ok."""

    def runtest(self) -> None:
        outcome = _run_audit(self.config)
        if isinstance(outcome, str):
            raise RopeAuditFailure(f"the audit could not run: {outcome}")
        findings = [f for f in outcome.findings if f.property == self.name]
        not_evaluated = getattr(outcome, "not_evaluated", {})
        if not findings and self.name in not_evaluated:
            pytest.skip(f"{self.name} was not evaluated: {not_evaluated[self.name]}")
        if not findings:
            pytest.skip(f"{self.name} was not evaluated (the target failed its contract)")
        failing = [f for f in findings if not f.ok]
        if failing:
            lines = []
            for finding in failing:
                where = f"[{finding.dtype}] " if finding.dtype else ""
                fix = f" Fix: {finding.fix}." if finding.fix else ""
                lines.append(f"{where}{finding.detail}{fix} (claims: {', '.join(finding.claims)})")
            raise RopeAuditFailure("\n".join(lines))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, RopeAuditFailure):
            return f"ropecheck {self.name} fails for {self.config.getoption('--rope-impl')}:\n{excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "ropecheck", None, f"ropecheck[{self.config.getoption('--rope-impl')}]::{self.name}"


class RopeAuditFailure(Exception):
    """A property of the audited target fails (reported without a traceback)."""


def _run_audit(config: pytest.Config) -> Any:
    """The audit of `--rope-impl`, run once per session: an `AuditReport`, or the one-line error as a string."""
    cached = getattr(config, _AUDIT_KEY, None)
    if cached is not None:
        return cached
    from numeric.audit import audit
    from numeric.audit.calls import AuditError

    kind = config.getoption("--rope-kind")
    try:
        if kind != "rope":
            outcome: Any = audit(
                config.getoption("--rope-impl"),
                kind=kind,
                base=config.getoption("--rope-base"),
                layout=config.getoption("--rope-layout"),
                frequencies=config.getoption("--rope-frequencies"),
                offset=config.getoption("--rope-offset"),
                scheme=config.getoption("--rope-scheme"),
                clip=config.getoption("--rope-clip"),
                max_position=config.getoption("--rope-max-position"),
                dtypes=config.getoption("--rope-dtypes"),
                framework=config.getoption("--rope-framework"),
                head_dim=config.getoption("--rope-head-dim") if kind != "bias" else None,
                timeout=config.getoption("--rope-timeout"),
            )
            setattr(config, _AUDIT_KEY, outcome)
            return outcome
        outcome = audit(
            config.getoption("--rope-impl"),
            base=config.getoption("--rope-base"),
            layout=config.getoption("--rope-layout"),
            scaling=config.getoption("--rope-scaling"),
            rotary_dim=config.getoption("--rope-rotary-dim"),
            max_position=config.getoption("--rope-max-position"),
            dtypes=config.getoption("--rope-dtypes"),
            framework=config.getoption("--rope-framework"),
            head_dim=config.getoption("--rope-head-dim"),
            timeout=config.getoption("--rope-timeout"),
            direction=config.getoption("--rope-direction"),
            partial=config.getoption("--rope-partial"),
            strict=not config.getoption("--rope-no-strict"),
        )
    except AuditError as error:
        outcome = str(error)
    setattr(config, _AUDIT_KEY, outcome)
    return outcome


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    target = config.getoption("--rope-impl")
    if not target:
        return
    collector = RopeAuditCollector.from_parent(session, name=f"ropecheck[{target}]")
    items.extend(collector.collect())
