"""`audit-config model.gguf`: llama.cpp's RoPE metadata read with the `gguf` package gives the same expected values
as the config.json it was converted from — and shows what the conversion lost (GGUF has no YaRN `truncate`)."""

from __future__ import annotations

from pathlib import Path

import mpmath
import numpy as np
import pytest
from ropecheck.numeric.audit.model_config import ConfigError, expected_values, load_config
from ropecheck.numeric.reference.tolerances import unit_roundoff

from tests.test_audit_config import _llama3, _theta

gguf = pytest.importorskip("gguf")
CONFIGS = Path(__file__).parent / "model_configs"


def _write(path: Path, *, base: float, rotary: int, context: int, tensors: dict | None = None, **scaling) -> Path:
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_context_length(context)
    writer.add_embedding_length(4096)
    writer.add_head_count(4096 // rotary)
    writer.add_block_count(2)
    writer.add_rope_dimension_count(rotary)
    writer.add_rope_freq_base(base)
    if scaling:
        writer.add_rope_scaling_type(gguf.RopeScalingType(scaling["kind"]))
        writer.add_rope_scaling_factor(scaling["factor"])
        writer.add_rope_scaling_orig_ctx_len(scaling["original"])
    for name, values in (tensors or {}).items():
        writer.add_tensor(name, np.asarray(values, dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_llama31_gguf_rope_freqs_give_the_configs_spectrum(tmp_path):
    """llama.cpp bakes Llama 3's bands into a `rope_freqs` tensor of divisors; computed here from Meta's formula."""
    with mpmath.workdps(50):
        plain, scaled = _theta(500000, 128), _llama3(500000, 128, 8, 8192, 1, 4)
        divisors = [float(p / s) for p, s in zip(plain, scaled, strict=True)]
    path = _write(tmp_path / "llama31.gguf", base=500000.0, rotary=128, context=131072,
                  tensors={"rope_freqs.weight": divisors})
    from_gguf = expected_values(load_config(path).layers[0])[0].inv_freq
    from_config = expected_values(load_config(CONFIGS / "llama3.1-8b").layers[0])[0].inv_freq
    # The divisors are stored in float32: one rounding each, plus both sides' float64 rounding.
    bound = unit_roundoff("float32") + 2 * unit_roundoff("float64")
    assert max(abs(a - b) / b for a, b in zip(from_gguf, from_config, strict=True)) <= bound


def test_gpt_oss_gguf_loses_truncate_false(tmp_path):
    path = _write(tmp_path / "gpt-oss.gguf", base=150000.0, rotary=64, context=131072, kind="yarn", factor=32.0,
                  original=4096)
    from_gguf = expected_values(load_config(path).layers[0])[0]
    from_config = expected_values(load_config(CONFIGS / "gpt-oss-20b").layers[0])[0]
    assert from_gguf.attention_factor == pytest.approx(from_config.attention_factor, rel=unit_roundoff("float64") * 4)
    worst = max(abs(a - b) / b for a, b in zip(from_gguf.inv_freq, from_config.inv_freq, strict=True))
    assert 0.7 < worst < 0.8  # the 76 % of D1: GGUF can only say "truncated"


def test_a_file_that_is_not_gguf_is_a_config_error(tmp_path):
    bad = tmp_path / "model.gguf"
    bad.write_bytes(b"not a gguf file at all")
    with pytest.raises(ConfigError):
        load_config(bad)
