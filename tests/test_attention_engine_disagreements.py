"""Shipped cases for the disagreements D3, D5, D6, D9, D10, D11, D14, D18 of the research brief
(`config-attention-brief.md` §1.3) that had none (issue #32, item 7 of the issue; item 6 of this side's brief).

Each case is a config built for the one pattern its row names (not a real checkpoint: a Llama-3.1-8B-shaped or
Phi-3.5-mini-shaped config with that key set), run through `audit-config` with the engines installed here
(transformers and MLX-LM; vLLM and llama.cpp are another engineer's) and asserted to *differ* on the engine the
brief says has it — each was seen failing there — and to conform on transformers where transformers is not that
engine. Measured (transformers 5.3.0, MLX-LM 0.32.2): D3 MLX attention factor 1.09801 where 1.13863; D5 MLX L₀ 4096
(θ 74 % off); D6 MLX cannot be built (`None <= int`); D9 MLX differs, but its first finding is LongRoPE's
always-long factors (D8), which masks the ignored `attention_factor`; D10 MLX takes rope_scaling's L₀ (θ 98 % off);
D11 MLX θ 87.5 % off (L₀ 8192); D18 transformers and MLX-LM both rotate the whole head. D14 is not reproducible
here: the installed transformers (5.3.0) has no `proportional` rope type and MLX-LM computes it right (the defect is
vLLM's, `factor` ignored). Each engine runs in its own subprocess, so these are the opt-in `deep` tier
(about 15 CPU-seconds per case; `pytest --deep tests/test_attention_engine_disagreements.py`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

LLAMA = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
         "num_hidden_layers": 4, "max_position_embeddings": 131072, "rope_theta": 500000.0}
_SHORT = [1.0 + 0.2 * (i / 47) ** 2 for i in range(48)]
_LONG = [1.0 + 59.0 * (i / 47) ** 3 for i in range(48)]
PHI = {"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32, "num_key_value_heads": 32,
       "num_hidden_layers": 4, "max_position_embeddings": 131072, "rope_theta": 10000.0,
       "original_max_position_embeddings": 4096}

# (case, config, the engine the brief says disagrees, what it does)
CASES = [
    ("D3", {**LLAMA, "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768,
                                      "mscale": 0.707, "mscale_all_dim": 0}},
     "mlx-lm", "takes g(s, mscale)/g(s, mscale_all_dim) even when mscale_all_dim is 0"),
    ("D5", {**LLAMA, "rope_scaling": {"rope_type": "yarn", "factor": 4.0}},
     "mlx-lm", "L₀ := 4096 where transformers takes max_position_embeddings"),
    ("D6", {**LLAMA, "rope_scaling": {"rope_type": "yarn", "factor": None, "original_max_position_embeddings": 32768}},
     "mlx-lm", "factor null: an error where transformers takes M/L₀"),
    ("D9", {**PHI, "rope_scaling": {"type": "longrope", "short_factor": _SHORT, "long_factor": _LONG,
                                    "attention_factor": 1.0}},
     "mlx-lm", "an explicit LongRoPE attention_factor ignored"),
    ("D10", {**PHI, "rope_scaling": {"type": "longrope", "short_factor": _SHORT, "long_factor": _LONG,
                                     "original_max_position_embeddings": 8192}},
     "mlx-lm", "rope_scaling's L₀ used where transformers lets the top-level one win"),
    ("D11", {**LLAMA, "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                       "high_freq_factor": 4.0}},
     "mlx-lm", "llama3 without original_max_position_embeddings: 8192 where transformers takes M"),
    ("D18", {**LLAMA, "partial_rotary_factor": 0.5}, "transformers",
     "partial_rotary_factor on a Llama-class model: the default init ignores it"),
]


def _audit(tmp_path: Path, config: dict):
    from ropecheck.numeric.audit.model_config import audit_config

    (tmp_path / "config.json").write_text(json.dumps(config))
    return {engine.name: engine for engine in audit_config(tmp_path, engines=["transformers", "mlx-lm"]).engines}


@pytest.mark.deep
@pytest.mark.parametrize("case, config, engine, what", CASES, ids=[c[0] for c in CASES])
def test_the_engine_that_has_the_disagreement_differs(tmp_path: Path, case: str, config: dict, engine: str,
                                                      what: str) -> None:
    results = _audit(tmp_path, config)
    if results[engine].verdict == "not available":
        pytest.skip(f"{engine} is not installed")
    assert results[engine].verdict in {"differs", "could not be built"}, f"{case}: {engine} {what}"
    if engine != "transformers":  # transformers is the reference reading of these rows
        assert results["transformers"].verdict == "conforms", (case, results["transformers"].verdict)
