"""Model factories for `ropecheck audit-attention CONFIG --model tests/attention_factories.py:FACTORY` (issue #32):
each returns a torch module built from the (shrunk) transformers config it is given. `llama_without_rope_on_layer_1`
is the worked example of docs/attention-audit.md: a patched copy of the library's Llama whose layer 1 drops RoPE.
"""

from __future__ import annotations

from typing import Any


def llama(config: Any) -> Any:
    """The library's own class, unchanged."""
    from transformers import LlamaForCausalLM

    return LlamaForCausalLM(config)


def llama_without_rope_on_layer_1(config: Any) -> Any:
    """Llama whose second attention layer is handed cos = 1, sin = 0 (no rotation) whatever the positions."""
    import torch
    from transformers import LlamaForCausalLM

    model = LlamaForCausalLM(config)
    attention = model.model.layers[1].self_attn
    forward = attention.forward

    def without_rope(hidden_states: Any, position_embeddings: Any, *args: Any, **kwargs: Any) -> Any:
        cos, sin = position_embeddings
        return forward(hidden_states, (torch.ones_like(cos), torch.zeros_like(sin)), *args, **kwargs)

    attention.forward = without_rope
    return model


def llama_that_raises_when_called(config: Any) -> Any:
    """A model that builds but raises on every forward call."""
    model = llama(config)

    def forward(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("this model cannot run")

    model.forward = forward
    return model


def raises(config: Any) -> Any:
    raise RuntimeError("this factory cannot build anything")


def returns_a_string(config: Any) -> Any:
    return "not a model"


NOT_CALLABLE = 3
