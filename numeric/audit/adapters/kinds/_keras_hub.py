"""KerasHub: `keras_hub.layers.SinePositionEncoding` and `keras_hub.layers.AlibiBias`, on Keras' torch backend.

Layers are built with `dtype=<dtype>` (Keras' way to set a model's precision). `SinePositionEncoding` is called as
its users call it, `layer(inputs, start_index=s)`, once per run of consecutive positions. `AlibiBias` adds its
bias to attention scores: the adapter adds it to zeros of shape (1, 12, Lq, max(k)+1) and takes the key columns
given (the bias is m·(j − (L − 1)), a constant per query row away from m·(k − q)).
"""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.adapters.kinds._common import by_runs
from ropecheck.numeric.audit.adapters.kinds._spec import KindAdapter

__all__ = ["ADAPTERS"]

_HEADS = 12


def _sine(dtype: str) -> Any:
    from ropecheck.numeric.audit.adapters._common import import_keras

    import_keras("torch")
    import torch
    from keras_hub.layers import SinePositionEncoding

    layer = SinePositionEncoding(max_wavelength=10000, dtype=dtype)

    def run(start: int, length: int) -> Any:
        return layer(torch.zeros(1, length, 64), start_index=start)[0]

    return lambda positions: by_runs(positions, run)


def _alibi(dtype: str) -> Any:
    from ropecheck.numeric.audit.adapters._common import import_keras

    import_keras("torch")
    import torch
    from keras_hub.layers import AlibiBias

    layer = AlibiBias(dtype=dtype)

    def bias(q_positions: Any, k_positions: Any) -> Any:
        length = int(k_positions.max()) + 1
        scores = layer(torch.zeros(1, _HEADS, q_positions.shape[0], length))[0]
        return scores[:, :, k_positions]

    return bias


ADAPTERS = [
    KindAdapter("keras-hub.sine-position-encoding", "sinusoidal", "keras-hub", "keras_hub", "torch", _sine,
                {"layout": "interleaved", "frequencies": "standard", "pair_order": "sin,cos"},
                "SinePositionEncoding(max_wavelength=10000, dtype=dtype)(inputs, start_index=s) per run of "
                "consecutive positions"),
    KindAdapter("keras-hub.alibi", "bias", "keras-hub", "keras_hub", "torch", _alibi, {"scheme": "alibi"},
                f"AlibiBias(dtype=dtype)(zeros(1, {_HEADS}, Lq, max(k)+1)) at the key columns given"),
]
