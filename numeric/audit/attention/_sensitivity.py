"""How far the logits can move when the cos/sin entries move: S = max_i Σ_j |∂logitᵢ/∂cⱼ|, from autodiff.

The rotary modules' outputs get a zero perturbation that requires grad; one batched backward pass per logit
gives the exact Jacobian, whose largest row 1-norm is the first-order sensitivity the rounded-angle bound of
`ropecheck.numeric.reference.tolerances.rounded_angle_logits_bound` multiplies.

Claims served: ROPE-QK-RELATIVE (the bound of the offset and M-RoPE stream checks).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ._model import TinyModel

__all__ = ["logit_sensitivity", "rotary_modules"]


def rotary_modules(tiny: TinyModel) -> list[Any]:
    """The text model's rotary-embedding modules (the vision tower's are left alone)."""
    text = tiny.text_model()
    return [m for name, m in text.named_modules() if type(m).__name__.endswith("RotaryEmbedding")]


@contextlib.contextmanager
def _perturbable(tiny: TinyModel) -> Iterator[list[Any]]:
    import torch

    deltas: list[Any] = []
    originals = []
    for module in rotary_modules(tiny):
        original = module.forward

        def forward(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            with torch.enable_grad():
                out = _original(*args, **kwargs)
                if torch.is_tensor(out):  # Llama 4: one complex table e^{iφ}; its real and imaginary parts
                    delta = torch.zeros_like(out, requires_grad=True)
                    deltas.append(delta)
                    return out + delta
                cos, sin = out
                dc = torch.zeros_like(cos, requires_grad=True)
                ds = torch.zeros_like(sin, requires_grad=True)
                deltas.extend([dc, ds])
                return cos + dc, sin + ds

        module.forward = forward
        originals.append((module, original))
    try:
        yield deltas
    finally:
        for module, original in originals:
            module.forward = original


def logit_sensitivity(tiny: TinyModel, input_ids: Any, position_ids: Any, attention_mask: Any = None,
                      rows: int | None = None) -> float:
    """The largest row 1-norm of ∂logits/∂(every cos/sin entry) for one prefill.

    **Arguments:**

    - `tiny`: the model.
    - `input_ids`, `position_ids`, `attention_mask`: one prefill (no cache).
    - `rows`: only the logits of the last `rows` tokens (all when None).

    **Returns:**

    S (a float).
    """
    import torch

    with _perturbable(tiny) as deltas, torch.enable_grad():
        out = tiny.model(input_ids=input_ids, position_ids=position_ids, attention_mask=attention_mask,
                         use_cache=False)
        logits = (out.logits if rows is None else out.logits[:, -rows:]).reshape(-1)
        eye = torch.eye(logits.numel(), dtype=logits.dtype)
        grads = torch.autograd.grad(logits, deltas, grad_outputs=eye, is_grads_batched=True, allow_unused=True)
    total = torch.zeros(logits.numel(), dtype=torch.float64)
    for grad in grads:
        if grad is not None:
            flat = grad.reshape(grad.shape[0], -1)
            # A complex entry's real and imaginary parts are two entries (each carries the entry error).
            total += (flat.real.abs() + flat.imag.abs()).sum(-1) if flat.is_complex() else flat.abs().sum(-1)
    return float(total.max())
