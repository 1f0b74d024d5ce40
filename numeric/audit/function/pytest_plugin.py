"""pytest plugin: ropecheck's conformance checks inside any project's test suite (docs: `docs/pytest-plugin.md`).

Several targets of several kinds: list them in the ini key `rope_targets`, one per line, each a target followed by
`ropecheck audit` options (`mypkg/rope.py:apply_rope --base 10000`, `mypkg/alibi.py:bias --kind bias
--max-position 1024`; `plugin_targets`), or add lines with `--rope-target LINE`; one more target with
`--rope-impl TARGET` and the `--rope-*` options below. The items follow pytest's own selection: they are collected
when pytest runs the whole suite (no paths given, `testpaths`, or a directory holding the rootdir), when a path
is `ropecheck::…`, or when `--rope-impl` is given on the command line; `pytest tests/test_alibi.py` runs that file
only.

Each target's items are collected with the rest of the suite (so "collected N items" is what runs), one per
property, or one per property and dtype where the property is checked in each dtype:
`ropecheck::<target>::<property>[<dtype>]` or `ropecheck::<target>::<property>`. The audit runs once (on the first
item); each item fails with its findings, or is skipped when its property could not be evaluated. A target that
cannot be loaded (unimportable module, missing attribute, not callable, unknown built-in) is one usage error at
configure time, and so is a misspelled `--rope-…` option or `rope_…` ini key (with the one meant). Nothing heavy
is imported when the plugin loads without targets.

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

import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from ropecheck.numeric.audit.properties import PROPERTIES

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
    "max_position": (int, 32768, "audit positions 0…N−1 (default 32768; bias ≥ 640, scores ≥ 260, sinusoidal ≥ 64)"),
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
    "pair_order": (str, None, "sinusoidal: sin,cos or cos,sin within each pair (default: detected)"),
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
    group.addoption(
        "--rope-target", action="append", default=None, metavar="LINE",
        help="audit this target too: 'TARGET [ropecheck audit options]' (repeatable) [ini: rope_targets, one per line]",
    )
    parser.addini("rope_targets", "targets to audit, one per line: TARGET [ropecheck audit options]", type="linelist")


def _known_flags() -> list[str]:
    return ["--rope-" + name.replace("_", "-") for name in _OPTIONS] + ["--rope-no-strict", "--rope-target"]


def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    """A misspelled `--rope-…` option is one usage error with the option meant (pytest alone says only
    "unrecognized arguments"); likewise a misspelled `rope_…` ini key (pytest alone only warns)."""
    from ropecheck.numeric.audit.function.plugin_targets import misspelled

    error = misspelled(args, early_config.inipath, _known_flags())
    if error:
        raise pytest.UsageError(error)


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
    """Every target is loaded here: one that cannot be is one usage error, before any item exists."""
    targets = _read_targets(config)
    config.stash[_TARGETS] = targets
    if not targets:
        return
    from ropecheck.numeric.audit.function.calls import AuditError
    from ropecheck.numeric.audit.function.plugin_targets import plugin_wording, selection_includes_plugin
    from ropecheck.numeric.audit.function.targets import load_target

    for target in targets:
        try:
            if target.kind == "rope":
                load_target(target.load)
            else:
                from ropecheck.numeric.audit.kinds._calls import resolve_target

                resolve_target(target.load, None, target.kind)
        except AuditError as error:
            where = f"--rope-impl {target.name}" if target.origin == "--rope-impl" else target.origin
            raise pytest.UsageError(f"{where}: {plugin_wording(str(error), target.origin)}") from None
    config.stash[_XFAILS] = _read_xfails(config)
    # `pytest ropecheck::TARGET::direction` (the node ID pytest prints) reruns that item: pytest would look for
    # a file of that name, so such arguments are taken out of the paths and select among the targets' items.
    selected = [arg for arg in config.args if arg.startswith("ropecheck::")]
    config.stash[_WANTED] = selection_includes_plugin(config, selected)
    config.args[:] = [arg for arg in config.args if not arg.startswith("ropecheck::")]
    config.stash[_SELECTED] = tuple(selected)


_XFAILS = pytest.StashKey[frozenset[str]]()
_SELECTED = pytest.StashKey[tuple[str, ...]]()
_TARGETS = pytest.StashKey[list[Any]]()
_WANTED = pytest.StashKey[bool]()


def _read_targets(config: pytest.Config) -> list[Any]:
    """The `PluginTarget`s: `--rope-impl` with the `--rope-*` options, then each `rope_targets` / `--rope-target`
    line; a bad option value, a bad line or a target listed twice is a usage error."""
    from ropecheck.numeric.audit.function.plugin_targets import PluginTarget, TargetLineError, parse_target_line

    targets = []
    impl = rope_option(config, "impl")
    if impl:
        for name in _OPTIONS:  # an ini value of the wrong type is a usage error now, not in a later hook
            rope_option(config, name)
        budget = rope_option(config, "budget")
        if budget is not None and not budget > 0:
            raise pytest.UsageError(f"--rope-budget must be positive, got {budget}")
        targets.append(PluginTarget(name=impl, keywords=_impl_keywords(config), load=impl, origin="--rope-impl"))
    from_ini = list(config.getini("rope_targets"))
    lines = [*from_ini, *(config.getoption("--rope-target") or ())]
    strict = not rope_option(config, "no_strict")
    if from_ini and str(config.rootpath) not in sys.path:  # `mypkg.rope:fn` imports from the project's root
        sys.path.insert(0, str(config.rootpath))
    for number, line in enumerate(lines, 1):
        if not line.split("#", 1)[0].strip():
            continue
        in_ini = number <= len(from_ini)  # relative paths and messages follow where the line was written
        where = (config.rootpath, number, "rope_targets line") if in_ini else (
            config.invocation_params.dir, number - len(from_ini), "--rope-target")
        try:
            targets.append(parse_target_line(line, where[1], where[0], strict, where[2]))
        except TargetLineError as error:
            raise pytest.UsageError(str(error)) from None
    names = [target.name for target in targets]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise pytest.UsageError(f"target {twice[0]} is listed twice (rope_targets / --rope-target / --rope-impl)")
    return targets


def _read_xfails(config: pytest.Config) -> frozenset[str]:
    """The entries of the xfails file (empty without one); a missing file is a usage error."""
    from ropecheck.numeric.audit.function.plugin_targets import read_xfails

    name = rope_option(config, "xfails")
    from_ini = config.getoption("--rope-xfails") is None
    try:
        return read_xfails(name, config.rootpath if from_ini else config.invocation_params.dir)
    except OSError as error:
        raise pytest.UsageError(f"--rope-xfails {name}: cannot read it: {error.strerror or error}") from None


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    lines = []
    for target in config.stash.get(_TARGETS, []):
        what = "RoPE" if target.kind == "rope" else target.kind
        top = target.keywords["max_position"] - 1
        lines.append(f"ropecheck: auditing {what} target {target.name} (positions 0…{top})")
    return lines or None


def _item_names(target: Any) -> Iterator[tuple[str, str | None]]:
    """(property, dtype or None) for each item of a `PluginTarget`, in the audit's order."""
    from ropecheck.numeric.audit.kinds.names import KIND_PROPERTIES

    for prop in KIND_PROPERTIES.get(target.kind, PROPERTIES):
        if prop in _PER_DTYPE.get(target.kind, frozenset()):
            for dtype in target.dtypes:
                yield prop, dtype
        else:
            yield prop, None


