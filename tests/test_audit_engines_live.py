"""`ropecheck audit-engines`, opt-in `engines` tier (`pytest -m engines`, after `bash .ci/bootstrap engines`): vLLM
(CPU) and llama.cpp live on every config in tests/model_configs, the conformance page regenerated from the runs, and
each of the two adapters seen failing on a deliberately broken engine (vLLM's `RotaryEmbedding` with its base
doubled; llama.cpp's converter writing `rope.freq_base` doubled). Time: docs/reference.md, "Engines".

Each config's tiny model and reference is its own test (`-k hunyuan` prepares that config only), and a config
transformers refuses is listed in `REFUSED` with its one-line reason, asserted as a refusal. The engine-specific
findings (Kimi-K2's YaRN betas in llama.cpp, GLM-4.7-Flash in vLLM's CPU rotary kernel, DeepSeek-V2's softmax scale
in transformers, Qwen3-VL-MoE's expert packing) each run only their own configs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.engines

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted(p.parent for p in (ROOT / "tests/model_configs").glob("**/config.json"))
ENGINES = ["llama.cpp", "vllm"]
ROPECHECK = shutil.which("ropecheck", path=str(Path(sys.executable).parent)) or "ropecheck"

#: Released configs transformers refuses to build, and the line `audit-engines` says for each (exit 2). Each is
#: asserted as refused: a refusal that stops happening (a transformers upgrade, a builder change) fails the test, so
#: the list stays true. Not refusals of transformers (our builder's, fixed): Qwen3-VL-MoE's text config has no
#: causal-LM class (built whole, as Qwen3-VL), DeepSeek-V2 without routing fields (filled, `_complete_routing`), and
#: Hunyuan-A13B's remote-code model_type `hunyuan`, whose released `architectures` is transformers'
#: HunYuanMoEV1ForCausalLM (built as `hunyuan_v1_moe`, as Kimi-K2 is as `deepseek_v3`).
REFUSED = {
    # transformers 5.3.0 validates a per-layer-type (nested) YaRN by reading `original_max_position_embeddings` from
    # the top-level `rope_parameters` (KeyError, transformers/modeling_rope_utils.py:797); docs/config-conformance.md
    "gemma3-nested-yarn": "transformers cannot build 'gemma3_text' from this config: "
                          "'original_max_position_embeddings'",
}
_PREPARED: dict[str, object] = {}  # config name → its ConfigRun, or the exception preparing it raised


@pytest.fixture(scope="module")
def selected(request: pytest.FixtureRequest) -> None:
    if "engines" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the engines tier: run with -m engines")


@pytest.fixture(scope="module")
def work(selected: None, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("engines-live")


def _prepared(config: Path, work: Path) -> object:
    """The tiny model and reference of one config (built once for the module), or the exception that stopped it."""
    from ropecheck.numeric.audit.engines_live._audit import prepare

    if config.name not in _PREPARED:
        try:
            (_PREPARED[config.name],) = prepare([config], work / config.name)
        except Exception as error:  # judged by the config's own test below
            _PREPARED[config.name] = error
    return _PREPARED[config.name]


def _ready(work: Path) -> list:
    from ropecheck.numeric.audit.engines_live._audit import ConfigRun

    return [run for run in (_prepared(c, work) for c in CONFIGS) if isinstance(run, ConfigRun)]


def _run(name: str, work: Path) -> object:
    return next(run for run in _ready(work) if run.name == name)


@pytest.fixture(scope="module")
def runs(work: Path) -> list:
    from ropecheck.numeric.audit.engines_live._audit import run_engines
    from ropecheck.numeric.audit.engines_live._engines import ENGINES as TABLE

    for name in ENGINES:
        if not TABLE[name].python().exists():
            pytest.skip(f"{name} is not installed (bash .ci/bootstrap engines)")
    prepared = _ready(work)
    llama = [run.name for run in prepared].index("llama2-7b")
    out = run_engines([*prepared, prepared[llama]], ENGINES, [None] * len(prepared) + ["base"])
    from ropecheck.numeric.audit.engines_live._report import run_record, update_page

    records = ROOT / "docs/engines-runs"
    records.mkdir(exist_ok=True)
    import json

    (records / "engines-tier.json").write_text(json.dumps(run_record(out[:-1]), indent=1) + "\n")
    update_page(ROOT / "docs/config-conformance.md", records)
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=[c.name for c in CONFIGS])
def test_every_config_gets_its_tiny_model_and_reference(work: Path, config: Path) -> None:
    from ropecheck.numeric.audit.attention import ConfigError
    from ropecheck.numeric.audit.engines_live._audit import ConfigRun

    outcome = _prepared(config, work)
    if config.name not in REFUSED:
        assert isinstance(outcome, ConfigRun), f"{type(outcome).__name__}: {outcome}"
        return
    # Refused by transformers, as listed: the same reason from the library, and from the command one line, exit 2.
    assert isinstance(outcome, ConfigError), f"no longer refused ({type(outcome).__name__}): drop it from REFUSED"
    assert str(outcome) == REFUSED[config.name]
    done = subprocess.run([ROPECHECK, "audit-engines", str(config), "--engine", "transformers", "--work",
                           str(work / f"{config.name}-command")], capture_output=True, text=True, timeout=300,
                          check=False, env={**os.environ, "COLUMNS": "80"})
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"ropecheck audit-engines: error: {REFUSED[config.name]}\n", done.stderr


@pytest.mark.parametrize("engine", ENGINES)
def test_every_config_gets_a_verdict_from_logits(runs: list, engine: str) -> None:
    for run in runs[:-1]:
        entry = next(e for e in run.engines if e.engine == engine)
        assert entry.verdict not in ("not available", "ropecheck error"), (run.name, entry.reason)
        if entry.verdict in ("conforms", "differs", "differs by design"):
            assert entry.windows, run.name


@pytest.mark.parametrize("engine", ENGINES)
def test_a_doubled_base_is_found_and_attributed(runs: list, engine: str) -> None:
    entry = next(e for e in runs[-1].engines if e.engine == engine)
    assert entry.verdict == "differs"
    assert entry.attribution.key == "rope_theta" and entry.attribution.explained, entry.attribution


def test_mlx_lm_runs_gpt_oss_and_its_difference_is_truncate_in_both_layer_types(runs: list, work: Path) -> None:
    # MLX-LM loads gpt-oss from the writer's copy in its own layout (its sanitize reads no unquantised transformers
    # experts); it differs by ignoring `truncate: false` in the sliding and the full layers, as llama.cpp does.
    # Seen failing with gate and up swapped in that copy: ratio 2.07e+03, not explained.
    from ropecheck.numeric.audit.engines_live._audit import run_engines
    from ropecheck.numeric.audit.engines_live._engines import ENGINES as TABLE

    if not TABLE["mlx-lm"].python().exists():
        pytest.skip("MLX-LM's environment is missing (bash .ci/bootstrap test makes it)")
    gpt_oss = _run("gpt-oss-20b", work)
    for engine in (*run_engines([gpt_oss], ["mlx-lm"])[0].engines,
                   next(r for r in runs if r.name == "gpt-oss-20b").engines[0]):
        assert engine.verdict == "differs", (engine.engine, engine.reason)
        assert engine.attribution.key == "truncate" and engine.attribution.explained, engine.attribution
        assert engine.attribution.layers == (0, 1)


def test_qwen2_vl_on_llama_cpp_is_attributed_to_the_rms_norm_eps_it_never_reads(runs: list, work: Path) -> None:
    # llama.cpp 0c1e5709's Qwen2-VL loader reads no RMS-norm ε (0, src/models/qwen2vl.cpp:3-5); the broken
    # transformers (every RMS norm with ε = 0) is attributed to the same key.
    from ropecheck.numeric.audit.engines_live._audit import run_engines

    for name in ("qwen2.5-vl-7b", "qwen2.5-vl-7b-yarn"):
        engine = next(r for r in runs if r.name == name).engines[0]
        assert engine.verdict == "differs" and engine.attribution.explained, (name, engine.reason)
        assert engine.attribution.key == "rms_norm_eps", engine.attribution
    vision = _run("qwen2.5-vl-7b", work)
    (broken,) = run_engines([vision], ["transformers"], ["norm_eps_zero"])[0].engines
    assert broken.verdict == "differs"
    assert broken.attribution.key == "rms_norm_eps" and broken.attribution.explained, broken.attribution


def test_kimi_k2_on_llama_cpp_is_attributed_to_the_yarn_betas_it_never_reads(work: Path) -> None:
    # llama.cpp 0c1e5709's DeepSeek-V2/V3 loader reads no YaRN betas and runs 32/1 (src/llama-hparams.h:161-162;
    # llama-cpp-python passes 32/1 too, llama_cpp/llama.py:89-90); Kimi-K2 sets 1/1: ratio 139 → 0.00452 with the
    # reference's betas switched. The same config with betas 32/1 conforms (ratio 0.0077), so nothing is blamed.
    # Seen failing before the `beta_fast` misreading: "not explained; closest: rope_theta × 1.134 (ratio 75.5)".
    import json

    from ropecheck.numeric.audit.engines_live._audit import run_engines
    from ropecheck.numeric.audit.engines_live._engines import ENGINES as TABLE

    if not TABLE["llama.cpp"].python().exists():
        pytest.skip("llama.cpp is not installed (bash .ci/bootstrap engines)")
    kimi = ROOT / "tests/model_configs/kimi-k2"
    same_betas = work / "kimi-k2-betas-32-1"
    same_betas.mkdir(exist_ok=True)
    config = json.loads((kimi / "config.json").read_text())
    config["rope_scaling"].update(beta_fast=32.0, beta_slow=1.0)
    (same_betas / "config.json").write_text(json.dumps(config))
    released, control = (_prepared(path, work) for path in (kimi, same_betas))
    (engine,), (unblamed,) = (run.engines for run in run_engines([released, control], ["llama.cpp"]))
    assert engine.verdict == "differs" and engine.attribution.explained, (engine.reason, engine.attribution)
    assert engine.attribution.key == "beta_fast" and engine.attribution.layers == (0, 1), engine.attribution
    assert engine.source.startswith(
        "llama.cpp ignores rope_scaling.beta_fast/beta_slow for this architecture and uses 32/1"), engine.source
    assert unblamed.verdict == "conforms" and unblamed.attribution is None, (unblamed.verdict, unblamed.attribution)


def test_glm_4_7_flash_on_vllm_is_attributed_to_the_cpu_rotary_kernel(work: Path) -> None:
    # vLLM's CPU kernel reads a query as rows of its last dimension, one per token (csrc/cpu/pos_encoding.cpp:173-178);
    # MLA hands it (tokens, heads, rope dim) views (vllm/model_executor/layers/mla.py:227-230). GLM-4.7-Flash is MLA
    # with plain RoPE, so it reaches the kernel: ratio 3.43e+03; the same engine rotating through forward_native
    # conforms (0.0573). Kimi-K2 (YaRN: DeepseekScalingRotaryEmbedding, torch code) is not re-run and conforms.
    # Seen failing before the probe's native re-run: "not explained; closest: layer 0 applies no rotation (3.05e+03)".
    from ropecheck.numeric.audit.engines_live._audit import ROTARY_KERNEL, run_engines
    from ropecheck.numeric.audit.engines_live._engines import ENGINES as TABLE

    if not TABLE["vllm"].python().exists():
        pytest.skip("vLLM is not installed (bash .ci/bootstrap engines)")
    runs = [_prepared(ROOT / "tests/model_configs" / name, work) for name in ("glm4.7-flash", "kimi-k2")]
    (glm,), (kimi,) = (run.engines for run in run_engines(runs, ["vllm"]))
    assert glm.verdict == "differs" and glm.attribution.explained, (glm.reason, glm.attribution)
    assert glm.attribution.key == ROTARY_KERNEL and glm.attribution.ratio_before > 1e3, glm.attribution
    assert "csrc/cpu/pos_encoding.cpp:173-178" in glm.source and "mla.py:219, 227-230" in glm.source
    assert kimi.verdict == "conforms" and not any("misreads" in note for note in kimi.notes), kimi.notes


def test_deepseek_v2_lite_on_transformers_is_attributed_to_its_softmax_scale(work: Path) -> None:
    # The case runs now that the builder fills its routing fields: transformers 5.3.0's DeepSeek-V2 omits YaRN's
    # g(s, mscale_all_dim)² softmax factor (modeling_deepseek_v2.py:335; the audit-config finding of the same
    # defect); vLLM conforms on the same weights (ratio 0.0113 here).
    from ropecheck.numeric.audit.engines_live._audit import run_engines
    from ropecheck.numeric.audit.engines_live._engines import ENGINES as TABLE

    case = _prepared(ROOT / "tests/model_configs/cases/deepseek-v2-lite-mscale", work)
    engines = ["transformers", *(["llama.cpp"] if TABLE["llama.cpp"].python().exists() else [])]
    engine, *llama_cpp = run_engines([case], engines)[0].engines
    assert engine.verdict == "differs" and engine.attribution.explained, (engine.reason, engine.attribution)
    assert engine.attribution.key == "softmax scale", engine.attribution
    assert "modeling_deepseek_v2.py:335" in engine.source, engine.source
    # llama.cpp takes "lite" (no q_lora_rank) from n_layer 26/27 only (src/models/deepseek2.cpp:8, 12-14): the tiny
    # 2-layer model does not load, and the reason is its loader's words, not llama-cpp-python's "Failed to load
    # model from file" alone (seen failing so before the probe kept llama.cpp's error log lines).
    for refused in llama_cpp:
        assert refused.verdict == "could not run", (refused.verdict, refused.reason)
        assert "key not found in model: deepseek2.attention.q_lora_rank" in refused.reason, refused.reason


def test_qwen3_vl_moe_is_saved_in_its_released_expert_packing(work: Path) -> None:
    # transformers 5.3.0 saves Qwen3-VL-MoE's fused experts transposed from the release and reads either packing;
    # llama.cpp's converter (conversion/qwen3vl.py:323-349) and MLX-LM read only the released one. Seen failing
    # with the model as transformers saves it: llama.cpp "check_tensor_dims: tensor 'blk.0.ffn_gate_exps.weight' has
    # wrong shape", MLX-LM "Expected shape (4, 768, 64) but received shape (4, 32, 1536)": both could not run.
    from ropecheck.numeric.audit.engines_live._audit import run_engines
    from ropecheck.numeric.audit.engines_live._engines import ENGINES as TABLE

    engines = [name for name in ("transformers", "mlx-lm", "llama.cpp") if TABLE[name].python().exists()]
    vision_moe = _prepared(ROOT / "tests/model_configs/qwen3-vl-30b-a3b", work)
    for engine in run_engines([vision_moe], engines)[0].engines:
        assert engine.verdict == "conforms", (engine.engine, engine.verdict, engine.reason)
