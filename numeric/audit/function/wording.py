"""Errors in the words of the interface the user called: `--max-position` on the command line, `max_position`
from Python.

The audit's messages are written once, naming command-line flags. `ropecheck.audit()` (decorated with
`api_errors`) rewrites an `AuditError` so that it names the Python keywords instead (`max_position must be an
integer of at least 640 for kind='bias'`); the command line and the pytest plugin call it inside `cli_wording()`
and keep the flags (the plugin then names its own `--rope-*` options).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import re
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from ropecheck.numeric.audit.function.calls import AuditError

__all__ = ["api_errors", "api_wording", "cli_wording"]

#: `ropecheck audit` flags that are keywords of `audit()` (with `-` for `_`).
_KEYWORDS = (
    "base", "layout", "scaling", "rotary-dim", "max-position", "dtypes", "direction", "partial", "framework",
    "head-dim", "timeout", "budget", "kind", "frequencies", "offset", "scheme", "clip", "strict", "module-cast",
)
_FLAG = re.compile(
    r"(?<![\w-])--(" + "|".join(sorted(_KEYWORDS, key=len, reverse=True)) + r")\b(?!-)"
    r"(?: (?P<value>rope|sinusoidal|bias|scores|interleaved|half|concat|counter-clockwise|clockwise|first|p-rope"
    r"|standard|t2t)\b(?![\w:=-]))?"
)
_CLI = contextvars.ContextVar("ropecheck_cli_wording", default=False)

F = TypeVar("F", bound=Callable[..., Any])


def api_wording(message: str) -> str:
    """`message` with each `ropecheck audit` flag named as the keyword of `ropecheck.audit()`.

    **Arguments:**

    - `message`: an error naming flags (`--max-position must be … for --kind bias`).

    **Returns:**

    The same error naming keywords (`max_position must be … for kind='bias'`).
    """

    def keyword(match: re.Match[str]) -> str:
        name = match.group(1).replace("-", "_")
        value = match.group("value")
        if value is None:
            return name
        return f"{name}={value!r}"

    return _FLAG.sub(keyword, message)


@contextlib.contextmanager
def cli_wording() -> Iterator[None]:
    """Inside this block, `audit()` errors keep naming command-line flags (for the CLI and the pytest plugin)."""
    token = _CLI.set(True)
    try:
        yield
    finally:
        _CLI.reset(token)


def api_errors(function: F) -> F:
    """Decorate the Python API: its `AuditError`s name keywords, unless raised inside `cli_wording()`."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except AuditError as error:
            if not _CLI.get():
                error.args = (api_wording(str(error)), *error.args[1:])
            raise

    return wrapper  # type: ignore[return-value]