class RopeAuditCollector(pytest.Collector):
    """The items of one audited target."""

    def __init__(self, *, target: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.target = target

    def collect(self) -> Iterator[pytest.Item]:
        names = list(_item_names(self.target))
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
        self.target = self.parent.target  # type: ignore[union-attr]

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
        from ropecheck.numeric.audit.function.plugin_targets import plugin_wording, skip_reason

        outcome = _run_audit(self.config, self.target)
        if isinstance(outcome, str):
            raise RopeAuditFailure(f"the audit could not run: {plugin_wording(outcome, self.target.origin)}")
        findings = self._findings(outcome)
        if not findings:
            pytest.skip(skip_reason(outcome, self.prop, self.dtype))
        certified = getattr(outcome, "certified", {}).get(self.dtype) if self.prop == "precision" else None
        if certified:  # the certified context under --rope-budget, for junit XML and report hooks
            self.user_properties.append(("budget", certified.get("budget")))
            self.user_properties.append(("certified_largest_position", certified.get("largest_position")))
        failing = [f for f in findings if not f.ok]
        if failing:
            lines = []
            for finding in failing:
                where = f"[{finding.dtype}] " if finding.dtype else ""
                fix = f" Fix: {plugin_wording(finding.fix, self.target.origin)}." if finding.fix else ""
                detail = finding.detail.replace("(--strict)", "(strict is the plugin's default; --rope-no-strict)")
                lines.append(f"{where}{detail}{fix} (claims: {', '.join(finding.claims)})")
            raise RopeAuditFailure("\n".join(lines))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, RopeAuditFailure):
            return f"ropecheck {self.name} fails for {self.target.name}:\n{excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "ropecheck", None, self.nodeid


