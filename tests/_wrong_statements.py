"""Compile a claim theorem's proof against a deliberately wrong statement: the kernel must refuse it.

The mutants of `_coq_mutants` perturb statements mechanically; the readings decided in ISSUE #18 (d = 128
uniqueness, cache entries, window means, the round-3 claims) each have a specific way to be wrong — the same
statement at d = 8 (where every frequency is rational and uniqueness fails), a cache entry one real short, a
bound with the inequality turned round. `check_wrong_statements` compiles the unchanged statement first (the
control must be accepted), then each wrong one with the same proof, on top of the compiled development.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from ropecheck.proofs.kernel._coq_sources import read_development, strip_comments
from ropecheck.proofs.kernel._kernel_build import materialise

from ._coq_mutants import _HEADER, _THEOREM, Theorem, _compile, _error_line, _file


def find_theorem(name: str) -> Theorem:
    """The theorem `name` as written in the development (any role, negations included)."""
    for source in read_development(Path(__file__).resolve().parent.parent / "proofs" / "coq"):
        code = strip_comments(source.path.read_text(encoding="utf-8"))
        header = "\n".join(line for line in code.splitlines() if _HEADER.match(line))
        for match in _THEOREM.finditer(code):
            if match.group(2) == name:
                signature = " ".join(match.group(3).split())
                return Theorem(source.module, name, signature, match.group(4).strip(), header)
    raise KeyError(name)


def check_wrong_statements(cases: dict[str, list[tuple[str, str]]]) -> dict[str, list[str]]:
    """`theorem → [(old, new), …]`: each replacement applied to the statement alone (it must occur).

    **Returns:** `theorem → outcomes`: `control accepted` first, then for each wrong statement `rejected`,
    `accepted` (a defect: the proof also proves the wrong statement) or `ill-typed`.
    """
    outcomes: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory(prefix="ropecheck-wrong-") as tmp:
        build = Path(tmp)
        materialise(build)
        for index, (name, replacements) in enumerate(cases.items()):
            theorem = find_theorem(name)
            text, _ = _file(theorem, f"{name}_control", theorem.signature)
            ok, output = _compile(build, f"Control_{index}", text)
            results = ["control accepted" if ok else f"control rejected: {output.strip()[-300:]}"]
            for number, (old, new) in enumerate(replacements):
                assert old in theorem.signature, (name, old)
                wrong = replace(theorem, signature=theorem.signature.replace(old, new))
                text, statement_line = _file(wrong, f"{name}_wrong", wrong.signature)
                ok, output = _compile(build, f"Wrong_{index}_{number}", text)
                if ok:
                    results.append("accepted")
                elif _error_line(output) == statement_line:
                    results.append("ill-typed")
                else:
                    results.append("rejected")
            outcomes[name] = results
    return outcomes
