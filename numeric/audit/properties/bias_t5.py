"""T5 bucket checks: the bucket function seen through a bias, against Raffel et al.'s reference.

A T5 bias is `table[bucket(k − q), h]`: every head's value is a function of the bucket alone. Seen as a black box,
the bias gives, for each relative position r, the vector v(r) of its H head values; relative positions with the
same bucket must share one vector, and different buckets (rows of a randomly initialised table) have different
vectors. So the observed *partition* of r-values is compared with the reference partition
(`ropecheck.numeric._encoding_reference.t5_buckets`). When the target exposes its table (`relative_attention_bias`, as
transformers and x-transformers do), the bucket *indices* are read too, which also decides the sign convention
of the bidirectional split (the partition alone is symmetric in r ↦ −r there).

Serves the `buckets` and `sign` properties (RPE-SHIFT-INVARIANCE, RPE-KV-CACHE-IMPOSSIBLE).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from ropecheck.numeric._encoding_reference import t5_buckets

__all__ = ["BucketView", "compare_partition", "observed_buckets", "read_table", "view_buckets"]


@dataclasses.dataclass
class BucketView:
    """What the bias shows of its buckets over relative positions `relative`.

    **Fields:**

    - `relative`: the relative positions r = k − q probed, sorted.
    - `classes`: for each r, the index of its distinct head vector (in order of first appearance).
    - `indices`: for each r, the table row whose values it shows (−1 unknown), when the table is readable.
    """

    relative: np.ndarray
    classes: np.ndarray
    indices: np.ndarray | None


def read_table(obj: Any) -> np.ndarray | None:
    """The `(num_buckets, H)` table of a T5-style bias when the target exposes it, else None.

    Looks for `relative_attention_bias` (an `nn.Embedding` or an array) on the callable, its bound instance
    (`__self__`) or its `__wrapped__`/`module` attribute.
    """
    holders = (obj, *(getattr(obj, name, None) for name in ("__self__", "__wrapped__", "module")))
    for holder in holders:
        table = getattr(holder, "relative_attention_bias", None) if holder is not None else None
        if table is None:
            continue
        weight = getattr(table, "weight", table)
        try:
            if hasattr(weight, "detach"):
                weight = weight.detach().float().cpu().numpy()
            array = np.asarray(weight, dtype=np.float64)
        except Exception:  # not an array after all
            continue
        if array.ndim == 2:
            return array
    return None


def view_buckets(values: np.ndarray, relative: np.ndarray, tolerance: float, table: np.ndarray | None) -> BucketView:
    """Group relative positions by their head vectors (`values`: `(H, R)`, one column per r).

    Two vectors are the same class when every head agrees within `tolerance`.
    """
    representatives: list[np.ndarray] = []
    classes = np.empty(relative.size, dtype=np.int64)
    for column in range(relative.size):
        vector = values[:, column]
        for index, seen in enumerate(representatives):
            if np.all(np.abs(seen - vector) <= tolerance):
                classes[column] = index
                break
        else:
            classes[column] = len(representatives)
            representatives.append(vector)
    indices = None
    if table is not None and table.shape[1] == values.shape[0]:
        indices = np.full(relative.size, -1, dtype=np.int64)
        for column in range(relative.size):
            match = np.flatnonzero(np.all(np.abs(table - values[:, column]) <= tolerance, axis=1))
            if match.size == 1:
                indices[column] = int(match[0])
    return BucketView(relative, classes, indices)


def observed_buckets(view: BucketView) -> np.ndarray:
    """The bucket index per r when the table was read, else the class index."""
    return view.indices if view.indices is not None else view.classes


def compare_partition(
    view: BucketView, num_buckets: int, max_distance: int, bidirectional: bool, *, mirrored: bool = False
) -> tuple[bool, int | None, str]:
    """Whether the observed buckets follow the reference (r ↦ −r first when `mirrored`).

    **Returns:**

    `(agrees, first r that disagrees or None, what disagrees in words)`.
    """
    relative = -view.relative if mirrored else view.relative
    wanted, alternative = t5_buckets(relative, num_buckets, max_distance, bidirectional)
    if view.indices is not None and np.all(view.indices >= 0):
        bad = np.flatnonzero((view.indices != wanted) & (view.indices != alternative))
        if bad.size:
            r = int(view.relative[bad[0]])
            return False, r, f"r = {r} reads bucket {int(view.indices[bad[0]])}, the reference is {int(wanted[bad[0]])}"
        return True, None, ""
    # Partition only: one class per reference bucket, and no class shared by two buckets.
    owner: dict[int, int] = {}
    for column, bucket in enumerate(wanted):
        options = (int(bucket), int(alternative[column]))
        cls = int(view.classes[column])
        if any(owner.get(option) == cls for option in options):
            continue
        free = [option for option in options if option not in owner]
        if not free:
            r = int(view.relative[column])
            return False, r, f"r = {r} does not share the values of the other positions of bucket {int(bucket)}"
        if cls in owner.values():
            r = int(view.relative[column])
            other = next(b for b, c in owner.items() if c == cls)
            return False, r, f"r = {r} (bucket {int(bucket)}) has the same values as bucket {other}"
        owner[free[0]] = cls
    return True, None, ""


def diagnose(view: BucketView, num_buckets: int, max_distance: int, bidirectional: bool) -> str:
    """A hint for a partition that disagrees: missing clamp, bidirectional flag ignored, else the log formula."""
    per_direction = num_buckets // 2 if bidirectional else num_buckets
    classes = observed_buckets(view)
    for side in (view.relative > 0, view.relative < 0):
        if np.unique(classes[side]).size > per_direction:
            return (f"one direction shows {np.unique(classes[side]).size} distinct buckets, more than its "
                    f"{per_direction}: beyond max_distance new buckets appear — the clamp to the last bucket "
                    "(min(bucket, num_buckets − 1)) is missing")
    if compare_partition(view, num_buckets, max_distance, not bidirectional)[0]:
        return (f"the buckets are those of bidirectional={str(not bidirectional).lower()}: the bidirectional flag "
                "is ignored or inverted")
    return ("the log buckets differ from max_exact + ⌊log(n/max_exact)/log(max_distance/max_exact)·(num_buckets − "
            "max_exact)⌋ (Raffel et al.)")
