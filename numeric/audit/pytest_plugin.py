"""pytest plugin: `pytest --rope-impl TARGET` runs ropecheck's conformance checks inside any test suite.

The target's items are collected with the rest of the suite (so "collected N items" is what runs), one per
property, or one per property and dtype where the property is checked in each dtype:
`ropecheck::<target>::<property>[<dtype>]` or `ropecheck::<target>::<property>`. The audit runs once (on the first
item); each item fails with its findings, or is skipped when its property could not be evaluated. A target that
cannot be loaded (unimportable module, missing attribute, not callable, unknown built-in) is one usage error at
configure time. Nothing heavy is imported when the plugin loads without `--rope-impl`.

Options (each also an ini key `rope_<name>` in `pytest.ini` or `[tool.pytest.ini_options]`; the command line
wins): `--rope-impl TARGET` (`package.module:attr`, `path/to/file.py:attr`, or a built-in target), and
`--rope-base`, `--rope-layout`, `--rope-scaling`, `--rope-rotary-dim`, `--rope-max-position`, `--rope-dtypes`,
`--rope-framework`, `--rope-head-dim`, `--rope-timeout`, `--rope-direction`, `--rope-partial`, `--rope-budget`
with the meaning of the `ropecheck audit` options; `--rope-kind sinusoidal|bias|scores` audits another kind of
target with `--rope-frequencies`, `--rope-offset`, `--rope-scheme`, `--rope-clip`. Unlike the command line, the
plugin is strict by default: an undeclared base fails (`--rope-no-strict` makes it a note). `--rope-xfails FILE`
names known deviations, one node ID or `property[dtype]` per line (`#` comments): a listed item that fails is
xfail, one that passes is an XPASS(strict) failure, as array-api-tests does. A node ID as printed
(`pytest ropecheck::TARGET::direction`) reruns that item (with `[dtype]` omitted: every dtype of it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from ropecheck.numeric.audit.properties import PROPERTIES

_AUDIT_KEY = "_ropecheck_audit"
_DEFAULT_DTYPES = "float32,bfloat16,float16"


def _flag(raw: str) -> bool:
    return raw.strip().lower() in ("1", "true", "yes", "on")


#: name → (converter, default, help). Option `--rope-<name with ->`, ini key `rope_<name>`.
_OPTIONS: dict[str, tuple[Callable[[str], Any], Any, str]] = {
    "impl": (str, None, "audit this RoPE fn(x, positions) (package.module:attr, file.py:attr, built-in name)"),
    "base": (float, None, "expected θ base (default: inferred)"),
    "layout": (str, None, "expected pairing: interleaved or half"),
    "scaling": (str, None, "scaling spec, e.g. linear:4 or yarn:8,orig=4096"),
    "rotary_dim": (int, None, "expected rotary dimension"),
    "max_position": (int, 32768, "audit positions 0…N−1 (default 32768)"),
    "dtypes": (str, None, f"comma-separated dtypes (default: {_DEFAULT_DTYPES})"),
    "direction": (str, "counter-clockwise", "counter-clockwise or clockwise"),
    "partial": (str, None, "partial rotary placement: first or p-rope"),
    "framework": (str, "auto", "auto, numpy, torch or jax"),
    "head_dim": (int, None, "head dimension d"),
    "config": (str, None, "a model's config.json[#LAYER_TYPE]: fills base, scaling, rotary dim, partial, head dim"),
    "timeout": (float, 30.0, "seconds one call may take"),
    "budget": (float, None, "relative score-error budget of the certified context (default 2^-6), as --budget"),
    "kind": (str, "rope", "rope (default), sinusoidal, bias or scores"),
    "frequencies": (str, None, "sinusoidal: standard or t2t (default: detected)"),
    "offset": (int, 0, "sinusoidal: row of position p is PE(p + K)"),
    "scheme": (str, None, "bias: t5[:buckets=…,max_distance=…] or alibi"),
    "clip": (int, None, "scores: the declared Shaw clipping distance"),
    "xfails": (str, None, "file of known deviations: one node ID or property[dtype] per line, # comments"),
}

#: Properties checked once per audited dtype (the others are checked once, on the float64 reference).
_PER_DTYPE: dict[str, frozenset[str]] = {
    "rope": frozenset({"contract", "identity", "linearity", "norm", "relative", "positions", "precision"}),
    "sinusoidal": frozenset({"contract", "precision", "relative", "shift"}),
    "bias": frozenset({"contract"}),
    "scores": frozenset({"contract"}),
}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ropecheck", "ropecheck RoPE conformance")
    for name, (convert, _, text) in _OPTIONS.items():
        flag = "--rope-" + name.replace("_", "-")
        metavar = "TARGET" if name == "impl" else ("FILE" if name == "xfails" else None)
        group.addoption(flag, type=convert, default=None, metavar=metavar, help=f"{text} [ini: rope_{name}]")
        parser.addini(f"rope_{name}", text, default="")
    group.addoption(
        "--rope-no-strict",
        action="store_true",
        default=None,
        help="let an undeclared base pass with a note (by default it fails: declare --rope-base) [ini: rope_no_strict]",
    )
    parser.addini("rope_no_strict", "let an undeclared base pass with a note", default="")


def rope_option(config: pytest.Config, name: str) -> Any:
    """The value of option `name`: the command line's, else the ini file's, else the default.

    **Arguments:**

    - `config`: the pytest config.
    - `name`: a key of `_OPTIONS` or `"no_strict"`.

    **Returns:**

    The converted value. **Raises:** `pytest.UsageError` for an ini value of the wrong type.
    """
    given = config.getoption("--rope-" + name.replace("_", "-"))
    if given is not None:
        return given
    raw = str(config.getini(f"rope_{name}") or "").strip()
    if name == "no_strict":
        return _flag(raw)
    convert, default, _ = _OPTIONS[name]
    if not raw:
        return default
    try:
        return convert(raw)
    except ValueError:
        raise pytest.UsageError(f"ini option rope_{name} = {raw!r} is not a valid {convert.__name__}") from None


def pytest_configure(config: pytest.Config) -> None:
    """A target that cannot be loaded is one usage error here, before any item exists."""
    target = rope_option(config, "impl")
    if not target:
        return
    from ropecheck.numeric.audit.calls import AuditError
    from ropecheck.numeric.audit.targets import load_target

    try:
        load_target(target)
    except AuditError as error:
        raise pytest.UsageError(f"--rope-impl {target}: {error}") from None
    for name in _OPTIONS:  # an ini value of the wrong type is a usage error now, not in a later hook
        rope_option(config, name)
    budget = rope_option(config, "budget")
    if budget is not None and not budget > 0:
        raise pytest.UsageError(f"--rope-budget must be positive, got {budget}")
    config.stash[_XFAILS] = _read_xfails(config)
    # `pytest ropecheck::TARGET::direction` (the node ID pytest prints) reruns that item: pytest would look for
    # a file of that name, so such arguments are taken out of the paths and select among the target's items.
    selected = [arg for arg in config.args if arg.startswith("ropecheck::")]
    config.args[:] = [arg for arg in config.args if not arg.startswith("ropecheck::")]
    config.stash[_SELECTED] = tuple(selected)


_XFAILS = pytest.StashKey[frozenset[str]]()
_SELECTED = pytest.StashKey[tuple[str, ...]]()


def _is_selected(nodeid: str, selected: tuple[str, ...]) -> bool:
    """Whether an item is named by one of the `ropecheck::…` arguments (itself, its property, or its target)."""
    return not selected or any(
        nodeid == arg or nodeid.startswith(arg + "[") or nodeid.startswith(arg + "::") for arg in selected
    )


def _read_xfails(config: pytest.Config) -> frozenset[str]:
    """The entries of the xfails file (empty without one); a missing file is a usage error."""
    name = rope_option(config, "xfails")
    if not name:
        return frozenset()
    path = Path(name)
    if not path.is_absolute():
        from_ini = config.getoption("--rope-xfails") is None
        path = (config.rootpath if from_ini else config.invocation_params.dir) / path
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise pytest.UsageError(f"--rope-xfails {name}: cannot read it: {error.strerror or error}") from None
    entries = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return frozenset(entry for entry in entries if entry)


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    target = rope_option(config, "impl")
    if not target:
        return None
    kind = rope_option(config, "kind")
    top = rope_option(config, "max_position") - 1
    what = "RoPE" if kind == "rope" else kind
    return [f"ropecheck: auditing {what} target {target} (positions 0…{top})"]


def _item_names(config: pytest.Config) -> Iterator[tuple[str, str | None]]:
    """(property, dtype or None) for each item, in the audit's order."""
    from ropecheck.numeric.audit.kinds.names import KIND_PROPERTIES

    kind = rope_option(config, "kind")
    dtypes = [d.strip() for d in (rope_option(config, "dtypes") or _DEFAULT_DTYPES).split(",") if d.strip()]
    for prop in KIND_PROPERTIES.get(kind, PROPERTIES):
        if prop in _PER_DTYPE.get(kind, frozenset()):
            for dtype in dtypes:
                yield prop, dtype
        else:
            yield prop, None


