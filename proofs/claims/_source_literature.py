"""The context-extension literature the scaling claims quote (`_claims_scaling`): papers by their arXiv pages and,
where a formula lives only in code, the reference implementation by its repository.

Quotes were taken from the stored copies named in `shared/research/literature-brief.md` (commits given there); each
claim's `interpretation` says which passage it decides and how.
"""

from __future__ import annotations

Record = tuple[tuple[str, str, str, str], dict[str, str]]
"""(key, title, kind, covers) and the optional fields (label, date, author, url) of a `SourceDocument`."""


def _record(key: str, title: str, kind: str, covers: str, **fields: str) -> Record:
    """A source record: `_source_documents` makes it a `SourceDocument` (no import back, no cycle)."""
    return (key, title, kind, covers), fields


CHEN_2023 = "chen-2023"
PENG_2024 = "peng-2024"
DEEPSEEK_V2 = "deepseek-v2-2024"
DEEPSEEK_V3 = "deepseek-v3-2024"
LLAMA3_CODE = "meta-llama-models-2024"
DING_2024 = "ding-2024"
PRESS_2022 = "press-2022"
ALIBI_CODE = "press-alibi-code-2022"
QWEN2VL_2024 = "wang-2024-qwen2vl"
T5_CODE = "mesh-tensorflow-t5"
LIU_2024 = "liu-2024"
XIONG_2024 = "xiong-2024"
XPOS_CODE = "torchscale-xpos"
HF_ROPE_CODE = "hf-transformers-rope-utils"
QWEN1_CODE = "qwen-1-modeling-code"
KAZEMNEJAD_2023 = "kazemnejad-2023"
MEN_2024 = "men-2024"

