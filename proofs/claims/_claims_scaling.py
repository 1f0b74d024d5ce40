"""The context-extension literature behind `rope_scaling` (ISSUE #33): NTK-aware, YaRN, DeepSeek's mscale, llama3,
LongRoPE, ALiBi slopes, M-RoPE, T5 buckets, the critical dimension, xPos and Positional Interpolation.

Each statement is `Claimed`: the Coq kernel decides it in `proofs/coq/Scaling.v` (every size) and
`proofs/coq/ScalingSizes.v` (at the published sizes, with `interval`), bound in `_bound_scaling`. Where paper and code
define a quantity differently the reading states both and the theorem says where they agree. The numeric twins of
the claims with numbers are in `numeric/mirrors/_scaling.py`, keyed by the same IDs.
"""

from __future__ import annotations

from ..engine._statements import Claimed
from ._claim import Claim, Correction
from ._source_literature import (
    ALIBI_CODE,
    CHEN_2023,
    DEEPSEEK_V2,
    DEEPSEEK_V3,
    DING_2024,
    HF_ROPE_CODE,
    KAZEMNEJAD_2023,
    LIU_2024,
    LLAMA3_CODE,
    MEN_2024,
    PENG_2024,
    PRESS_2022,
    QWEN1_CODE,
    QWEN2VL_2024,
    T5_CODE,
    XIONG_2024,
    XPOS_CODE,
)
from ._sources import quote

_NTK_DEF = r"h(\theta_d) = b'^{-2d/|D|},\quad b' = b \cdot s^{|D|/(|D|-2)}"
_OUT_OF_BOUND = (
    "some dimensions are slightly extrapolated to 'out-of-bound' values … the scale value s has to be set higher "
    "than the expected scale for a given context length extension"
)
_RAMP = (
    "γ(r) = 0 if r < α, 1 if r > β, (r−α)/(β−α) otherwise (Eq. 18); h(θ_d) = (1−γ(r(d)))θ_d/s + γ(r(d))θ_d "
    "(Eq. 20); For the Llama family of models, experimentally good values are α = 1 and β = 32."
)
_TEMPERATURE = "For LLaMA and Llama 2 models, the recommended values are: √(1/t) = 0.1 ln(s) + 1"
_B_EXCEEDS_D = (
    "While there is no close form for B(s) …, numerically it is at least larger than d, and for many positional "
    "difference s, B(s) is much larger than d … Therefore, the interpolation bound is at least 2·294.73 ∼ 600× "
    "smaller than the extrapolation bound"
)
_DYNAMIC = (
    "In each forward-pass, the position embedding updates the scale factor s = max(1, l′/L) where l′ is the "
    "sequence length of the current sequence."
)

