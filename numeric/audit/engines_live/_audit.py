"""`audit_engines`: one tiny model per config, saved once, loaded by every installed engine; each engine's
log-probabilities at every window against the float64 reference, within the bound of `_bounds`; a difference above
it attributed by `_attribution`.

Claims served: ROPE-FREQUENCIES, ROPE-QK-RELATIVE.
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from .._lean_import import one_torch_thread
from ..attention import ConfigError as BuildError
from ._attribution import Attribution, attribute
from ._bounds import TokenBounds, token_bounds
from ._engine_sources import DESIGN_CHOICES, ENGINE_SOURCES
from ._engines import ENGINES, AdapterError, EngineUnavailable, engine_version, run_engine
from ._model_files import ModelFiles, Window, _tokens, save_tiny_model
from ._reference import ReferenceError, decoder_layers, float64_model, layer_rules, reference_pass, sliding_layers

__all__ = ["DESIGN_CHOICES", "PROMPT_REACH", "ROTARY_KERNEL", "ConfigRun", "EngineRun", "WindowResult", "audit_engines",
           "nonfinite_cause", "prepare", "run_engines"]

#: Longest prompt given to an engine that takes no positions (vLLM): its windows start at 0, and the reference's
#: Jacobian grows with the prompt (tokens × vocabulary rows); windows ending beyond it are listed as not reached.
PROMPT_REACH = 64

@dataclasses.dataclass
class WindowResult:
    """One window of one engine: `window`, `difference` (per token, the largest |Δ log-probability|), `bounds`,
    `ratio` (max difference/bound); for an engine run with its default float16 KV cache and a float32 one, the
    float32 run is the one judged (`ratio`, `float32_cache_ratio`), the default run's ratio to the bound without
    the float16 term is `ratio_float32` and to the bound with it `default_cache_ratio`."""

    window: Window
    difference: np.ndarray
    bounds: TokenBounds
    ratio: float
    ratio_float32: float | None = None
    float32_cache_ratio: float | None = None
    default_cache_ratio: float | None = None

    def to_json(self) -> dict[str, Any]:
        out = {"window": self.window.name, "positions": [self.window.start, self.window.end - 1],
               "regime": self.window.regime, "largest_difference": float(self.difference.max()),
               "bound": float(self.bounds.total[int(np.argmax(self.difference / self.bounds.total))]),
               "ratio": self.ratio,
               "bound_terms": {"float32_pass": float(self.bounds.float32_pass.max()),
                               "angles": float(self.bounds.angles.max()),
                               "float16_operands": float(self.bounds.float16_operands.max())}}
        if self.ratio_float32 is not None:
            out["ratio_without_float16_term"] = self.ratio_float32
        if self.float32_cache_ratio is not None:
            out["float32_cache_ratio"] = self.float32_cache_ratio
        if self.default_cache_ratio is not None:
            out["default_float16_cache_ratio"] = self.default_cache_ratio
        return out


@dataclasses.dataclass
class EngineRun:
    """One engine on one config: `engine`, `version`, `verdict` ("conforms", "differs", "differs by design",
    "could not run", "not available", "ropecheck error"), `reason`, `windows`, `attribution`, `design` (the engine's
    own words for a documented choice), `source` (where the engine reads the attributed rule), `nonfinite` (for
    non-finite answers no switched rule explains: what was observed about them, `nonfinite_cause`), `rotary_caches` (the
    engine's rotary embeddings as loaded, where its probe reads them: class, rows of the cos/sin cache, forward
    method), `not_reached` (windows the engine could not be given, and why), `notes`, `load_s`, `run_s`, `wall_s`."""

    engine: str
    version: str = "not available"
    verdict: str = "not available"
    reason: str = ""
    windows: list[WindowResult] = dataclasses.field(default_factory=list)
    attribution: Attribution | None = None
    design: str = ""
    source: str = ""
    nonfinite: dict[str, Any] | None = None
    rotary_caches: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    not_reached: list[str] = dataclasses.field(default_factory=list)
    notes: list[str] = dataclasses.field(default_factory=list)
    load_s: float = 0.0
    run_s: float = 0.0
    wall_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"engine": self.engine, "version": self.version, "verdict": self.verdict, "reason": self.reason,
                "windows": [w.to_json() for w in self.windows],
                "attribution": self.attribution.to_json() if self.attribution else None, "design": self.design,
                "source": self.source, "nonfinite": self.nonfinite, "rotary_caches": self.rotary_caches,
                "not_reached": self.not_reached, "notes": self.notes,
                "seconds": {"load": self.load_s, "run": self.run_s, "wall": self.wall_s}}


@dataclasses.dataclass
class ConfigRun:
    """One config: `name`, `files` (the tiny model), `engines`, `reference_s` (seconds for the reference)."""

    name: str
    files: ModelFiles
    engines: list[EngineRun]
    reference_s: float = 0.0
    reference: Any = dataclasses.field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        table = [{"layer_type": la.layer_type, "layers": list(la.layer_indices), "rope_type": la.rope_type,
                  "base": la.base, "rotary_dim": la.rotary_dim} for la in self.files.table.layers]
        return {"config": self.files.source, "name": self.name, "notes": self.files.notes, "table": table,
                "windows": [w.to_json() for w in self.files.windows], "engines": [e.to_json() for e in self.engines],
                "reference_s": self.reference_s}


class _Reference:
    """The float64 reference of one config, its passes cached per window."""

    def __init__(self, files: ModelFiles) -> None:
        self.files = files
        self.model = float64_model(files.model)
        self.layers = len(decoder_layers(self.model))
        self.sliding = sliding_layers(self.model)
        self.window_size = getattr(self.model.config.get_text_config(), "sliding_window", None)
        self.norm_eps = getattr(self.model.config.get_text_config(), "rms_norm_eps", None) or None
        self.passes: dict[tuple[int, tuple[int, ...]], Any] = {}

    def rules_at(self, end: int) -> list[Any]:
        return layer_rules(self.files.table, end, self.layers)

    def window(self, window: Window, rows: int | None) -> Any:
        key = (window.start, window.tokens)
        if key not in self.passes:
            self.passes[key] = reference_pass(self.model, self.rules_at(window.end), list(window.tokens),
                                              window.start, rows=rows)
        return self.passes[key]

    def logprobs(self, logits: Any) -> np.ndarray:
        import torch

        return torch.log_softmax(logits, -1).numpy()


def _engine_windows(files: ModelFiles, takes_positions: bool) -> tuple[list[Window], list[str]]:
    if takes_positions:
        return files.windows, []
    kept, skipped = [], []
    for window in files.windows:
        if window.end <= PROMPT_REACH:
            kept.append(Window(window.name, 0, _tokens(window.end, min(files.vocabulary, 40), window.start),
                               window.regime))
        else:
            skipped.append(f"{window.name} (positions {window.start}–{window.end - 1}): the engine takes no "
                           f"positions, so it needs a {window.end}-token prompt; prompts here stop at {PROMPT_REACH}")
    return kept, skipped


def _compare(reference: _Reference, window: Window, logprobs: list[list[float]], float16: bool,
             rows: int | None) -> WindowResult:
    ref = reference.window(window, rows)
    wanted = reference.logprobs(ref.logits)
    got = np.asarray(logprobs, dtype=np.float64)[-wanted.shape[0]:]
    if got.shape != wanted.shape:
        raise AdapterError(f"the engine answered {got.shape} log-probabilities, the reference has {wanted.shape}")
    difference = np.where(np.isfinite(got), np.abs(got - wanted), np.inf).max(-1)
    bounds = token_bounds(ref, reference.files.model.config.get_text_config(), reference.layers, float16)
    result = WindowResult(window, difference, bounds, float((difference / bounds.total).max()))
    if float16:
        result.ratio_float32 = float((difference / bounds.without_float16).max())
    return result


def _judge(run: EngineRun, reference: _Reference, answers: list[dict[str, Any]], windows: list[Window],
           float16: bool) -> None:
    # An engine run twice (llama.cpp: its default float16 KV cache, and a float32 one) is judged on the float32 run,
    # whose bound is tight; the default run is held to the bound with the float16 term, and reported beside it.
    primary = "logprobs_float32_cache" if answers and "logprobs_float32_cache" in answers[0] else "logprobs"
    for window, answer in zip(windows, answers, strict=True):
        result = _compare(reference, window, answer[primary], float16 and primary == "logprobs", None)
        if primary != "logprobs":
            default = _compare(reference, window, answer["logprobs"], float16, None)
            result.float32_cache_ratio = result.ratio
            result.ratio_float32, result.default_cache_ratio = default.ratio_float32, default.ratio
        run.windows.append(result)
    failing = [w for w in run.windows if not w.ratio <= 1.0 or not (w.default_cache_ratio or 0) <= 1.0]
    if float16 and any((w.ratio_float32 or 0) > 1 for w in run.windows):
        worst = max(run.windows, key=lambda w: w.ratio_float32 or 0)
        run.notes.append(
            f"float16 KV cache (the engine's default): |Δ log p| up to the float32 bound × {worst.ratio_float32:.3g}, "
            f"within the bound with the float16 term (ratio {max(w.default_cache_ratio or 0 for w in run.windows):.3g})"
            f"; with a float32 cache the largest ratio is {max(w.ratio for w in run.windows):.3g}"
            + (": the difference is the cache's" if all(w.ratio <= 1.0 for w in run.windows) else ""))
    if not failing:
        run.verdict = "conforms"
        return
    run.verdict = "differs"
    # A non-finite answer is never explained: where there are some, the answers before the first of them are
    # attributed on their own, and what is observed about the rest is `nonfinite`.
    run.nonfinite = nonfinite_cause(run.windows, run.rotary_caches)
    until = run.nonfinite["first"] if run.nonfinite else None

    def before_until(result: WindowResult, difference: np.ndarray) -> np.ndarray:
        ratio = difference / result.bounds.total
        if until is None:
            return ratio
        return ratio[np.arange(result.window.end - len(difference), result.window.end) < until]

    compared = [w for w in failing if before_until(w, w.difference).size]
    before = max((float(before_until(w, w.difference).max()) for w in compared), default=0.0)

    def ratio_of(switch: Any) -> float:
        worst = 0.0
        for result in compared:
            window = result.window
            rules = switch(reference.rules_at(window.end), window.end)
            switched = reference_pass(reference.model, rules, list(window.tokens), window.start,
                                      sensitivities=False, rows=len(result.difference))
            wanted = reference.logprobs(switched.logits)
            got = next(a for w, a in zip(windows, answers, strict=True) if w is window)[primary]
            got = np.asarray(got, dtype=np.float64)[-wanted.shape[0]:]
            # A non-finite answer is never explained (and NaN would vanish in max()): it counts as infinite.
            difference = np.where(np.isfinite(got), np.abs(got - wanted), np.inf).max(-1)
            worst = max(worst, float(before_until(result, difference).max()))
        return worst

    kernel = _rotary_kernel_attribution(reference, answers, windows, before, float16)
    if kernel is not None:
        run.attribution = kernel
    elif before > 1.0:
        run.attribution = attribute(reference.files.table, reference.layers, reference.rules_at, ratio_of, before,
                                    reference.sliding, reference.window_size, reference.norm_eps)
    sources = []
    if run.attribution and run.attribution.explained:
        design = DESIGN_CHOICES.get((run.engine, run.attribution.key))
        if design:
            run.verdict, run.design = ("differs by design" if not run.nonfinite else "differs"), design
        else:
            family = str(getattr(reference.files.model.config, "model_type", ""))
            sources.append(ENGINE_SOURCES.get((run.engine, run.attribution.key, family)) or ENGINE_SOURCES.get(
                (run.engine, run.attribution.key), ""))
    if run.nonfinite and run.nonfinite["cache"]:
        sources.append(ENGINE_SOURCES.get((run.engine, "rotary cache", run.nonfinite["cache"]["class"]), ""))
    run.source = "; ".join(source for source in sources if source)


#: The key of an attribution to vLLM's CPU rotary kernel (`ENGINE_SOURCES`): an engine defect no config key explains.
ROTARY_KERNEL = "rotary kernel"


def _rotary_kernel_attribution(reference: _Reference, answers: list[dict[str, Any]], windows: list[Window],
                               before: float, float16: bool) -> Attribution | None:
    """The difference explained by the engine's rotary kernel alone: when the probe saw vLLM's CPU kernel handed a
    layout it misreads and decoded the windows again with `forward_native` (`logprobs_native_rotary`), and those
    answers are within the bound everywhere while the kernel's are not, the kernel explains it. None otherwise."""
    if before <= 1.0 or not answers or any("logprobs_native_rotary" not in a for a in answers):
        return None
    ratio = 0.0
    for window, answer in zip(windows, answers, strict=True):
        ratio = max(ratio, _compare(reference, window, answer["logprobs_native_rotary"], float16, None).ratio)
    if ratio > 1.0:
        return None
    words = ("the CPU rotary kernel misreads the query/key layout it is handed (each row of the last dimension taken "
             "for a token): the same engine, rotating through forward_native instead, conforms")
    return Attribution(ROTARY_KERNEL, words, tuple(range(reference.layers)), ratio, True, before)


