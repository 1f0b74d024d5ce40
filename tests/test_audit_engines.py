"""`ropecheck audit-engines` (issue #38), default tier: transformers and MLX-LM live on three configs (plain RoPE,
YaRN, Gemma 3's per-layer bases with a sliding window), each engine's log-probabilities against the float64 reference
of ropecheck's expected table; and each adapter seen failing on a deliberately broken engine (a monkeypatch inside
the engine's subprocess), attributed to the right key or layer. One subprocess per engine for every job; the tiny
models and their references are built once for the module.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("transformers")

from ropecheck.numeric.audit.engines_live._audit import prepare, run_engines
from ropecheck.numeric.audit.engines_live._engines import ENGINES

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = [ROOT / "tests/model_configs" / name for name in ("llama2-7b", "qwen2.5-7b-yarn", "gemma3-1b")]
# (config index, fault) for the broken-engine jobs, after the three clean ones.
TRANSFORMERS_FAULTS = [(0, "base"), (1, "yarn_truncate"), (0, "layer_unrotated"), (0, "nope_rotated"),
                       (2, "window_ignored")]
MLX_FAULTS = [(0, "base"), (0, "layer_unrotated")]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> list:
    return prepare(CONFIGS, tmp_path_factory.mktemp("engines"))


def _run(prepared: list, engine: str, faults: list[tuple[int, str]]) -> list:
    runs = prepared + [prepared[index] for index, _ in faults]
    return run_engines(runs, [engine], [None] * len(prepared) + [fault for _, fault in faults])


@pytest.fixture(scope="module")
def transformers_runs(prepared: list) -> list:
    return _run(prepared, "transformers", TRANSFORMERS_FAULTS)


@pytest.fixture(scope="module")
def mlx_runs(prepared: list) -> list:
    if not ENGINES["mlx-lm"].python().exists():
        pytest.skip("MLX-LM's environment is missing (bash .ci/bootstrap test makes it)")
    return _run(prepared, "mlx-lm", MLX_FAULTS)


def _engine(run: object) -> object:
    (engine,) = run.engines  # type: ignore[attr-defined]
    return engine


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_transformers_matches_the_reference(transformers_runs: list, index: int) -> None:
    engine = _engine(transformers_runs[index])
    assert engine.verdict == "conforms", (engine.reason, [w.to_json() for w in engine.windows])
    assert len(engine.windows) >= 2  # the start and a window at long positions (explicit position_ids)
    assert max(w.window.start for w in engine.windows) > 1000


@pytest.mark.parametrize("index", range(len(CONFIGS)))
def test_mlx_lm_matches_the_reference(mlx_runs: list, index: int) -> None:
    engine = _engine(mlx_runs[index])
    assert engine.verdict == "conforms", (engine.reason, [w.to_json() for w in engine.windows])
    assert max(w.window.start for w in engine.windows) > 1000  # positions reached through the rope offset


def _fault(runs: list, faults: list[tuple[int, str]], name: str) -> object:
    return _engine(runs[len(CONFIGS) + [f for _, f in faults].index(name)])


@pytest.mark.parametrize("engine_name", ["transformers", "mlx-lm"])
def test_a_doubled_base_is_found_and_attributed_to_rope_theta(request: pytest.FixtureRequest,
                                                              engine_name: str) -> None:
    runs, faults = ((request.getfixturevalue("transformers_runs"), TRANSFORMERS_FAULTS) if engine_name ==
                    "transformers" else (request.getfixturevalue("mlx_runs"), MLX_FAULTS))
    engine = _fault(runs, faults, "base")
    assert engine.verdict == "differs"
    assert engine.attribution.key == "rope_theta" and engine.attribution.explained
    kappa = float(re.search(r"× ([0-9.]+)", engine.attribution.words).group(1))
    assert abs(kappa - 2) < 0.02, engine.attribution.words


@pytest.mark.parametrize("engine_name", ["transformers", "mlx-lm"])
def test_an_unrotated_layer_is_found_and_attributed_to_that_layer(request: pytest.FixtureRequest,
                                                                  engine_name: str) -> None:
    runs, faults = ((request.getfixturevalue("transformers_runs"), TRANSFORMERS_FAULTS) if engine_name ==
                    "transformers" else (request.getfixturevalue("mlx_runs"), MLX_FAULTS))
    engine = _fault(runs, faults, "layer_unrotated")
    assert engine.verdict == "differs"
    assert engine.attribution.explained and engine.attribution.layers == (1,), engine.attribution


def test_yarn_truncate_ignored_is_attributed_to_truncate(transformers_runs: list) -> None:
    engine = _fault(transformers_runs, TRANSFORMERS_FAULTS, "yarn_truncate")
    assert engine.verdict == "differs"
    assert engine.attribution.key == "truncate" and engine.attribution.explained, engine.attribution


def test_an_engine_ignoring_the_sliding_window_is_attributed_to_it(transformers_runs: list) -> None:
    # Gemma 3's layer 0 slides (window 6): the broken engine masks it as a full-attention layer.
    engine = _fault(transformers_runs, TRANSFORMERS_FAULTS, "window_ignored")
    assert engine.verdict == "differs"
    assert engine.attribution.key == "sliding_window" and engine.attribution.explained, engine.attribution
    assert engine.attribution.layers == (0,)


def test_the_reference_switches_the_rms_norm_eps(prepared: list) -> None:
    # The suspect `rms_norm_eps` (llama.cpp's Qwen2-VL never reads it: ε = 0) runs every RMS norm of the reference
    # with the switched ε, and puts the model's own back afterwards.
    import dataclasses

    import torch
    from ropecheck.numeric.audit.engines_live._reference import reference_pass

    reference = prepared[0].reference
    window = prepared[0].files.windows[0]
    rules = reference.rules_at(window.end)
    tokens = list(window.tokens)
    plain = reference_pass(reference.model, rules, tokens, window.start, sensitivities=False).logits
    switched = [dataclasses.replace(r, norm_eps=1.0) for r in rules]
    large = reference_pass(reference.model, switched, tokens, window.start, sensitivities=False).logits
    again = reference_pass(reference.model, rules, tokens, window.start, sensitivities=False).logits
    assert plain.dtype == large.dtype == torch.float64
    assert float((plain - large).abs().max()) > 1e-3
    assert bool((plain == again).all())
    norms = [m for m in reference.model.modules() if "norm" in type(m).__name__.lower()]
    assert norms and all(m.variance_epsilon == reference.norm_eps for m in norms)


def test_a_window_no_shorter_than_the_context_is_not_shrunk_into_the_tiny_model() -> None:
    # Phi-3.5's window (262144) never masks within its 131072 positions; Gemma 2's (4096 of 8192) does.
    from ropecheck.numeric.audit.attention._configs import shrink_config

    phi = json.loads((ROOT / "tests/model_configs/phi3.5-mini/config.json").read_text())
    gemma = json.loads((ROOT / "tests/model_configs/gemma2-9b/config.json").read_text())
    assert shrink_config(phi)["sliding_window"] is None
    assert shrink_config(gemma)["sliding_window"] == 6


def test_a_tied_release_is_saved_tied(prepared: list) -> None:
    # Gemma's class ties the output projection to the token embeddings; llama.cpp's and vLLM's Gemma read no
    # lm_head, so an untied tiny model is a different model there.
    from safetensors import safe_open

    gemma, llama = prepared[2].files.directory, prepared[0].files.directory
    with safe_open(str(gemma / "model.safetensors"), "np") as tensors:
        assert "lm_head.weight" not in tensors.keys()
    assert json.loads((gemma / "config.json").read_text())["tie_word_embeddings"] is True
    with safe_open(str(llama / "model.safetensors"), "np") as tensors:
        assert "lm_head.weight" in tensors.keys()


def test_the_reference_applies_the_attention_logit_cap(tmp_path: Path) -> None:
    # Gemma 2 caps its attention logits (50): transformers' SDPA path drops the cap, so the reference must run
    # the attention that applies it; with the cap lifted (10⁹) the logits must then change.
    import torch
    from ropecheck.numeric.audit.engines_live._model_files import save_tiny_model
    from ropecheck.numeric.audit.engines_live._reference import decoder_layers, float64_model

    model = float64_model(save_tiny_model(ROOT / "tests/model_configs/gemma2-9b", tmp_path).model)
    tokens = torch.tensor([[5, 9, 14, 3, 22, 7]])
    with torch.no_grad():
        capped = model(input_ids=tokens).logits
        for layer in decoder_layers(model):
            layer.self_attn.attn_logit_softcapping = 1e9
        lifted = model(input_ids=tokens).logits
    assert capped.dtype == torch.float64
    assert not torch.equal(capped[0, 1:], lifted[0, 1:])  # position 0 attends to itself alone


def test_the_reference_switches_longrope_factor_sets_at_the_original_length(tmp_path: Path) -> None:
    # The table lists LongRoPE's two regimes and a sweep of lengths in each (Phi-3.5 tiny: 31, 32 short; 33, 48, …
    # 1024 long): a call ending past L₀ = 32 uses the long factors, whatever the order of the entries.
    from ropecheck.numeric.audit.engines_live._reference import layer_rules
    from ropecheck.numeric.audit.model_config import expected_values, load_config

    source = json.loads((ROOT / "tests/model_configs/phi3.5-mini/config.json").read_text())
    source.update(original_max_position_embeddings=32, max_position_embeddings=1024)
    (tmp_path / "config.json").write_text(json.dumps(source))
    table = load_config(tmp_path / "config.json")
    entries = expected_values(table.layers[0])
    long = next(e for e in entries if e.regime == "long")
    short = next(e for e in entries if e.regime == "short")
    for end, wanted in ((12, short), (32, short), (33, long), (40, long), (1024, long)):
        (rule,) = {r.inv_freq for r in layer_rules(table, end, 2)}
        assert rule == wanted.inv_freq, end


def test_the_page_reads_a_record_with_non_finite_differences() -> None:
    # A record keeps inf as the string "inf" (finite_json); the page compared it with floats and raised.
    from ropecheck.numeric.audit.engines_live._report import conformance_markdown

    window = {"window": "length 64", "positions": [0, 63], "largest_difference": "inf", "bound": 0.0025,
              "ratio": "inf"}
    engine = {"engine": "vllm", "version": "0.32.0", "verdict": "differs", "reason": "", "attribution": None,
              "design": "", "windows": [window, {**window, "ratio": 0.5, "largest_difference": 0.001}]}
    record = {"date": "2026-11-28 06:22 UTC", "machine": "here", "configs": [{"name": "dynamic-ntk",
                                                                             "engines": [engine]}]}
    page = conformance_markdown([record])
    assert "largest |Δ log p| inf at positions 0–63" in page


def _nonfinite_windows(first_bad: int, ratio_before: float = 0.5) -> list:
    # vLLM's windows of the dynamic-NTK run: prompts from position 0, the last 12 positions compared.
    from ropecheck.numeric.audit.engines_live._audit import WindowResult
    from ropecheck.numeric.audit.engines_live._bounds import TokenBounds
    from ropecheck.numeric.audit.engines_live._model_files import Window

    results = []
    for end in (12, 31, 33, 48):
        positions = np.arange(end - 12, end)
        bounds = TokenBounds(np.full(12, 1e-3), np.zeros(12), np.zeros(12))
        difference = np.where(positions < first_bad, ratio_before * 1e-3, np.inf)
        results.append(WindowResult(Window(f"length {end}", 0, tuple(range(end)), end), difference, bounds,
                                    float((difference / bounds.total).max())))
    return results


def test_non_finite_answers_are_traced_to_the_rotary_cache_they_begin_past() -> None:
    # vLLM 0.32.0's dynamic NTK (the conformance page's unexplained row): non-finite log-probabilities from position
    # 32, the first past the 32 rows of DynamicNTKScalingRotaryEmbedding's cos/sin cache, read by its CPU kernel.
    from ropecheck.numeric.audit.engines_live._audit import nonfinite_cause
    from ropecheck.numeric.audit.engines_live._report import conformance_markdown

    cache = {"class": "DynamicNTKScalingRotaryEmbedding", "rows": 32, "forward": "forward_cpu"}
    found = nonfinite_cause(_nonfinite_windows(32), [cache])
    assert found == {"first": 32, "ratio_before": 0.5, "cache": cache}
    # The finite answers before it do not decide (they are attributed on their own: vLLM's are plain RoPE).
    assert nonfinite_cause(_nonfinite_windows(32, ratio_before=1500.0), [cache])["cache"] == cache
    # Not that cache: it holds the first non-finite position (seen failing without the `rows <= first` test); the
    # answers turn non-finite before its end; a compared position past its end is still finite (rows 31: position
    # 31 is compared; seen failing without the test of the positions between); every answer finite.
    assert nonfinite_cause(_nonfinite_windows(32), [{**cache, "rows": 64}])["cache"] is None
    assert nonfinite_cause(_nonfinite_windows(30), [cache]) == {"first": 30, "ratio_before": 0.5, "cache": None}
    assert nonfinite_cause(_nonfinite_windows(32), [{**cache, "rows": 31}])["cache"] is None
    assert nonfinite_cause(_nonfinite_windows(10**6), [cache]) is None
    attribution = {"key": "rope_type", "explained": True, "ratio": 0.0068,
                   "words": "all: dynamic NTK not applied: plain RoPE beyond max_position_embeddings"}
    engine = {"engine": "vllm", "version": "0.32.0", "verdict": "differs", "reason": "", "attribution": attribution,
              "design": "", "source": "", "windows": [], "nonfinite": found}
    page = conformance_markdown([{"date": "2026-11-28 11:00 UTC", "machine": "here",
                                  "configs": [{"name": "dynamic-ntk", "engines": [engine]}]}])
    assert ("**differs** (`rope_type` before position 32; non-finite from position 32, past its 32-row rotary cache)"
            in page)
    assert "plain RoPE beyond max_position_embeddings for the positions before 32" in page
    assert "holds cos/sin for 32 positions, 0–31" in page


def test_vllm_is_served_the_context_its_kv_cache_can_hold() -> None:
    # 262144 positions of the tiny model need 1 GiB of float32 KV cache: vLLM refused to start with the 1 GiB
    # default; a context over the probe's limit is served at the longest prompt, and a prompt past
    # max_position_embeddings (dynamic NTK) raises max_model_len with vLLM's own switch.
    import os
    import runpy

    probe = runpy.run_path(str(ROOT / "numeric/audit/engines_live/_probe_vllm.py"))
    text = {"num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 2, "head_dim": 128,
            "hidden_size": 256}
    job = {"windows": [{"tokens": list(range(12))}]}
    saved = {k: os.environ.get(k) for k in ("VLLM_CPU_KVCACHE_SPACE", "VLLM_ALLOW_LONG_MAX_MODEL_LEN")}
    os.environ.pop("VLLM_ALLOW_LONG_MAX_MODEL_LEN", None)
    try:
        served, _ = probe["_served_length"]({**text, "max_position_embeddings": 262144}, job)
        assert served == 262144 and int(os.environ["VLLM_CPU_KVCACHE_SPACE"]) >= 2
        served, notes = probe["_served_length"]({**text, "max_position_embeddings": 2**24}, job)
        assert served == 13 and "longest prompt" in notes[0]
        # Past max_position_embeddings vLLM's own override is used only where vLLM refuses the length (dynamic NTK:
        # it serves max_position_embeddings × factor itself). Seen failing on the probe that set the override for
        # every prompt past max_position_embeddings and said it needed it.
        served, notes = probe["_served_length"]({**text, "max_position_embeddings": 8}, job)
        assert served == 13 and notes == ["max_model_len 13 > max_position_embeddings 8"]
        assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN" not in os.environ

        def accepting(**arguments: object) -> str:
            return "started"

        def refusing(**arguments: object) -> str:
            if os.environ.get("VLLM_ALLOW_LONG_MAX_MODEL_LEN") != "1":
                raise ValueError("User-specified max_model_len (13) is greater than the derived max_model_len "
                                 "... set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.")
            return "started with the override"

        notes = []
        assert probe["_start"](accepting, "dir", 48, 13, notes) == "started" and notes == []
        assert probe["_start"](refusing, "dir", 48, 13, notes) == "started with the override"
        assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1" in notes[0] and "VLLM_ALLOW_LONG_MAX_MODEL_LEN" not in os.environ
    finally:
        for key, value in saved.items():
            os.environ.pop(key, None)
            if value is not None:
                os.environ[key] = value


def test_a_failure_of_the_adapter_is_ropecheck_s_error(transformers_runs: list) -> None:
    # The probe is asked to rotate a NoPE layer of a model that has none: its own code raises.
    engine = _fault(transformers_runs, TRANSFORMERS_FAULTS, "nope_rotated")
    assert engine.verdict == "ropecheck error" and "no layer without RoPE" in engine.reason


def test_a_layout_vllm_s_cpu_rotary_kernel_misreads_is_recognised() -> None:
    # The kernel takes numel / size(-1) rows, one per token, stride(-2) apart (csrc/cpu/pos_encoding.cpp:173-178).
    # MLA's views (GLM-4.7-Flash's tiny model, 12 tokens, 2 heads): q[..., 192:] and k_pe.unsqueeze(1) of the fused
    # projection. Seen failing with the stride condition dropped (MLA's key passed).
    import runpy

    misreads = runpy.run_path(str(ROOT / "numeric/audit/engines_live/_probe_vllm.py"))["kernel_misreads"]
    assert misreads(12, (12, 2, 64), (512, 256, 1))  # MLA's query: 24 rows for 12 positions
    assert misreads(12, (12, 1, 64), (1344, 64, 1))  # MLA's key: one row per token, but 64 apart, not 1344
    assert not misreads(12, (12, 256), (256, 1))  # Llama's flattened heads
    assert not misreads(12, (12, 1, 64), (64, 64, 1))  # one head, contiguous
    assert not misreads(12, (12, 128), (384, 1))  # a slice of a fused qkv, still one row per token


def test_a_difference_the_native_rotation_removes_is_the_rotary_kernel_s(prepared: list) -> None:
    # vLLM's probe decodes again with forward_native where the kernel was handed a layout it misreads; when those
    # answers conform and the kernel's do not, the kernel explains the difference (GLM-4.7-Flash live: 3.43e+03 →
    # 0.0573, tests/test_audit_engines_live.py). Seen failing with the native answers ignored (rope_theta, 647 → 647).
    from ropecheck.numeric.audit.engines_live._audit import ROTARY_KERNEL, EngineRun, _judge, _rotary_kernel_attribution

    run = prepared[0]
    windows = run.files.windows[:1]
    exact = run.reference.logprobs(run.reference.window(windows[0], None).logits)
    shifted = exact.copy()
    shifted[1:, 3] += 0.5  # a wrong log-probability at every position past the first, as the kernel's
    engine = EngineRun("vllm")
    _judge(engine, run.reference, [{"logprobs": shifted.tolist(), "logprobs_native_rotary": exact.tolist()}],
           windows, False)
    assert engine.verdict == "differs" and engine.attribution.key == ROTARY_KERNEL, engine.attribution
    assert engine.attribution.explained and engine.attribution.ratio < 1e-6 < 1 < engine.attribution.ratio_before
    assert "csrc/cpu/pos_encoding.cpp:173-178" in engine.source
    # Native answers that differ as much explain nothing: the usual suspects are left to try.
    assert _rotary_kernel_attribution(run.reference, [{"logprobs_native_rotary": shifted.tolist()}], windows,
                                      engine.attribution.ratio_before, False) is None


def test_a_missing_engine_is_not_available(prepared: list, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROPECHECK_VLLM_PYTHON", "/nonexistent/python")
    (run,) = run_engines(prepared[:1], ["vllm"])
    engine = _engine(run)
    assert engine.verdict == "not available"
    assert engine.reason.startswith("not available: install with bash .ci/bootstrap engines")


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "ropecheck", "audit-engines", str(tmp_path / "missing")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "no config file" in result.stderr


def test_a_misreading_shared_by_every_layer_type_is_one_suspect() -> None:
    # gpt-oss's sliding and full layers share one YaRN block: an engine that ignores `truncate: false` ignores it in
    # both, which neither layer type's suspect alone explains (MLX-LM and llama.cpp: ratio 10.7 → 1.41 with layer 0
    # alone, → 0.0136 with both).
    from ropecheck.numeric.audit.engines_live._attribution import suspects
    from ropecheck.numeric.audit.engines_live._reference import layer_rules
    from ropecheck.numeric.audit.model_config import load_config

    table = load_config(ROOT / "tests/model_configs/gpt-oss-20b/config.json")
    found = [s for s in suspects(table, 2) if s.key == "truncate" and s.words.startswith("sliding_attention, full")]
    (both,) = [s for s in found if "ignored" in s.words]
    assert both.layers == (0, 1)
    rules = layer_rules(table, 12, 2)
    switched = both.switch(rules, 12)
    assert all(new.inv_freq != old.inv_freq for new, old in zip(switched, rules, strict=True))


#: llama.cpp 0c1e5709 on Kimi-K2's tiny model, positions 0–11 (docs/engines-runs/kimi-k2-llamacpp-vllm.json): the
#: largest |Δ log p| / bound, and the same with the reference's YaRN betas switched to 32/1 (the engine's residual).
KIMI_LLAMACPP_RATIO, KIMI_LLAMACPP_RESIDUAL = 139.0, 0.00452


def _engine_on_recorded_numbers(table: object, engine_rules: list) -> object:
    """A stand-in for an engine's `ratio_of` from the numbers recorded above: the ratio scales with the largest
    angle error over positions 0–11 against the engine's rules (139 at the config's own rules), plus the residual."""
    from ropecheck.numeric.audit.engines_live._reference import layer_rules

    positions = np.arange(12.0)[:, None]

    def error(rules: list) -> float:
        return max(float(np.abs(positions * (np.asarray(a.inv_freq) - np.asarray(b.inv_freq))).max())
                   for a, b in zip(rules, engine_rules, strict=True))

    unswitched = error(layer_rules(table, 12, 2))
    return lambda switch: KIMI_LLAMACPP_RATIO * error(switch(layer_rules(table, 12, 2), 12)) / unswitched \
        + KIMI_LLAMACPP_RESIDUAL


def _kimi(base_times: float = 1.0, **rope: float) -> object:
    from ropecheck.numeric.audit.model_config import parse_config

    raw = json.loads((ROOT / "tests/model_configs/kimi-k2/config.json").read_text())
    raw["rope_scaling"].update(rope)
    raw["rope_theta"] *= base_times
    return parse_config(raw)


def test_yarn_betas_llama_cpp_ignores_are_named_only_where_the_config_sets_others() -> None:
    # llama.cpp's DeepSeek-V2/V3 loader reads no YaRN betas and runs 32/1 (src/llama-hparams.h:161-162); Kimi-K2 sets
    # 1/1. Live: tests/test_audit_engines_live.py. Seen failing without the `beta_fast` misreading (closest suspect
    # then: rope_theta, not explained), and with it applied whatever the betas (a suspect for a 32/1 config).
    from ropecheck.numeric.audit.engines_live._attribution import attribute, suspects
    from ropecheck.numeric.audit.engines_live._reference import layer_rules

    def attributed(table: object, engine: object) -> object:
        ratio_of = _engine_on_recorded_numbers(table, layer_rules(engine, 12, 2))
        return attribute(table, 2, lambda end: layer_rules(table, end, 2), ratio_of, KIMI_LLAMACPP_RATIO)

    kimi, as_llama_cpp = _kimi(), _kimi(beta_fast=32.0, beta_slow=1.0)
    found = attributed(kimi, as_llama_cpp)
    assert found.key == "beta_fast" and found.explained and found.layers == (0, 1), found
    # Mechanism absent: a config whose betas are llama.cpp's own 32/1 has no such suspect, and an engine that
    # differs from it, or from Kimi-K2, in its base alone is not blamed on the betas.
    assert not [s for s in suspects(as_llama_cpp, 2) if s.key == "beta_fast"]
    assert attributed(as_llama_cpp, _kimi(2.0, beta_fast=32.0, beta_slow=1.0)).key == "rope_theta"
    assert attributed(kimi, _kimi(2.0)).key == "rope_theta"


def test_an_engine_quote_already_in_code_stays_one_code_span() -> None:
    """The page puts identifiers and paths in code spans so a phone wraps them; a quote already in backticks is kept
    whole. Seen failing when every identifier inside it became its own span (`` `void `f_g`(`` …): the pieces,
    glued without spaces, ran past the right edge at 390 px."""
    from ropecheck.numeric.audit.engines_live._report import _names_as_code

    quoted = "loader: `void load_arch(llama_model_loader & ml) { }` (src/models/qwen2vl.cpp:3-5)"
    assert _names_as_code(quoted) == (
        "loader: `void load_arch(llama_model_loader & ml) { }` (`src/models/qwen2vl.cpp:3-5`)"
    )