class RopeAuditCollector(pytest.Collector):
    """The items of the audited target."""

    def collect(self) -> Iterator[pytest.Item]:
        names = list(_item_names(self.config))
        dtypes_of: dict[str, list[str]] = {}
        for prop, dtype in names:
            if dtype is not None:
                dtypes_of.setdefault(prop, []).append(dtype)
        for prop, dtype in names:
            first = dtype is None or dtypes_of[prop][0] == dtype
            yield RopePropertyItem.from_parent(
                self, name=prop if dtype is None else f"{prop}[{dtype}]", prop=prop, dtype=dtype,
                collected_dtypes=tuple(dtypes_of.get(prop, ())), gathers_rest=first,
            )


class RopePropertyItem(pytest.Item):
    """One audit property of the target (in one dtype): passes when all its findings are ok."""

    def __init__(
        self, *, prop: str, dtype: str | None, collected_dtypes: tuple[str, ...], gathers_rest: bool, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.prop = prop
        self.dtype = dtype
        self.collected_dtypes = collected_dtypes
        self.gathers_rest = gathers_rest

    def _findings(self, outcome: Any) -> list[Any]:
        """This item's findings; the first item of a property also takes those of dtypes no item names."""
        mine = [f for f in outcome.findings if f.property == self.prop]
        if self.dtype is None:
            return mine
        return [
            f for f in mine
            if f.dtype == self.dtype or (self.gathers_rest and f.dtype not in self.collected_dtypes)
        ]

    def runtest(self) -> None:
        outcome = _run_audit(self.config)
        if isinstance(outcome, str):
            raise RopeAuditFailure(f"the audit could not run: {outcome}")
        findings = self._findings(outcome)
        not_evaluated = getattr(outcome, "not_evaluated", {})
        if not findings and self.prop in not_evaluated:
            pytest.skip(f"{self.prop} was not evaluated: {not_evaluated[self.prop]}")
        if not findings and self.dtype is not None and any(f.property == self.prop for f in outcome.findings):
            pytest.skip(f"{self.prop} was not audited in {self.dtype} (see the audit's dtypes)")
        if not findings:
            pytest.skip(f"{self.prop} was not evaluated (the target failed its contract)")
        certified = getattr(outcome, "certified", {}).get(self.dtype) if self.prop == "precision" else None
        if certified:  # the certified context under --rope-budget, for junit XML and report hooks
            self.user_properties.append(("budget", certified.get("budget")))
            self.user_properties.append(("certified_largest_position", certified.get("largest_position")))
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
            return f"ropecheck {self.name} fails for {rope_option(self.config, 'impl')}:\n{excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "ropecheck", None, self.nodeid


class RopeAuditFailure(Exception):
    """A property of the audited target fails (reported without a traceback)."""


def _run_audit(config: pytest.Config) -> Any:
    """The audit of `--rope-impl`, run once per session: an `AuditReport`, or the one-line error as a string."""
    cached = getattr(config, _AUDIT_KEY, None)
    if cached is not None:
        return cached
    from ropecheck.numeric.audit import audit
    from ropecheck.numeric.audit.calls import AuditError
    from ropecheck.numeric.audit.policy import DEFAULT_SCORE_BUDGET

    kind = rope_option(config, "kind")
    budget = rope_option(config, "budget")
    common: dict[str, Any] = {
        "kind": kind,
        "base": rope_option(config, "base"),
        "layout": rope_option(config, "layout"),
        "max_position": rope_option(config, "max_position"),
        "dtypes": rope_option(config, "dtypes"),
        "framework": rope_option(config, "framework"),
        "timeout": rope_option(config, "timeout"),
        "budget": DEFAULT_SCORE_BUDGET if budget is None else budget,
    }
    if kind != "rope":
        extra = {name: rope_option(config, name) for name in ("frequencies", "offset", "scheme", "clip")}
        extra["head_dim"] = rope_option(config, "head_dim") if kind != "bias" else None
    else:
        names = ("scaling", "rotary_dim", "head_dim", "direction", "partial")
        extra = {name: rope_option(config, name) for name in names}
        extra["strict"] = not rope_option(config, "no_strict")
        if rope_option(config, "config"):
            from ropecheck.numeric.audit.model_config import ConfigError, fill_audit_options

            try:
                filled = fill_audit_options(rope_option(config, "config"), {"base": common["base"], **extra})
            except ConfigError as error:
                setattr(config, _AUDIT_KEY, f"--rope-config: {error}")
                return getattr(config, _AUDIT_KEY)
            common["base"] = filled.pop("base")
            extra = filled
    try:
        outcome: Any = audit(rope_option(config, "impl"), **common, **extra)
    except AuditError as error:
        outcome = str(error)
    setattr(config, _AUDIT_KEY, outcome)
    return outcome


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Add the target's items (reported as collected, before `-k`/`-m` deselection) and mark the listed xfails."""
    target = rope_option(config, "impl")
    if not target:
        return
    from _pytest.runner import collect_one_node

    collector = RopeAuditCollector.from_parent(session, name=f"ropecheck::{target}", nodeid=f"ropecheck::{target}")
    report = collect_one_node(collector)
    config.hook.pytest_collectreport(report=report)
    if report.failed:
        return
    xfails = config.stash.get(_XFAILS, frozenset())
    selected = config.stash.get(_SELECTED, ())
    unselected = [item for item in report.result if not _is_selected(item.nodeid, selected)]
    if unselected:
        config.hook.pytest_deselected(items=unselected)
    for item in report.result:
        if isinstance(item, RopePropertyItem) and _is_selected(item.nodeid, selected):
            if item.nodeid in xfails or item.name in xfails:
                item.add_marker(pytest.mark.xfail(strict=True, reason="a known deviation listed in the xfails file"))
            items.append(item)
