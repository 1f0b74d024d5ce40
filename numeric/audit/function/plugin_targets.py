"""The pytest plugin's targets: one per `--rope-impl`, one per line of the `rope_targets` ini list.

A `rope_targets` line is a target followed by `ropecheck audit` options, read by the audit command's own argument
parser (`shlex` splits it; nothing is evaluated): `mypkg/rope.py:apply_rope --base 10000 --layout half`. A project
with a RoPE, an ALiBi bias and a sinusoidal table lists three lines, each with its `--kind`. Fix texts and errors
name the options where the user wrote them: `--rope-base` / `rope_base` for `--rope-impl`, `--base` "in its
rope_targets line" for a line.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import shlex
from pathlib import Path
from typing import Any

__all__ = [
    "PluginTarget", "ini_keys", "is_selected", "misspelled", "parse_target_line", "plugin_wording", "read_xfails",
    "selection_includes_plugin", "skip_reason",
]

#: Options a `rope_targets` line may not carry: they choose what the command prints, not what is audited.
_OUTPUT_ONLY = ("list", "all", "markdown", "json", "verbose", "report")

#: `ropecheck audit` options the plugin also has, as `--rope-<name>` and ini `rope_<name>`.
_PLUGIN_OPTIONS = (
    "base", "layout", "scaling", "rotary-dim", "max-position", "dtypes", "direction", "partial", "framework",
    "head-dim", "timeout", "budget", "kind", "frequencies", "pair-order", "offset", "scheme", "clip",
)


@dataclasses.dataclass(frozen=True)
class PluginTarget:
    """One audited target of the plugin.

    **Fields:**

    - `name`: the target as the user wrote it (the node ID is `ropecheck::<name>::<property>[<dtype>]`).
    - `keywords`: the keywords of `ropecheck.audit()` except `fn` (the target to load is `keywords["name"]`'s
      source: `load`).
    - `load`: the TARGET string to load (a relative file path resolved against the rootdir for an ini line).
    - `origin`: `"--rope-impl"` or `"rope_targets line N"`, where the options were written.
    """

    name: str
    keywords: dict[str, Any]
    load: str
    origin: str

    @property
    def kind(self) -> str:
        """What the target is: `rope`, `sinusoidal`, `bias` or `scores`."""
        return str(self.keywords.get("kind") or "rope")

    @property
    def dtypes(self) -> list[str]:
        """The dtypes the target's items are named after (the audit's default when none is given)."""
        given = self.keywords.get("dtypes") or "float32,bfloat16,float16"
        return [d.strip() for d in str(given).split(",") if d.strip()]


class TargetLineError(ValueError):
    """A `rope_targets` line that is not a target with valid `ropecheck audit` options."""


def parse_target_line(
    line: str, number: int, root: Path, strict: bool, source: str = "rope_targets line"
) -> PluginTarget:
    """Read one `rope_targets` line with `ropecheck audit`'s parser.

    **Arguments:**

    - `line`: `TARGET [options]`, e.g. `mypkg/rope.py:apply_rope --base 10000`.
    - `number`: its 1-based line number (named in errors and in the fix texts' origin).
    - `root`: the directory relative file targets are resolved against (pytest's rootdir).
    - `strict`: whether an undeclared base fails (the plugin's default) for a RoPE target.
    - `source`: where the line was written, named in errors and fixes (`"--rope-target"` for the command line).

    **Returns:**

    A `PluginTarget`. **Raises:** `TargetLineError` with a one-line reason.
    """
    from ropecheck.numeric.audit.function.arguments import build_parser
    from ropecheck.numeric.audit.kinds.cli_options import rope_only_flags

    where = f"{source} {number} ({line.strip()!r})"
    try:
        words = shlex.split(line, comments=True)
    except ValueError as error:
        raise TargetLineError(f"{where}: {error}") from None
    parser = build_parser()

    def refuse(message: str) -> None:
        raise TargetLineError(f"{where}: {message}")

    parser.error = refuse  # type: ignore[method-assign,assignment]
    args = parser.parse_args(words)
    given = [f"--{name.replace('_', '-')}" for name in _OUTPUT_ONLY if getattr(args, name)]
    if given:
        refuse(f"{', '.join(given)} chooses what the command prints; a rope_targets line names what to audit")
    if not args.target:
        refuse("no target (package.module:attr, path/to/file.py:attr or a built-in name)")
    if rope_only_flags(args):
        refuse(f"--kind {args.kind} takes no {', '.join(rope_only_flags(args))}")
    if args.config:
        from ropecheck.numeric.audit.model_config import ConfigError, fill_audit_options

        try:
            fill_audit_options(args.config, vars(args))
        except ConfigError as error:
            refuse(f"--config: {error}")
    keywords = audit_keywords(args)
    if args.kind == "rope":
        keywords["strict"] = strict or args.strict
    origin = f"{source} {number}"
    return PluginTarget(name=args.target, keywords=keywords, load=_resolve(args.target, root), origin=origin)


def audit_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """The `audit()` keywords of parsed `ropecheck audit` arguments (without the target)."""
    from ropecheck.numeric.audit.kinds.cli_options import kind_keywords

    keywords: dict[str, Any] = {
        **kind_keywords(args), "base": args.base, "layout": args.layout, "max_position": args.max_position or 32768,
        "dtypes": args.dtypes or None, "framework": args.framework, "head_dim": args.head_dim,
        "timeout": args.timeout, "budget": args.budget, "module_cast": args.module_cast,
        "accept_short_table": args.accept_short_table,
    }
    if args.kind == "rope":
        keywords.update(scaling=args.scaling, rotary_dim=args.rotary_dim, direction=args.direction,
                        partial=args.partial)
    return keywords


def _resolve(target: str, root: Path) -> str:
    """A relative `path/to/file.py:attr` against `root` (pytest may run from a subdirectory); others unchanged."""
    module_part, colon, attribute = target.rpartition(":")
    is_file = module_part.endswith(".py") or "/" in module_part or "\\" in module_part
    if colon and is_file and not Path(module_part).is_absolute():
        return f"{root / module_part}:{attribute}"
    return target


def plugin_wording(text: str, origin: str) -> str:
    """A message of the audit, with its option names as the plugin user writes them.

    **Arguments:**

    - `text`: a fix or an error naming `ropecheck audit` options (`--base 10000`).
    - `origin`: `"--rope-impl"` (options are `--rope-base` / ini `rope_base`) or `"rope_targets line N (…)"`
      (options are the line's own `--base`).

    **Returns:**

    The text with each option named as the user sets it.
    """
    flags = re.compile(r"(?<![\w-])--(" + "|".join(sorted(_PLUGIN_OPTIONS, key=len, reverse=True)) + r")\b(?!-)")
    named = [match.group(1) for match in flags.finditer(text)]
    if not named:
        return text
    if origin != "--rope-impl":
        return f"{text} (in {origin})"
    keys = ", ".join(dict.fromkeys(f"rope_{name.replace('-', '_')}" for name in named))
    return f"{flags.sub(lambda match: '--rope-' + match.group(1), text)} (ini: {keys})"


def selection_includes_plugin(config: Any, selected: list[str]) -> bool:
    """Whether pytest's own selection takes in the targets' items: the whole suite (no paths, `testpaths`, or a
    directory that holds the rootdir), a `ropecheck::…` path, or `--rope-impl` on the command line."""
    if selected or config.getoption("--rope-impl") is not None:
        return True
    if config.args_source.name != "ARGS":
        return True
    root = config.rootpath
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::", 1)[0]).resolve()
        if path.is_dir() and (path == root or path in root.parents):
            return True
    return False


def skip_reason(outcome: Any, prop: str, dtype: str | None) -> str:
    """Why a property has no finding (in this dtype): the dtype's own status, else the root cause that stopped it.

    **Arguments:**

    - `outcome`: the target's `AuditReport`.
    - `prop`, `dtype`: the item's property and dtype (None for a property checked once).

    **Returns:**

    The skip reason pytest prints.
    """
    not_evaluated = getattr(outcome, "not_evaluated", {})
    if prop in not_evaluated:
        return f"{prop} was not evaluated: {not_evaluated[prop]}"
    info = outcome.dtypes.get(dtype) if dtype is not None else None
    if dtype is not None and info is None:
        return f"{prop} was not audited in {dtype}: the audit ran in {', '.join(outcome.dtypes) or 'no dtype'}"
    where = f" in {dtype}" if dtype is not None else ""
    if info is not None and info.get("status") != "supported":
        return f"{prop} was not evaluated{where}: {dtype} {info.get('status')} ({info.get('reason', 'no reason')})"
    causes = [c for c in outcome.root_causes if c.get("dtype") in (None, dtype)] or outcome.root_causes
    if causes:
        cause = causes[0]
        at = f" [{cause['dtype']}]" if cause.get("dtype") else ""
        return f"{prop} was not evaluated{where}: the root cause {cause['property']}{at} stopped it: {cause['detail']}"
    return f"{prop} was not evaluated{where} (the target failed its contract)"


def ini_keys(path: Path | None) -> list[str]:
    """The keys of pytest's ini file (`[tool.pytest.ini_options]` of a pyproject.toml, else `[pytest]` or
    `[tool:pytest]`); empty without a file or when it cannot be read (pytest reports that itself).

    **Arguments:**

    - `path`: `config.inipath`.

    **Returns:**

    The key names as written.
    """
    import configparser
    import tomllib

    if path is None:
        return []
    try:
        text = Path(path).read_text(encoding="utf-8")
        if Path(path).suffix == ".toml":
            return list(tomllib.loads(text).get("tool", {}).get("pytest", {}).get("ini_options", {}))
        parser = configparser.ConfigParser(interpolation=None)
        parser.read_string(text)
    except (OSError, ValueError, configparser.Error):
        return []
    return [key for section in ("pytest", "tool:pytest") if parser.has_section(section) for key in parser[section]]


def misspelled(args: list[str], inipath: Path | None, known: list[str]) -> str | None:
    """The usage error for an unknown `--rope-…` option or `rope_…` ini key, with the one meant; None if none.

    **Arguments:**

    - `args`: the command line.
    - `inipath`: pytest's ini file (`config.inipath`).
    - `known`: the plugin's flags (`--rope-impl`, …, `--rope-target`).

    **Returns:**

    One line, or None.
    """
    from ropecheck.numeric.audit.function.targets import did_you_mean

    for arg in args:
        if arg == "--":
            break
        flag = arg.split("=", 1)[0]
        if flag.startswith("--rope-") and flag not in known:
            return f"unknown option {flag}{did_you_mean(flag, known)}"
    keys = ["rope_targets" if flag == "--rope-target" else flag[2:].replace("-", "_") for flag in known]
    for key in ini_keys(inipath):
        if key.startswith("rope_") and key not in keys:
            return f"unknown ini key {key}{did_you_mean(key, keys)}"
    return None


def is_selected(nodeid: str, selected: tuple[str, ...]) -> bool:
    """Whether an item is named by one of the `ropecheck::…` arguments (itself, its property, or its target)."""
    return not selected or any(
        nodeid == arg or nodeid.startswith(arg + "[") or nodeid.startswith(arg + "::") for arg in selected
    )


def read_xfails(name: str | None, directory: Path) -> frozenset[str]:
    """The entries of an xfails file: one node ID or `property[dtype]` per line, `#` comments.

    **Arguments:**

    - `name`: the file (None or empty: no file).
    - `directory`: what a relative name is relative to.

    **Returns:**

    The entries. **Raises:** `OSError` when the file cannot be read.
    """
    if not name:
        return frozenset()
    path = Path(name) if Path(name).is_absolute() else directory / name
    entries = (line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(entry for entry in entries if entry)