LITERATURE_RECORDS: tuple[Record, ...] = (
    _record(
        CHEN_2023,
        "Extending Context Window of Large Language Models via Positional Interpolation",
        "paper (arXiv:2306.15595 v2; Theorem 2.1 is §2.3, Eq. 5)",
        "positional interpolation; its interpolation bound",
        label="Chen et al. 2023",
        date="2023",
        author="Shouyuan Chen, Sherman Wong, Liangjian Chen, Yuandong Tian",
        url="https://arxiv.org/abs/2306.15595",
    ),
    _record(
        PENG_2024,
        "YaRN: Efficient Context Window Extension of Large Language Models",
        "paper (ICLR 2024, arXiv:2309.00071; NTK-aware Def. 1 Eqs. 14-16, NTK-by-parts Eqs. 17-20, §3.3-3.4)",
        "NTK-aware scaling, NTK-by-parts ramp, dynamic scaling, attention temperature",
        label="Peng et al. 2024",
        date="2024",
        author="Bowen Peng, Jeffrey Quesnelle, Honglu Fan, Enrico Shippole",
        url="https://arxiv.org/abs/2309.00071",
    ),
    _record(
        DEEPSEEK_V2,
        "DeepSeek-V2: A Strong, Economical, and Efficient Mixture-of-Experts Language Model",
        "paper (arXiv:2405.04434, §3.4)",
        "YaRN context extension of MLA",
        label="DeepSeek-V2 2024",
        date="2024",
        author="DeepSeek-AI",
        url="https://arxiv.org/abs/2405.04434",
    ),
    _record(
        DEEPSEEK_V3,
        "DeepSeek-V3 Technical Report",
        "paper (arXiv:2412.19437, §4.3)",
        "YaRN context extension of MLA",
        label="DeepSeek-V3 2024",
        date="2024-12",
        author="DeepSeek-AI",
        url="https://arxiv.org/abs/2412.19437",
    ),
    _record(
        LLAMA3_CODE,
        "meta-llama/llama-models: models/llama3/reference_impl/model.py, apply_scaling",
        "reference code (commit 1bb54864; the rule is not written in “The Llama 3 Herd of Models”, arXiv:2407.21783)",
        "Llama 3.1 / 3.2 frequency band scaling",
        label="Meta llama3 code 2024",
        date="2024-07",
        author="Meta",
        url="https://github.com/meta-llama/llama-models",
    ),
    _record(
        DING_2024,
        "LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens",
        "paper (ICML 2024, arXiv:2402.13753, §3.2, Table 4)",
        "non-uniform RoPE rescale factors; attention factor",
        label="Ding et al. 2024",
        date="2024",
        author="Yiran Ding, Li Lyna Zhang, Chengruidong Zhang, Yuanyuan Xu, Ning Shang, Jiahang Xu, Fan Yang, Mao Yang",
        url="https://arxiv.org/abs/2402.13753",
    ),
    _record(
        PRESS_2022,
        "Train Short, Test Long: Attention with Linear Biases Enables Input Length Extrapolation",
        "paper (ICLR 2022, arXiv:2108.12409, §3)",
        "ALiBi and its head slopes",
        label="Press et al. 2022",
        date="2022",
        author="Ofir Press, Noah A. Smith, Mike Lewis",
        url="https://arxiv.org/abs/2108.12409",
    ),
    _record(
        ALIBI_CODE,
        "ofirpress/attention_with_linear_biases: fairseq/models/transformer.py, get_slopes",
        "reference code (commit 3b7c2eca)",
        "ALiBi head slopes for any head count",
        label="ALiBi code 2022",
        date="2022",
        author="Ofir Press",
        url="https://github.com/ofirpress/attention_with_linear_biases",
    ),
    _record(
        QWEN2VL_2024,
        "Qwen2-VL: Enhancing Vision-Language Model's Perception of the World at Any Resolution",
        "paper (arXiv:2409.12191; M-RoPE as HF's apply_multimodal_rotary_pos_emb computes it)",
        "multimodal RoPE with temporal, height and width sections",
        label="Wang et al. 2024 (Qwen2-VL)",
        date="2024",
        author="Peng Wang, Shuai Bai, Sinan Tan, Shijie Wang, Zhihao Fan, Jinze Bai, Keqin Chen, Xuejing Liu, "
        "Jialin Wang, Wenbin Ge, Yang Fan, Kai Dang, Mengfei Du, Xuancheng Ren, Rui Men, Dayiheng Liu, Chang Zhou, "
        "Jingren Zhou, Junyang Lin",
        url="https://arxiv.org/abs/2409.12191",
    ),
    _record(
        T5_CODE,
        "tensorflow/mesh: mesh_tensorflow/transformer/transformer_layers.py, _relative_position_bucket",
        "reference code of T5 (Raffel et al., JMLR 2020, arXiv:1910.10683, §2.1)",
        "T5 relative position buckets",
        label="T5 buckets code",
        date="2020",
        author="Colin Raffel et al. (Google)",
        url="https://github.com/tensorflow/mesh",
    ),
    _record(
        LIU_2024,
        "Scaling Laws of RoPE-based Extrapolation",
        "paper (ICLR 2024, arXiv:2310.05209)",
        "critical dimension for extrapolation",
        label="Liu et al. 2024",
        date="2024",
        author="Xiaoran Liu, Hang Yan, Shuo Zhang, Chenxin An, Xipeng Qiu, Dahua Lin",
        url="https://arxiv.org/abs/2310.05209",
    ),
    _record(
        XIONG_2024,
        "Effective Long-Context Scaling of Foundation Models",
        "paper (NAACL 2024, arXiv:2309.16039, §4.1, footnote 3, Fig. 4)",
        "a larger RoPE base for long context",
        label="Xiong et al. 2024",
        date="2024",
        author="Wenhan Xiong, Jingyu Liu, Igor Molybog, Hejia Zhang, Prajjwal Bhargava, Rui Hou, Louis Martin, "
        "Rashi Rungta, Karthik Abinav Sankararaman, Barlas Oguz, Madian Khabsa, Han Fang, Yashar Mehdad, "
        "Sharan Narang, Kshitiz Malik, Angela Fan, Shruti Bhosale, Sergey Edunov, Mike Lewis, Sinong Wang, Hao Ma",
        url="https://arxiv.org/abs/2309.16039",
    ),
    _record(
        XPOS_CODE,
        "microsoft/torchscale: torchscale/component/xpos_relative_position.py",
        "reference code of xPos (Sun et al., “A Length-Extrapolatable Transformer”, ACL 2023, arXiv:2212.10554); "
        "commit 776b070d",
        "xPos decay scales",
        label="xPos code (torchscale)",
        date="2023",
        author="Yutao Sun, Li Dong et al. (Microsoft)",
        url="https://github.com/microsoft/torchscale",
    ),
    _record(
        HF_ROPE_CODE,
        "huggingface/transformers: modeling_rope_utils.py (_compute_yarn_parameters, _compute_dynamic_ntk_parameters)",
        "reference code (commit 0044e3b3 and 5.23.0)",
        "the rope_scaling rules engines apply",
        label="HF rope utils",
        date="2025",
        author="Hugging Face",
        url="https://github.com/huggingface/transformers",
    ),
    _record(
        QWEN1_CODE,
        "Qwen/Qwen-7B: modeling_qwen.py, get_ntk_alpha (dynamic NTK, use_dynamic_ntk)",
        "reference code of Qwen-1 (Bai et al., “Qwen Technical Report”, arXiv:2309.16609)",
        "the dynamic NTK alpha Qwen-1 applies beyond seq_length",
        label="Qwen-1 code 2023",
        date="2023",
        author="Qwen team (Alibaba)",
        url="https://huggingface.co/Qwen/Qwen-7B",
    ),
    _record(
        KAZEMNEJAD_2023,
        "The Impact of Positional Encoding on Length Generalization in Transformers",
        "paper (NeurIPS 2023, arXiv:2305.19466, §5.1 Theorem 1; construction in App. C)",
        "NoPE: a causal decoder without positional encoding recovers absolute positions",
        label="Kazemnejad et al. 2023",
        date="2023",
        author="Amirhossein Kazemnejad, Inkit Padhi, Karthikeyan Natesan Ramamurthy, Payel Das, Siva Reddy",
        url="https://arxiv.org/abs/2305.19466",
    ),
    _record(
        MEN_2024,
        "Base of RoPE Bounds Context Length",
        "paper (NeurIPS 2024, arXiv:2405.14591; Eqs. 10-11, Table 2)",
        "the lower bound of the RoPE base for a context length",
        label="Men et al. 2024",
        date="2024",
        author="Xin Men, Mingyu Xu, Bingning Wang, Qingyu Zhang, Hongyu Lin, Xianpei Han, Weipeng Chen",
        url="https://arxiv.org/abs/2405.14591",
    ),
)