def nonfinite_cause(results: list[WindowResult], caches: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What is observed about non-finite answers, which no switched rule explains: the first position with a
    non-finite log-probability, and the engine's rotary cos/sin cache that ends there — one whose rows stop at or
    before that position, with no compared position between its end and it (the first position compared past the
    cache is already non-finite). The finite answers before it are attributed on their own (`_judge`).

    **Arguments:** `results` (the engine's windows; the compared rows are each window's last ones), `caches`
    (`EngineRun.rotary_caches`: class, rows, forward method).

    **Returns:** None when every answer is finite; else `first` (the position), `ratio_before` (the largest ratio
    before it, before any attribution; None when no position before it was compared) and `cache` (or None).
    """
    positions, ratios = [], []
    for result in results:
        rows = len(result.difference)
        positions.append(np.arange(result.window.end - rows, result.window.end))
        ratios.append(result.difference / result.bounds.total)
    position, ratio = np.concatenate(positions), np.concatenate(ratios)
    bad = ~np.isfinite(ratio)
    if not bad.any():
        return None
    first = int(position[bad].min())
    before = ratio[position < first]
    ratio_before = float(before.max()) if before.size else None
    ending = [c for c in caches if c["rows"] <= first and not ((position >= c["rows"]) & (position < first)).any()]
    return {"first": first, "ratio_before": ratio_before, "cache": max(ending, key=lambda c: c["rows"], default=None)}


def prepare(configs: list[str | Path], work: Path | None = None, seed: int = 0) -> list[ConfigRun]:
    """Build and save the tiny model of each config and compute its reference on every window (engines not run).

    **Arguments:** `configs`, `work` (where the models are saved; a temporary folder by default), `seed`.

    **Returns:** one `ConfigRun` per config, with no engines yet.
    """
    folder = Path(work) if work is not None else Path(tempfile.mkdtemp(prefix="ropecheck-engines-"))
    runs = []
    with one_torch_thread():
        for number, config in enumerate(configs):
            began = time.perf_counter()
            files = save_tiny_model(config, folder / f"model-{number}", seed=seed)
            reference = _Reference(files)
            try:
                for window in files.windows:
                    reference.window(window, None)
            except (ValueError, KeyError, TypeError, RuntimeError, AttributeError, AssertionError) as error:
                # transformers built the model but its own forward refuses it (e.g. a MoE config without its
                # routing fields: `topk(k=None)`): a one-line error about the config, as when it cannot build it
                first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
                kind = files.table.model_type
                raise BuildError(f"transformers cannot run the tiny {kind!r} model built from this config: "
                                 f"{first[:200]}") from None
            run = ConfigRun(files.name, files, [], time.perf_counter() - began)
            run.reference = reference
            runs.append(run)
    return runs


def run_engines(runs: list[ConfigRun], engines: list[str] | None = None, faults: list[str | None] | None = None
                ) -> list[ConfigRun]:
    """Run each engine on every prepared config (one subprocess per engine for all of them) and judge it.

    **Arguments:** `runs` (from `prepare`; the same run may be listed more than once, with different faults),
    `engines` (names of `ENGINES`; all by default), `faults` (per run: a deliberate break injected in the engine's
    subprocess, for the broken-engine tests; None everywhere by default).

    **Returns:** one new `ConfigRun` per entry of `runs`, with its engines.
    """
    faults = faults or [None] * len(runs)
    out = [ConfigRun(run.name, run.files, [], run.reference_s, run.reference) for run in runs]
    for name in engines or list(ENGINES):
        engine = ENGINES[name]
        entries = [EngineRun(name) for _ in runs]
        try:
            version = engine_version(engine)
        except EngineUnavailable as error:
            for result, entry in zip(out, entries, strict=True):
                entry.reason = str(error)
                result.engines.append(entry)
            continue
        jobs, planned = [], []
        for number, (run, entry, fault) in enumerate(zip(runs, entries, faults, strict=True)):
            entry.version = version
            windows, entry.not_reached = _engine_windows(run.files, engine.takes_positions)
            planned.append(windows)
            jobs.append({"id": number, "model_dir": str(run.files.directory), "fault": fault,
                         "windows": [w.to_json() for w in windows]})
        began = time.perf_counter()
        try:
            answer = run_engine(engine, jobs)
        except (EngineUnavailable, AdapterError) as error:
            verdict = "not available" if isinstance(error, EngineUnavailable) else "ropecheck error"
            for result, entry in zip(out, entries, strict=True):
                entry.verdict, entry.reason = verdict, str(error)
                result.engines.append(entry)
            continue
        wall = time.perf_counter() - began
        for run, result, entry, job, windows in zip(runs, out, entries, answer["jobs"], planned, strict=True):
            entry.wall_s = wall / len(runs)
            entry.load_s, entry.run_s = float(job.get("load_s", 0.0)), float(job.get("run_s", 0.0))
            entry.notes += list(job.get("notes", []))
            entry.rotary_caches = list(job.get("rotary_caches", []))
            if "adapter_error" in job:
                entry.verdict, entry.reason = "ropecheck error", job["adapter_error"]
            elif "error" in job:
                entry.verdict, entry.reason = "could not run", job["error"]
            else:
                try:
                    with one_torch_thread():  # the attribution re-runs the reference: see `prepare`
                        _judge(entry, run.reference, job["windows"], windows, engine.float16_operands)
                except (AdapterError, ReferenceError) as error:
                    entry.verdict, entry.reason = "ropecheck error", str(error)
            result.engines.append(entry)
    return out


def audit_engines(configs: list[str | Path], engines: list[str] | None = None, work: Path | None = None,
                  seed: int = 0) -> list[ConfigRun]:
    """Audit each installed engine on the tiny model of each config (`prepare`, then `run_engines`).

    **Arguments:** `configs`, `engines` (names of `ENGINES`; all by default), `work`, `seed`.

    **Returns:** one `ConfigRun` per config.

    **Raises:** `ConfigError` of the attention audit for a config transformers cannot build; `ReferenceError`.
    """
    return run_engines(prepare(configs, work, seed), engines)