CLAIMS = [
    Claim(
        id="NTK-ENDPOINTS",
        title="NTK-aware base change keeps the highest frequency and divides the lowest by s",
        topic="scaling",
        latex=r"b' = b\,s^{d/(d-2)}:\quad \theta'_0 = \theta_0,\quad \theta'_{d/2-1} = \theta_{d/2-1}/s",
        statement=Claimed("the NTK-aware base keeps θ₀ and divides θ_{d/2−1} by s, exactly"),
        assumptions=("every even d = 2n ≥ 4, every base b > 0, every factor s > 0", "θᵢ = b^(−2i/d), i = 0 … n−1"),
        sources=(quote(PENG_2024, _NTK_DEF),),
        interpretation="YaRN's Definition 1 formalises bloc97's NTK-aware scaling (r/LocalLLaMA, June 2023): "
        "b′ = b·s^{|D|/(|D|−2)} with |D| = d. Read as: the highest frequency (i = 0) is left exactly as it is and "
        "the lowest (i = n − 1) is exactly the linearly interpolated θ/s. Proved for every even d ≥ 4, b > 0, s > 0 "
        "(θ′ᵢ = θᵢ·s^(−i/(n−1))). exllama's alpha_value base b·α^{d/(d−2)} is the same base with α = s.",
        mirror={"kind": "ntk", "sizes": {"d": 128, "base": 10000.0, "factor": 4.0}},
    ),
    Claim(
        id="NTK-OUT-OF-BOUND",
        title="NTK-aware scaling extrapolates every interior pair beyond its trained angle range",
        topic="scaling",
        latex=r"0 < i < \tfrac d2 - 1,\ s > 1:\quad \theta_i/s < \theta'_i < \theta_i,\quad "
        r"sL\,\theta'_i > L\,\theta_i",
        statement=Claimed("every interior pair rotates faster than θ/s, so at position sL it exceeds the angle Lθ"),
        assumptions=("every even d = 2n, b > 0, s > 1, L > 0", "interior pairs 0 < i < n − 1"),
        sources=(quote(PENG_2024, _OUT_OF_BOUND),),
        interpretation="Read as: with the NTK-aware base, every pair strictly between the two endpoints is "
        "interpolated by less than s (θᵢ/s < θ′ᵢ < θᵢ), so at the extended length sL its angle sLθ′ᵢ exceeds the "
        "largest angle Lθᵢ seen in training: 'out-of-bound'. Proved for every interior pair of every even d (the "
        "endpoints are exact: NTK-ENDPOINTS). The paper's 'some dimensions' is in fact every interior one.",
        mirror={"kind": "ntk", "sizes": {"d": 128, "base": 10000.0, "factor": 4.0}},
    ),
    Claim(
        id="YARN-TEMPERATURE",
        title="Scaling cos and sin by √(1/t) multiplies every logit by 1/t; 0.1 ln s + 1 is 1 only at s = 1",
        topic="scaling",
        latex=r"\langle cR_mq, cR_nk\rangle = c^2\langle R_mq,R_nk\rangle,\ c = 0.1\ln s + 1 \ge 1,\ "
        r"c = 1 \iff s = 1,\ c(16)^2 \in (1.631, 1.632)",
        statement=Claimed("cos/sin scaled by c give logits scaled by c², with c = 0.1 ln s + 1"),
        assumptions=("every even d, every spectrum, real positions, s ≥ 1",),
        sources=(
            quote(PENG_2024, _TEMPERATURE),
            quote(
                PENG_2024,
                "scales both q_m and k_n by a constant factor √(1/t) by simply scaling the complex RoPE embeddings "
                "by the same amount",
            ),
        ),
        interpretation="Read as: multiplying the RoPE table's cos and sin by c (HF's attention_factor, YaRN's "
        "mscale) multiplies every rotated q and k by c, hence every logit by c² = 1/t, which is YaRN's "
        "softmax(qᵀk/(t√|D|)). Proved for every d; c ≥ 1 for s ≥ 1 with equality only at s = 1; at YaRN's s = 16 "
        "(Llama 2 64k) the logit multiplier is 1.631…1.632.",
        mirror={"kind": "temperature", "factors": [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 40.0]},
    ),
    Claim(
        id="YARN-RAMP-CODE",
        title="The implementations' ramp (linear in the pair index, floor/ceil) is not YaRN's γ(r)",
        topic="scaling",
        latex=r"\forall i<64:\ \theta'^{\text{code}}_i = h(\theta_i)\ (\text{Eqs. 17–20}),\ d=128,\ b=10^4,\ "
        r"L=4096,\ s=16,\ \alpha=1,\ \beta=32",
        statement=Claimed("the code's θ′ equals the paper's Eq. 20 for every pair at Llama 2's sizes"),
        assumptions=(
            "d = 128, b = 10⁴, L = 4096 (Llama 2), s = 16, α = 1, β = 32 (beta_fast = 32, beta_slow = 1)",
            "code: lo = max(0, ⌊i_c(32)⌋) = 20, hi = min(d − 1, ⌈i_c(1)⌉) = 46, ramp = clamp((i − lo)/(hi − lo))",
        ),
        sources=(
            quote(PENG_2024, _RAMP),
            quote(HF_ROPE_CODE, "inv_freq_extrapolation_factor = 1 - linear_ramp_factor(low, high, dim // 2)"),
        ),
        interpretation="Paper: r(i) = L/λᵢ (Eq. 17 read with Eq. 13's base b), γ(r) of Eq. 18, θ′ = (1−γ)θ/s + γθ "
        "(Eq. 20): γ is linear in r, i.e. exponential in the pair index. Code (HF _compute_yarn_parameters with "
        "truncate, vLLM, llama.cpp, the authors' scaled_rope): i_c(N) = d ln(L/(2πN))/(2 ln b), lo = ⌊i_c(32)⌋, "
        "hi = ⌈i_c(1)⌉, θ′ = (θ/s)·ramp + θ(1 − ramp) with ramp linear in i. Decided at Llama 2's sizes (s = 16): "
        "lo = 20, hi = 46 (kernel-checked), and the two agree exactly on the pairs i ≤ 20 and i ≥ 46 and differ on "
        "every pair 21 … 45 (e.g. i = 33: paper γ ≈ 0.150, code 0.5).",
        correction=Correction(
            latex=r"\forall i<64:\ \theta'^{\text{code}}_i = h(\theta_i) \iff i \le 20 \vee i \ge 46",
            statement=Claimed("paper and code agree exactly on pairs i ≤ 20 and i ≥ 46, nowhere in between"),
            explanation="Both are 1 (kept) below the band and 0 (interpolated) above it; inside it the code's "
            "ramp is linear in the index, the paper's in r = L/λ. Proved pair by pair with interval.",
        ),
        mirror={"kind": "yarn_ramp", "sizes": {"d": 128, "base": 10000.0, "length": 4096, "factor": 16.0}},
    ),
    Claim(
        id="YARN-EQ17-BASE",
        title="YaRN's Eq. 17 as printed (with b′) is not Eq. 13's r = L/λ: they agree only at the first pair",
        topic="scaling",
        latex=r"\frac{L}{2\pi b'^{2i/d}} = \frac{L}{2\pi b^{2i/d}},\quad b' = b\,s^{d/(d-2)}",
        statement=Claimed("r(i) computed with the NTK base b′ equals L/λᵢ with the model's base b"),
        assumptions=("every even d = 2n ≥ 4, b > 1, s > 1, L > 0, pairs i < n",),
        sources=(quote(PENG_2024, "r(d) = L/λ_d = L/(2π b′^{2d/|D|})"),),
        interpretation="Eq. 17 is printed with b′ while Eq. 13 defines λ_d with b; the implementations use b. Read "
        "as: both readings give the same ratio r for every pair. Refuted (d = 4, b = 10⁴, s = 2, pair 1).",
        correction=Correction(
            latex=r"r_{b'}(i) = r_b(i)\,s^{-i/(n-1)};\quad r_{b'}(i) = r_b(i) \iff i = 0",
            statement=Claimed("with b′ every ratio is divided by s^(i/(n−1)); the readings agree only at i = 0"),
            explanation="With b′ the ramp's band moves to lower pairs; the implementations (and this ledger's "
            "YARN-RAMP-CODE) read Eq. 17 with the model's base b.",
        ),
    ),
    Claim(
        id="YARN-DYNAMIC-RULE",
        title="'Dynamic' scaling in HF and vLLM is not the paper's s = max(1, l′/L)",
        topic="scaling",
        latex=r"\forall f, x \ge 1:\ f x - (f-1) = \max(1, x)",
        statement=Claimed("HF's dynamic α = f·l′/L − (f − 1) is YaRN's s = max(1, l′/L)"),
        assumptions=("x = l′/L ≥ 1 the length ratio, f = factor ≥ 1", "α enters base′ = b·α^{d/(d−2)}"),
        sources=(
            quote(PENG_2024, _DYNAMIC),
            quote(HF_ROPE_CODE, "(factor * seq_len / max_position_embeddings) - (factor - 1)"),
        ),
        interpretation="Read as: the α that HF's _compute_dynamic_ntk_parameters (and the authors' "
        "LlamaDynamicScaledRotaryEmbedding, and emozilla's reddit post) puts into the NTK base equals the paper's "
        "s = max(1, l′/L) at every length. Refuted at f = 2, l′ = 2L (3 vs 2).",
        correction=Correction(
            latex=r"f x - (f-1) = \max(1,x) + (f-1)(x-1);\ \text{equal} \iff f = 1 \vee x = 1;\ "
            r"f^2 - f + 1 = \alpha_{HF}(f, f)",
            statement=Claimed("HF's α exceeds the paper's by (f − 1)(x − 1); vLLM's f² − f + 1 is HF's at l′ = fL"),
            explanation="For x ≥ 1 the two agree only when f = 1 or l′ = L. vLLM and SGLang use f² − f + 1 at "
            "every length, which is HF's value at the maximum length l′ = fL and equals the paper's only at "
            "l′/L = f² − f + 1.",
        ),
        mirror={"kind": "dynamic"},
    ),
    Claim(
        id="DEEPSEEK-V2-MSCALE",
        title="DeepSeek-V2's √t = 0.0707 ln s + 1 is yarn_get_mscale with mscale = 0.707",
        topic="scaling",
        latex=r"g(s, 0.707) = 0.0707 \ln s + 1;\ \text{logit} \times g(40, 0.707)^2 \in (1.589, 1.590)",
        statement=Claimed("with mscale = mscale_all_dim = 0.707 every logit is multiplied by (0.0707 ln s + 1)²"),
        assumptions=("s > 1; the code's g(s, μ) = 0.1 μ ln s + 1", "s = 40 (DeepSeek-V2)"),
        sources=(quote(DEEPSEEK_V2, "The factor √t is computed as √t = 0.0707 ln s + 1"),),
        interpretation="Read under YaRN's convention: the paper's √t is the factor on q and k, so the logit "
        "multiplier is its square. The code (HF deepseek_v3 modeling, vLLM deepseek_v2) scales cos/sin by "
        "g(s, mscale)/g(s, mscale_all_dim) and the softmax scale by g(s, mscale_all_dim)²: with both 0.707 the "
        "rotated and unrotated parts of the logit are both multiplied by (0.0707 ln s + 1)², ≈ 1.5896 at s = 40.",
        mirror={"kind": "mscale", "mscale": 0.707, "factor": 40.0},
    ),
    Claim(
        id="DEEPSEEK-V3-MSCALE",
        title="DeepSeek's mscale/mscale_all_dim: the rotated part gets g(s, mscale)², the rest g(s, mscale_all_dim)²",
        topic="scaling",
        latex=r"\text{logit} = g(s,\mu)^2\,q_r\!\cdot\!k_r + g(s,\mu_{all})^2\,q_n\!\cdot\!k_n;\ "
        r"\text{uniform} \iff \mu = \mu_{all};\ g(40,1)^2 \in (1.873, 1.874)",
        statement=Claimed(
            "the code's MLA logit is YaRN's temperature on both parts exactly when mscale = mscale_all_dim"
        ),
        assumptions=("s > 1, mscale, mscale_all_dim ≥ 0", "s = 40, mscale = mscale_all_dim = 1 (DeepSeek-V3)"),
        sources=(quote(DEEPSEEK_V3, "s = 40, α = 1, β = 32, and the scaling factor √t = 0.1 ln s + 1"),),
        interpretation="The paper's √t = 0.1 ln s + 1 is YaRN's √(1/t) (YaRN writes softmax(qᵀk/(t√|D|)) with "
        "√(1/t) = 0.1 ln s + 1): the names are inverted, the number is the same. Code: cos/sin × g(s, ms)/g(s, msa), "
        "softmax scale × g(s, msa)². Proved: the rotated part of the logit gets g(s, ms)², the unrotated part "
        "g(s, msa)²; one factor for the whole logit iff ms = msa; with V3's ms = msa = 1 it is (0.1 ln 40 + 1)² "
        "≈ 1.8739 on both parts.",
        mirror={"kind": "mscale", "mscale": 1.0, "factor": 40.0},
    ),
    Claim(
        id="LLAMA3-BAND-EDGES",
        title="Llama 3's band rule is continuous at both edges: < or ≤ makes no difference",
        topic="scaling",
        latex=r"\theta'_{<}(\theta) = \theta'_{\le}(\theta)\quad \forall \theta > 0,\ 0 < l_f < h_f,\ L_0 > 0",
        statement=Claimed("the llama3 rule with strict and with closed bands is the same function"),
        assumptions=("every θ > 0, s, 0 < low_freq_factor < high_freq_factor, L₀ > 0",),
        sources=(
            quote(
                LLAMA3_CODE,
                "smooth = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)",
            ),
        ),
        interpretation="Meta's apply_scaling keeps θ where λ < L₀/h_f, divides by s where λ > L₀/l_f and blends "
        "(1 − κ)θ/s + κθ in between. Proved: at λ = L₀/h_f the blend is θ and at λ = L₀/l_f it is θ/s, so the rule "
        "with ≤ at the edges (as some ports write it) is the same function for every input.",
        mirror={"kind": "llama3"},
    ),
    Claim(
        id="LLAMA3-IS-BY-PARTS",
        title="Llama 3's band scaling is exactly YaRN's NTK-by-parts with α = l_f, β = h_f, r = L₀/λ",
        topic="scaling",
        latex=r"\theta'_{\text{llama3}}(\theta) = (1-\gamma(r))\theta/s + \gamma(r)\theta,\ r = L_0/\lambda,\ "
        r"\alpha = l_f,\ \beta = h_f",
        statement=Claimed("llama3's rule is YaRN Eqs. 18 + 20 in r = L₀/λ"),
        assumptions=("every θ > 0, s, 0 < l_f < h_f, L₀ > 0",),
        sources=(
            quote(LLAMA3_CODE, "new_freqs.append((1 - smooth) * freq / scale_factor + smooth * freq)"),
            quote(PENG_2024, _RAMP),
        ),
        interpretation="Proved for every input: the llama3 rule equals YaRN's paper ramp γ(r) (linear in r = L₀/λ, "
        "Eq. 18) with α = low_freq_factor, β = high_freq_factor, blended by Eq. 20 — the paper's form, not the "
        "index-linear ramp that YaRN's implementations compute (YARN-RAMP-CODE).",
        mirror={"kind": "llama3"},
    ),
    Claim(
        id="LONGROPE-ATTENTION-SCALE",
        title="LongRoPE's attention factor √(1 + ln s/ln L₀): ≥ 1, √(17/12) for Phi-3 128k, below YaRN's",
        topic="scaling",
        latex=r"\sqrt{1 + \ln s/\ln L_0} \ge 1\ (= 1 \iff s = 1);\ s=32, L_0=4096: \sqrt{17/12};\ "
        r"L_0 > e^5 \Rightarrow < 0.1\ln s + 1",
        statement=Claimed("the LongRoPE factor is ≥ 1, equals √(17/12) at s = 32, L₀ = 4096, and is below YaRN's"),
        assumptions=("s ≥ 1, L₀ > 1; s = M/L₀ when attention_factor is unset (HF and the authors' code)",),
        sources=(
            quote(DING_2024, "During inference, the LLM dynamically adjusts the corresponding RoPE rescale factors"),
            quote(HF_ROPE_CODE, "math.sqrt(1 + math.log(factor) / math.log(original_max_position_embeddings))"),
        ),
        interpretation="The factor is not in the stored §3.2; HF and the authors' longrope.py compute "
        "√(1 + ln s/ln L₀) with s = M/L₀ (the same formula: they agree whenever attention_factor is unset). Proved: "
        "≥ 1 with equality only at s = 1; exactly √(17/12) ≈ 1.190 for Phi-3-128k (s = 32, L₀ = 4096: ln 32/ln 4096 "
        "= 5/12); strictly below YaRN's 0.1 ln s + 1 for every s > 1 once L₀ > e⁵ ≈ 148.",
        mirror={"kind": "longrope", "factor": 32.0, "original": 4096},
    ),
    Claim(
        id="ALIBI-SLOPES-GENERAL",
        title="ALiBi's reference get_slopes computes the paper's general rule only for powers of 2",
        topic="relative",
        latex=r"\forall n \ge 1:\ \mathrm{get\_slopes}(n) = (2^{-8h/n})_{h=1}^{n}",
        statement=Claimed("the reference get_slopes(n) is the geometric sequence 2^(−8h/n) for every n"),
        assumptions=("n ≥ 1 heads; p = 2^⌊log₂ n⌋",),
        sources=(
            quote(
                PRESS_2022,
                "In general, for n heads, the set of slopes is the geometric sequence that starts at 2^{−8/n} and uses "
                "that same value as its ratio.",
            ),
            quote(ALIBI_CODE, "get_slopes_power_of_2(closest_power_of_2) + get_slopes(2*closest_power_of_2)[0::2]"),
        ),
        interpretation="Read as: the reference code's list equals the paper's list 2^{−8h/n}, h = 1 … n. Refuted "
        "(n = 12: the code gives 2^{−1}, …, 2^{−8}, 2^{−1/2}, 2^{−3/2}, 2^{−5/2}, 2^{−7/2}).",
        correction=Correction(
            latex=r"n = 2^k \Rightarrow \text{equal};\ n \ne 2^{\lfloor\log_2 n\rfloor} \Rightarrow "
            r"2^{-4/p} \in \mathrm{get\_slopes}(n) \setminus \{2^{-8h/n}\}",
            statement=Claimed(
                "equal for powers of 2; otherwise the code has the slope 2^(−4/p), which the paper lacks"
            ),
            explanation="For every n that is not a power of 2 the lists differ even as multisets: the code's "
            "largest slope 2^{−4/p} (p = 2^⌊log₂n⌋ < n < 2p) exceeds every paper slope 2^{−8h/n}.",
        ),
        mirror={"kind": "alibi", "heads": [8, 12, 16, 20, 24, 32, 40, 48, 64, 71]},
    ),
    Claim(
        id="MROPE-TEXT-REDUCES",
        title="M-RoPE with equal temporal, height and width ids is 1-D RoPE",
        topic="rope",
        latex=r"\mathrm{pos}_t = \mathrm{pos}_h = \mathrm{pos}_w = p \Rightarrow \mathrm{MRoPE}(x) = R_p x",
        statement=Claimed("for text tokens (all three ids equal) M-RoPE is RoPE at that position"),
        assumptions=("every d = 2h, every spectrum, every section assignment (consecutive or interleaved)",),
        sources=(
            quote(
                QWEN2VL_2024,
                "cos = torch.cat([m[i % 3] for i, m in enumerate(cos.split(mrope_section, dim=-1))], dim=-1)",
            ),
        ),
        interpretation="Pair i is rotated by pos_{section(i)}·θᵢ; for any assignment of pairs to the t, h, w "
        "sections (Qwen2-VL's consecutive blocks, Qwen3-VL's interleaved ones) equal ids give RoPE at p, "
        "coordinate by coordinate (interleaved pairs; the half-split layout is a fixed permutation of both "
        "sides). Proved for every d. The per-config check adds Σ mrope_section = d/2.",
        mirror={"kind": "mrope", "sections": [16, 24, 24]},
    ),
    Claim(
        id="T5-BUCKET-SATURATION",
        title="T5's buckets are monotone and saturate at max_distance — and already at 91 (encoder) / 113 (decoder)",
        topic="relative",
        latex=r"n \ge \text{max\_distance} \Rightarrow b(n) = B - 1;\ b \text{ monotone};\ b(n) = n\ (n < B/2);\ "
        r"b_{16,128}(n) = 15 \iff n \ge 91;\ b_{32,128}(n) = 31 \iff n \ge 113",
        statement=Claimed("offsets ≥ max_distance share the last bucket; at T5's sizes the last bucket starts earlier"),
        assumptions=(
            "B buckets per side (num_buckets halved when bidirectional), max_distance > B/2, offsets n ≥ 0",
            "exact real logarithm (the code's float32 log is a mirror question)",
        ),
        sources=(quote(T5_CODE, "relative positions <=-max_distance map to the same bucket"),),
        interpretation="Read as: every offset at or beyond max_distance falls in the last bucket; proved for every "
        "B ≥ 2 and max_distance > B/2, with monotonicity and one bucket per offset below B/2. At T5's sizes "
        "(32 buckets, max_distance 128) the last bucket is reached earlier than 128: from offset 91 in the "
        "bidirectional encoder (16 per side) and from 113 in the decoder — offsets 91 … 127 are already merged.",
        mirror={"kind": "t5"},
    ),
    Claim(
        id="CRITICAL-DIMENSION-LIU",
        title="Liu et al.'s critical dimension is 2⌈i_c(1)⌉: 92, 64, 62 at d = 128, T = 4096, b = 10⁴, 5·10⁵, 10⁶",
        topic="scaling",
        latex=r"d_{extra} = 2\lceil \tfrac d2 \log_b \tfrac{T}{2\pi}\rceil = 2\lceil i_c(1)\rceil;\ "
        r"d_{extra}(10^4) = 92,\ (5\cdot10^5) = 64,\ (10^6) = 62",
        statement=Claimed("d_extra equals twice YaRN's ceil(i_c(1)); its values at Llama 2's sizes"),
        assumptions=("b > 1, d = 2n; T = T_train = 4096, d = 128 for the values",),
        sources=(quote(LIU_2024, "critical dimension for extrapolation"),),
        interpretation="Liu et al.'s formula d_extra = 2⌈(d/2) log_b(T/2π)⌉ (as the project's notes give it; the "
        "paper's text was not in the stored copies) is twice the implementations' YaRN upper correction dim "
        "⌈i_c(β_slow = 1)⌉ for every b > 1, d, T (the OpenReview remark that they are equivalent, proved). Values "
        "kernel-checked: 92 (b = 10⁴), 64 (5·10⁵), 62 (10⁶).",
        mirror={"kind": "critical", "bases": [10000.0, 500000.0, 1000000.0], "length": 4096, "d": 128},
    ),
    Claim(
        id="XIONG-SCORE-DECAY",
        title="The all-ones RoPE score does not decay monotonically with distance (Llama 2: rises from 11 to 12)",
        topic="decay",
        latex=r"0 \le r \le r' \Rightarrow 2\sum_i \cos(r'\theta_i) \le 2\sum_i \cos(r\theta_i)\quad (d=128, b=10^4)",
        statement=Claimed("the all-ones score is non-increasing in the distance at d = 128, b = 10⁴"),
        assumptions=("q = k = all-ones (Xiong et al.'s Fig. 4), d = 128, b = 10⁴, real distances r ≥ 0",),
        sources=(
            quote(
                XIONG_2024,
                "which imposes a heavy decay on the attention scores for distant tokens",
            ),
        ),
        interpretation="Read as: the score of all-ones q, k (⟨R_m 1, R_n 1⟩ = 2Σᵢcos((m−n)θᵢ)) is non-increasing "
        "in |m − n|. Refuted at Llama 2's sizes: 2Σcos(12θᵢ) > 2Σcos(11θᵢ) (≈ 84.76 vs 84.69).",
        correction=Correction(
            latex=r"S(r) \le S(0) = d\ \forall r;\ 0 < |r| < 2\pi \Rightarrow S(r) < S(0)",
            statement=Claimed("the score is largest at distance 0 (strictly near it), not monotone"),
            explanation="For every even d and b > 0 the all-ones score never exceeds its value d at distance 0, "
            "and is strictly below it for 0 < |r| < 2π (θ₀ = 1); beyond that it oscillates.",
        ),
        mirror={"kind": "xiong", "bases": [10000.0, 500000.0]},
    ),
    Claim(
        id="XPOS-RELATIVE-DECAY",
        title="xPos's scales multiply to ζ^{(n−m)/B} under torchscale's centring and decoding offsets",
        topic="decay",
        latex=r"\zeta^{(n+c)/B}\,\zeta^{-(m+c)/B} = \zeta^{(n-m)/B};\ \zeta_0 = 2/7;\ 0 < \zeta_i < 1",
        statement=Claimed("the product of query and key scales depends on n − m only"),
        assumptions=("ζ > 0, B ≠ 0, any common centring c; ζᵢ = (2i + 0.4d)/(1.4d), i < d/2",),
        sources=(quote(XPOS_CODE, "min_pos = -(length + offset) // 2"),),
        interpretation="q at n is scaled by ζ^{n/B}, k at m by ζ^{−m/B}, both shifted by the same min_pos; in "
        "decoding the query's offset src_len − 1 and the keys' offset 0 give the same min_pos, so positions differ "
        "by src_len − 1 − j. Proved for every ζ, B, c; ζ₀ = 2/7 for every d and every ζᵢ lies in (0, 1).",
        mirror={"kind": "xpos"},
    ),
    Claim(
        id="XPOS-FP16-RANGE",
        title="xPos in float16: ζ₀^{p/512} stays normal up to p = 3966, ζ₀^{−p/512} finite up to p = 4532",
        topic="decay",
        latex=r"(2/7)^{p/512} \ge 2^{-14} \iff p \le 3966;\ (2/7)^{-p/512} \le 65504 \iff p \le 4532",
        statement=Claimed("the float16 range of xPos's largest-decay scale"),
        assumptions=("ζ₀ = 2/7, B = 512 (torchscale's scale_base), integer p ≥ 0; exact values vs float16's limits",),
        sources=(quote(XPOS_CODE, "scale = (torch.arange(0, head_dim, 2) + 0.4 * head_dim) / (1.4 * head_dim)"),),
        interpretation="Decided exactly: the query scale (2/7)^{p/512} is ≥ float16's smallest normal 2⁻¹⁴ iff "
        "p ≤ 3966, and the key scale (2/7)^{−p/512} ≤ float16's largest 65504 iff p ≤ 4532 (centred positions "
        "double the span). bfloat16/float32 have p ≈ 35694 (mirror).",
        mirror={"kind": "xpos_range"},
    ),
    Claim(
        id="PI-INTERPOLATION-BOUND",
        title="Positional Interpolation's Theorem 2.1 interpolation bound",
        topic="scaling",
        latex=r"|a(s) - a_{\text{linear}}(s)| \le d\,(\max_j|h_j|)\,\frac{(s-s_1)(s_2-s)}{8\ln c}",
        statement=Claimed("PI Theorem 2.1 for every even d, c > 1, s₁ < s₂, s ∈ [s₁, s₂], complex h"),
        assumptions=("every even d = 2n ≥ 2, c > 1, real s₁ < s₂, s ∈ [s₁, s₂], h_j ∈ ℂ; θ_j = c^(−2j/d)",),
        sources=(
            quote(
                CHEN_2023,
                "For attention score a(s) = Re[Σ_{j=0}^{d/2−1} h_j e^{isθ_j}], where θ_j = c^{−2j/d}, its "
                "interpolation value a(s) for s ∈ [s₁, s₂] is bounded as follows: |a(s) − a_linear(s)| ≤ d "
                "(max_j |h_j|) (s − s₁)(s₂ − s)/(8 ln c)",
            ),
        ),
        interpretation="Read as: for every even d, c > 1, real s₁ < s₂, s ∈ [s₁, s₂] and complex h_j (h_j = "
        "hr_j + i·hi_j, a(s) = Σ hr_j cos(sθ_j) − hi_j sin(sθ_j)). Refuted: at d = 2, c = 10⁴, h₀ = 1, s₁ = 0, s₂ = 1, "
        "s = 1/2 the error cos(1/2) − (1 + cos 1)/2 ≈ 0.107 exceeds the bound 1/(16 ln 10⁴) ≈ 0.0068 (the proof's "
        "Σθ_j² ≤ d/(4 ln c) drops the j = 0 term θ₀² = 1). It fails at the paper's d = 128 too (s₂ − s₁ = 1: error "
        "≈ 0.459 > 0.434; mirror).",
        correction=Correction(
            latex=r"|a(s) - a_{\text{linear}}(s)| \le (\max_j|h_j|)\,\frac{\sum_j \theta_j^2}{2}\,(s-s_1)(s_2-s)"
            r" \le (\max_j|h_j|)\Big(\frac{d}{8\ln c} + \frac12\Big)(s-s_1)(s_2-s)",
            statement=Claimed("the bound holds with Σθ_j²/2 in place of d/(8 ln c), and so with d/(8 ln c) + 1/2"),
            explanation="Proved for every even d, c > 1, s₁ < s₂, s ∈ [s₁, s₂] and complex h (Interpolation.v): a "
            "first-order Taylor expansion with a second-derivative remainder (Coquelicot's MVT) at both ends "
            "gives |a − a_linear| ≤ (max|a″|/2)(s − s₁)(s₂ − s), and |a″| ≤ max_j|h_j|·Σθ_j²; then Σθ_j² ≤ "
            "1 + d/(4 ln c) (geometric sum, 1 + x ≤ eˣ). The constant Σθ_j²/2 is the curvature of a single "
            "cosine at its peak, so it cannot be lowered as s₂ − s₁ → 0 (not kernel-checked). At d = 128, "
            "c = 10⁴, s₂ − s₁ = 1 the midpoint error ≈ 0.459 is below Σθ_j²/8 ≈ 0.50.",
        ),
        mirror={"kind": "pi"},
    ),
    Claim(
        id="PI-B-EXCEEDS-D",
        title="Positional Interpolation's B(s) is larger than d at every position of its plot",
        topic="scaling",
        latex=r"B(s) = \sum_{k=0}^{d/2-1}|A_{k+1}(s)| > d,\ A_k(s) = \sum_{j<k} e^{is\theta_j}\ "
        r"(d = 128,\ c = 10^4,\ s \in \{0, \dots, 4095\})",
        statement=Claimed("B(s) > d for every integer s in [0, 4096) at d = 128, c = 10⁴"),
        assumptions=(
            "d = 128, c = 10⁴, θ_j = c^(−2j/d), integer s ∈ [0, 4096): the paper's plot (App. C.2)",
            "B(s) = Σ_{k<d/2}|A_{k+1}(s)|, A_k(s) = Σ_{j<k} e^{isθ_j} (§2.3); strict >",
        ),
        sources=(quote(CHEN_2023, _B_EXCEEDS_D),),
        interpretation="PI bounds the extrapolated score by |a(s)| ≤ 2(max_j|h_j|)·B(s) (Eq. 8) and says B(s) is "
        "'at least larger than d'. Read at the sizes of its plot (App. C.2: d = 128, c = 10⁴, integer s ∈ [0, "
        "4096)) as B(s) > 128 at every such s. Proved (theorem pi_b_exceeds_d, InterpolationSizes.v): min B ≈ "
        "142.84 at s = 3643. B is 64 times RoFormer's relative bound, so Decay128Trend.v's checker decides it: "
        "s = 256a + r is reached from the anchors e^{i·256θ_k} (enclosed by interval, Decay128Anchors.v) by a "
        "rotations by the anchors and r by the unit phases on 63-bit machine integers, at most 270 rotations per "
        "point (4095 rotations from 1 would cost a slack of ≈ 24, above the margin 14.8), checked by one "
        "vm_compute that certifies B(s) > 141 (it refuses 143). Real s between the integers is not decided.",
        mirror={"kind": "pi-b"},
    ),
    Claim(
        id="PI-EXTRAPOLATION-RATIO",
        title="PI's interpolation bound is not 2·294.73 ≈ 600× below the extrapolation bound; > 564× holds",
        topic="scaling",
        latex=r"\frac{2\max|h|\,B(s)}{\max|h|\,\sum_j\theta_j^2/8} \ge 2\cdot 294.73\quad "
        r"(d = 128,\ c = 10^4,\ s \in \{0, \dots, 4095\})",
        statement=Claimed("the extrapolation bound is at least 2·294.73 times the interpolation bound at every s"),
        assumptions=(
            "d = 128, c = 10⁴, integer s ∈ [0, 4096) (PI-B-EXCEEDS-D's range); consecutive integers s₁, s₂",
            "extrapolation bound 2(max|h|)·B(s) (Eq. 8); interpolation bound: the one that holds, "
            "(max|h|)·(Σθ_j²/2)·(s − s₁)(s₂ − s) ≤ (max|h|)·Σθ_j²/8 (PI-INTERPOLATION-BOUND's correction)",
        ),
        sources=(quote(CHEN_2023, _B_EXCEEDS_D),),
        interpretation="PI compares the extrapolation bound 2(max|h|)B(s) with its interpolation bound "
        "d(max|h|)/(32 ln c) ≈ d(max|h|)/294.73 (Eq. 7) and concludes from B(s) > d that the ratio is at least "
        "2·294.73 ≈ 600. That constant is refuted (PI-INTERPOLATION-BOUND: the valid bound is (max|h|)·Σθ_j²/8 on "
        "consecutive integers), so the ratio is read against the valid bound: 16B(s)/Σθ_j² ≥ 589.46 at every "
        "integer s < 4096. Refuted (pi_extrapolation_ratio_negation, InterpolationSizes.v): at s = 3643 the ratio "
        "is ≈ 571.6 (B ≤ 146 from the checker's upper bound, Σθ_j² ≥ 3.998 by interval).",
        literal="PI's own arithmetic, with its (refuted) constant d/(32 ln c): 2·294.73·d/(32 ln c) < 2B(s) at "
        "every integer s < 4096 — proved (pi_extrapolation_ratio_literal), since 294.73 < 32 ln 10⁴ and B(s) > d; "
        "the conclusion rests on a constant that does not bound the interpolation error.",
        correction=Correction(
            latex=r"\frac{16\,B(s)}{\sum_j\theta_j^2} > 564\quad (s \in \{0, \dots, 4095\})",
            statement=Claimed("the ratio exceeds 564 at every integer s < 4096"),
            explanation="Proved (pi_extrapolation_ratio_correction): the checker certifies B(s) > 141 and interval "
            "Σθ_j² ≤ 4, so 564·Σθ_j²/8 < 2B(s). B > d alone gives only 512; the least ratio is ≈ 571.6 at s = 3643.",
        ),
        mirror={"kind": "pi-b"},
    ),
    Claim(
        id="LONGROPE-START-TOKEN",
        title="LongRoPE's start-token rule (n̂ > 0) makes the score depend on absolute positions across n̂",
        topic="scaling",
        latex=r"\phi(p) = I(p)\,p\,\theta,\ I(p) = 1\ (p < \hat n),\ 1/\lambda\ (p \ge \hat n):\ "
        r"\phi(n+k) - \phi(m+k) = \phi(n) - \phi(m)",
        statement=Claimed("with n̂ > 0 the angle difference of a pair depends on n − m only"),
        assumptions=("λ > 1 (a rescaled pair), θ > 0, n̂ > 0, real positions 0 ≤ m ≤ n, shifts k ≥ 0",),
        sources=(quote(DING_2024, "I = 1 if n < n̂, 1/λ_i if n ≥ n̂"),),
        interpretation="LongRoPE §3.2 rotates pair i at position n by I(λ̂ᵢ, n̂)·n·θᵢ with I = 1 below n̂ (the "
        "authors' start_token_idx keeps unscaled rows for the first n̂ positions) and 1/λᵢ from n̂ on. Read as: "
        "the score is relative, i.e. every pair's angle difference is unchanged by a common shift. Refuted "
        "(λ = 2, θ = 1, n̂ = 2: positions (2, 1) give 0, shifted (3, 2) give 1/2).",
        correction=Correction(
            latex=r"m, n \ge \hat n: \tfrac{(n-m)\theta}{\lambda};\ m, n < \hat n: (n-m)\theta;\ "
            r"m < \hat n \le n: \tfrac{(n-m)\theta}{\lambda} + m\theta(\tfrac1\lambda - 1)",
            statement=Claimed("relative on each side of n̂; across n̂ the difference carries m θ (1/λ − 1)"),
            explanation="Proved for every λ > 0, θ, n̂: positions on the same side of n̂ give a relative angle; a "
            "key before n̂ and a query from n̂ on differ from the relative value by mθ(1/λ − 1), which depends on "
            "the key's absolute position unless λ = 1. HF, vLLM, SGLang and llama.cpp apply the per-pair factors "
            "at every position (n̂ = 0): relative throughout.",
        ),
    ),
    Claim(
        id="QWEN-DYNAMIC-NTK",
        title="Qwen-1's dynamic NTK α = max(2^⌈log₂(l′/L)+1⌉ − 1, 1) is not the dynamic rule's s = max(1, l′/L)",
        topic="scaling",
        latex=r"\forall x > 0:\ \max(2^{\lceil \log_2 x + 1\rceil} - 1, 1) = \max(1, x)",
        statement=Claimed("Qwen-1's ntk_alpha equals YaRN's dynamic s = max(1, l′/L) at every length"),
        assumptions=("x = l′/L > 0 the length ratio (kv_seq_len / seq_length); exact real log₂ and ceiling",),
        sources=(
            quote(PENG_2024, _DYNAMIC),
            quote(
                QWEN1_CODE,
                "context_value = math.log(true_seq_len / self.seq_length, 2) + 1; "
                "ntk_alpha = 2 ** math.ceil(context_value) - 1; ntk_alpha = max(ntk_alpha, 1)",
            ),
        ),
        interpretation="Qwen-1 calls its rule dynamic NTK (use_dynamic_ntk) and puts α into the NTK base "
        "b·α^{d/(d−2)}, as the dynamic rule of YaRN §3.3 does with s = max(1, l′/L). Read as: the two α agree "
        "at every length. Refuted at l′ = 2L (Qwen 3, the paper 2).",
        correction=Correction(
            latex=r"x \le 1: \alpha_Q = 1;\ x > 1: 2x - 1 \le \alpha_Q(x) < 4x - 1,\ \alpha_Q(x) > \max(1, x)",
            statement=Claimed("equal (1) up to L; beyond L Qwen's α lies in [2x − 1, 4x − 1), always above x"),
            explanation="Proved for every x > 0: within the trained length both are 1; beyond it Qwen rounds the "
            "ratio up to a power of two and doubles it (2^⌈log₂x⌉+1 − 1), so its α exceeds the paper's s at every "
            "length beyond L — between 2x − 1 and 4x − 1. It is a step function of the length, not HF's "
            "f·x − (f − 1) either (YARN-DYNAMIC-RULE).",
        ),
        mirror={"kind": "dynamic"},
    ),
    Claim(
        id="NOPE-POSITION-READOUT",
        title="NoPE: a causal layer with equal scores and a first-token value reads 1/(t+1), one value per position",
        topic="attention",
        latex=r"e \equiv c,\ v_0 = 1,\ v_{j\ge1} = 0:\ \sum_{j\le t}\frac{e^{c}}{\sum_{k\le t}e^{c}}v_j = "
        r"\frac{1}{t+1},\ t \mapsto \tfrac1{t+1} \text{ injective}",
        statement=Claimed("equal scores and a first-token indicator value give 1/(t+1) at token t, distinct per t"),
        assumptions=(
            "tokens 0 … t (0-based; the paper's positions 1 … T+1), causal softmax over j ≤ t, any constant score c",
            "exact real arithmetic (the bf16/fp16 reading is numeric: the mirror)",
        ),
        sources=(
            quote(
                KAZEMNEJAD_2023,
                "the first layer of f_θ can recover absolute positions [1, …, T+1] in the hidden state H^{(1)}",
            ),
        ),
        interpretation="Theorem 1's construction (App. C, as the brief describes it; its text was not in the "
        "stored copies): the first layer attends uniformly (all scores equal, e.g. W_Q = 0) and the value "
        "carries a 1 only on the first ([BOS]) token, so token t receives 1/(t+1) and an MLP can invert it. "
        "Proved for every t and every constant score: the read-out is exactly 1/(t+1), and distinct tokens get "
        "distinct read-outs. Rounded to bfloat16 the read-outs of tokens 189 and 190 coincide (float16: 1463 and "
        "1464; mirror): the position is "
        "recoverable exactly only in exact arithmetic.",
        mirror={"kind": "nope"},
    ),
    Claim(
        id="MEN-TABLE2-D128",
        title="Men et al.'s Table 2 at d = 128: the 16k and 32k bases let B_{m,θ} go negative before the length",
        topic="scaling",
        latex=r"B_{m,\theta} = \sum_{i<64}\cos(m\,b^{-i/64}) \ge 0\ \ \forall m \in [0, 16000],\ b = 3.1\cdot10^5",
        statement=Claimed("with Table 2's 16k base 3.1·10⁵ and d = 128, B_{m,θ} ≥ 0 on [0, 16000]"),
        assumptions=(
            "d = 128 (Table 2's d is not stated in the text read; 128 is Llama 2's head dimension), real m",
            "16k = 16000 (with 16384 the claim is only stronger); B_{m,θ} = ½·all_ones_score",
        ),
        sources=(
            quote(
                MEN_2024,
                "there is an absolute lower bound for the base value to obtain certain context length capability",
            ),
            quote(MEN_2024, "16k 3.1e5 · 32k 6.4e5 (Table 2); L_θ = sup{L : B_{m,θ} ≥ 0 ∀ m ∈ [0, L]} (Eq. 10)"),
        ),
        interpretation="Read as: Table 2's base for a length L keeps Men et al.'s criterion B_{m,θ} = Σᵢcos(mθᵢ) "
        "≥ 0 on all of [0, L] (Eq. 10), at d = 128. Refuted for the 16k entry: B(12223) < 0 with b = 3.1·10⁵ "
        "(≈ −0.32). Numerically (mirror, not kernel-checked) the 1k, 2k and 8k entries hold at d = 128 and the 4k "
        "entry holds up to 4078 (so for 4k = 4000 but not 4096). The 16k and 32k entries first reach B = 0 at "
        "real m ≈ 12222.627 and ≈ 22465.547, which the correction pins in the kernel to one hundredth. At integer "
        "m the 32k entry fails only at 27685 (B ≈ −0.73; every integer below keeps B ≥ 0.058): its dip below zero "
        "on (22465.55, 22465.89), depth −0.035, falls between two integers.",
        correction=Correction(
            latex=r"B_m(3.1\cdot10^5) \ge 0\ \forall m \in [0, 12222.62],\ "
            r"B_m(6.4\cdot10^5) \ge 0\ \forall m \in [0, 22465.54];\ "
            r"B_{12222.63}(3.1\cdot10^5) < 0,\ B_{22465.55}(6.4\cdot10^5) < 0;\ "
            r"B_{12223}(3.1\cdot10^5) < 0,\ B_{27685}(6.4\cdot10^5) < 0\ (d = 128)",
            statement=Claimed(
                "at d = 128, real m: the 16k base keeps B ≥ 0 on all of [0, 12222.62] and turns it negative by "
                "m = 12222.63, so its L_θ lies in [12222.62, 12222.63); the 32k base keeps B ≥ 0 on all of "
                "[0, 22465.54] and turns it negative by m = 22465.55, so its L_θ lies in [22465.54, 22465.55); "
                "integer m: by 12223 and 27685"
            ),
            explanation="Proved two-sided for both entries under Eq. 10 (real m) at d = 128: B ≥ 0 for every real "
            "m ∈ [0, 12222.62] with the 16k base and m ∈ [0, 22465.54] with the 32k base (MenTable2Lower.v, one "
            "argument for both: the 64 unit phases enclosed by interval, every e^{imθ_k}, m ≤ 12222 or 22465, "
            "formed by rounded rotations in 63-bit machine integers with a proved error bound and checked by one "
            "vm_compute, a chord lemma between integers, and interval at 12222.62 and 22465.54), and B < 0 at "
            "12222.63 and 22465.55 (interval), so L_θ ∈ [12222.62, 12222.63) and [22465.54, 22465.55) (mpmath: "
            "the first zeros are 12222.6266… and 22465.5468…). Read at integer m only, B(12223) < 0 and "
            "B(27685) < 0.",
        ),
        mirror={"kind": "men"},
    ),
]
