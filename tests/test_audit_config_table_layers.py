"""`audit-config`'s terminal table names every layer: the `layers` cell is 9 characters wide, and a list that does not
fit is printed in full under the table instead of being cut (it once showed `3,7,11,15` for Llama 4 Scout's 12 NoPE
layers, 3 to 47 every 4th, and `0-2,4-6,8` for its 36 rotating ones)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ropecheck.numeric.audit.model_config import audit_config

from ropecheck.cli._audit_config import _layers_cell, _print_table, _ranges

CONFIGS = Path(__file__).resolve().parent / "model_configs"


def _expand(ranges: str) -> list[int]:
    """The indices a `_ranges` string stands for (`3-47/4`, `0-2`, `8`, joined by commas)."""
    out: list[int] = []
    for part in ranges.replace(" ", "").split(","):
        span, _, step = part.partition("/")
        first, _, last = span.partition("-")
        out += range(int(first), int(last or first) + 1, int(step or 1))
    return out


@pytest.mark.parametrize(
    ("indices", "expected"),
    [((0, 1, 2, 4, 5, 6, 8), "0-2,4-6,8"), (tuple(range(3, 48, 4)), "3-47/4"), ((1, 3), "1,3"), ((5,), "5"),
     ((0, 2, 4, 5), "0,2,4-5")],
)
def test_ranges_round_trip(indices: tuple[int, ...], expected: str) -> None:
    assert _ranges(indices) == expected
    assert _expand(expected) == list(indices)


def test_every_layer_of_llama4_scout_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    audit = audit_config(CONFIGS / "llama4-scout-17b-16e", engines=[])
    _print_table(audit)
    out = capsys.readouterr().out
    named: list[int] = []
    for line in out.splitlines()[2:]:
        cell = line[18:27].strip() if line[:1] not in (" ", "") else ""
        if cell and not cell.endswith("layers"):
            named += _expand(cell)
    listed = re.findall(r"^  layers \([^)]*\): (.*(?:\n    .*)*)", out, flags=re.MULTILINE)
    for block in listed:
        named += _expand(block.replace("\n    ", " "))
    assert sorted(named) == list(range(48)), out
    assert all(len(line.rstrip()) <= 80 for line in out.splitlines() if line.startswith(("  layers", "    "))), out
    assert all(len(_layers_cell(layer.layer_indices)) <= 9 for layer in audit.model.layers)