class RopeAuditFailure(Exception):
    """A property of the audited target fails (reported without a traceback)."""


def _impl_keywords(config: pytest.Config) -> dict[str, Any]:
    """The `audit()` keywords of `--rope-impl` from the `--rope-*` options (and their ini keys)."""
    from ropecheck.numeric.audit.function.policy import DEFAULT_SCORE_BUDGET

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
        extra = {name: rope_option(config, name) for name in ("frequencies", "pair_order", "offset", "scheme", "clip")}
        extra["head_dim"] = rope_option(config, "head_dim") if kind != "bias" else None
    else:
        names = ("scaling", "rotary_dim", "head_dim", "direction", "partial")
        extra = {name: rope_option(config, name) for name in names}
        extra["strict"] = not rope_option(config, "no_strict")
    if kind == "rope" and rope_option(config, "config"):
        from ropecheck.numeric.audit.model_config import ConfigError, fill_audit_options

        try:
            filled = fill_audit_options(rope_option(config, "config"), {"base": common["base"], **extra})
        except ConfigError as error:
            raise pytest.UsageError(f"--rope-config: {error}") from None
        common["base"] = filled.pop("base")
        extra = filled
    return {**common, **extra}


_AUDITS = pytest.StashKey[dict[str, Any]]()


def _run_audit(config: pytest.Config, target: Any) -> Any:
    """The audit of one `PluginTarget`, run once per session: an `AuditReport`, or the one-line error."""
    audits = config.stash.setdefault(_AUDITS, {})
    if target.name in audits:
        return audits[target.name]
    from ropecheck.numeric.audit import audit
    from ropecheck.numeric.audit.function.calls import AuditError
    from ropecheck.numeric.audit.function.wording import cli_wording

    try:
        with cli_wording():  # the messages name flags; the items reword them as the plugin's options
            outcome: Any = audit(target.load, name=target.name, **target.keywords)
    except AuditError as error:
        outcome = str(error)
    except ValueError as error:  # an option value the audit refuses (e.g. a --kind bias max_position below 640)
        outcome = str(error)
    audits[target.name] = outcome
    return outcome


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Add the targets' items (reported as collected, before `-k`/`-m` deselection) when pytest's selection takes
    them in, and mark the listed xfails."""
    targets = config.stash.get(_TARGETS, [])
    if not targets or not config.stash.get(_WANTED, False):
        return
    from _pytest.runner import collect_one_node
    from ropecheck.numeric.audit.function.plugin_targets import is_selected

    xfails = config.stash.get(_XFAILS, frozenset())
    selected = config.stash.get(_SELECTED, ())
    for target in targets:
        node = f"ropecheck::{target.name}"
        collector = RopeAuditCollector.from_parent(session, name=node, nodeid=node, target=target)
        report = collect_one_node(collector)
        config.hook.pytest_collectreport(report=report)
        if report.failed:
            continue
        unselected = [item for item in report.result if not is_selected(item.nodeid, selected)]
        if unselected:
            config.hook.pytest_deselected(items=unselected)
        for item in report.result:
            if isinstance(item, RopePropertyItem) and is_selected(item.nodeid, selected):
                if item.nodeid in xfails or item.name in xfails:
                    reason = "a known deviation listed in the xfails file"
                    item.add_marker(pytest.mark.xfail(strict=True, reason=reason))
                items.append(item)


@pytest.fixture
def ropecheck_attention() -> Callable[..., Any]:
    """`audit-attention` inside a test (docs: `docs/attention-audit.md`): `ropecheck_attention(config, model=None,
    seed=0)` builds the tiny model of `config` (a built-in name, a `config.json` path or a dict) — with your own
    model when `model` is a factory `factory(config) -> torch module` or its `MODULE:FACTORY` name — runs every
    attention property, fails the test with the report when a property fails or the model could not be called, and
    returns the `AttentionReport`."""

    def run(config: Any, model: Any = None, seed: int = 0) -> Any:
        from ropecheck.numeric.audit.attention import audit_attention

        report = audit_attention(config, seed=seed, model=model)
        if report.verdict != "pass":
            pytest.fail(report.to_text(), pytrace=False)
        return report

    return run
