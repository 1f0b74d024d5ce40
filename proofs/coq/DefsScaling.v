(** * DefsScaling: the definitions the context-extension literature's claims are stated with
    (definition-only, reviewed: see docs/trusted.md).  Nothing here is proved; the proofs are in
    Scaling.v (every size) and ScalingSizes.v (decided at the published sizes with `interval`).
    Frequencies are Defs.v's `rope_frequency b (2 * n) i = b^(-2i/d)`, d = 2n, i = 0 .. n - 1. *)

From Coq Require Import ZArith Reals Lra Lia List.
From Flocq Require Import Raux.
From Ropecheck Require Import Defs.
Import ListNotations.
Local Open Scope R_scope.

(* Finite sums peeled from the top, so that a sum at a published size unfolds into its terms. *)
Fixpoint rsum (n : nat) (f : nat -> R) : R :=
  match n with
  | O => 0
  | S k => rsum k f + f k
  end.

(* The wavelength 2 pi / theta of a pair rotating at frequency theta. *)
Definition wavelength (theta : R) : R := 2 * PI / theta.

(** ** NTK-aware scaling (bloc97 2023; YaRN Def. 1, Eqs. 14-16) *)

(* b' = b s^(|D| / (|D| - 2)), |D| = d = 2n. *)
Definition ntk_base (b s : R) (n : nat) : R := b * Rpower s (INR (2 * n) / (INR (2 * n) - 2)).

(** ** YaRN (Peng et al. 2024) *)

(* Eq. 18: the ramp over r = L / lambda. *)
Definition ramp_gamma (alpha beta r : R) : R :=
  if Rlt_dec r alpha then 0 else if Rlt_dec beta r then 1 else (r - alpha) / (beta - alpha).

(* Eq. 20: h(theta) = (1 - gamma) theta / s + gamma theta. *)
Definition by_parts (s theta g : R) : R := (1 - g) * theta / s + g * theta.

(* Eq. 17 with Eq. 13's base b: r = L / lambda_i. *)
Definition yarn_ratio (L b : R) (n i : nat) : R := L / wavelength (rope_frequency b (2 * n) i).

(* The paper's NTK-by-parts frequency of pair i. *)
Definition yarn_paper_frequency (s L b alpha beta : R) (n i : nat) : R :=
  by_parts s (rope_frequency b (2 * n) i) (ramp_gamma alpha beta (yarn_ratio L b n i)).

(* The implementations' correction dimension i_c(N) = d ln(L / (2 pi N)) / (2 ln b). *)
Definition correction_dim (L b : R) (n : nat) (N : R) : R :=
  INR (2 * n) * ln (L / (2 * PI * N)) / (2 * ln b).

(* lo = max(0, floor(i_c(beta_fast))), hi = min(d - 1, ceil(i_c(beta_slow))) (truncate = True). *)
Definition ramp_low (L b : R) (n : nat) (beta_fast : R) : Z := Z.max 0 (Zfloor (correction_dim L b n beta_fast)).
Definition ramp_high (L b : R) (n : nat) (beta_slow : R) : Z :=
  Z.min (Z.of_nat (2 * n) - 1) (Zceil (correction_dim L b n beta_slow)).

(* clamp((i - lo) / (hi - lo), 0, 1): linear in the pair index. *)
Definition code_ramp (lo hi : Z) (i : nat) : R := Rmax 0 (Rmin 1 ((INR i - IZR lo) / (IZR hi - IZR lo))).

(* theta' = (theta / s) ramp + theta (1 - ramp), as HF, vLLM, llama.cpp and the authors' code compute it. *)
Definition yarn_code_frequency (s L b beta_fast beta_slow : R) (n i : nat) : R :=
  let ramp := code_ramp (ramp_low L b n beta_fast) (ramp_high L b n beta_slow) i in
  rope_frequency b (2 * n) i / s * ramp + rope_frequency b (2 * n) i * (1 - ramp).

(* sqrt(1/t) = 0.1 ln s + 1 (Eq. 22). *)
Definition yarn_mscale (s : R) : R := 1 / 10 * ln s + 1.

(* RoPE whose cos and sin are multiplied by c (HF's attention_factor, YaRN's mscale), interleaved pairs. *)
Definition rope_scaled (c : R) (theta : nat -> R) (h : nat) (m : R) (x : vec) : vec :=
  fun j =>
    let i := Nat.div2 j in
    let a := m * theta i in
    if Nat.ltb i h then
      (if Nat.even j then fst else snd)
        (x (2 * i)%nat * (c * cos a) - x (S (2 * i)) * (c * sin a),
         x (2 * i)%nat * (c * sin a) + x (S (2 * i)) * (c * cos a))
    else 0.

(* Dynamic scaling's alpha in base' = b alpha^(d/(d-2)), x = l' / L the length ratio. *)
Definition dynamic_alpha_paper (x : R) : R := Rmax 1 x.
Definition dynamic_alpha_hf (f x : R) : R := f * x - (f - 1).
Definition dynamic_alpha_vllm (f : R) : R := f * f - f + 1.

(** ** DeepSeek-V2 / V3 (yarn_get_mscale and the MLA softmax scale) *)

(* g(s, mu) = 0.1 mu ln s + 1 for s > 1, else 1. *)
Definition deepseek_mscale (s mu : R) : R := if Rle_dec s 1 then 1 else 1 / 10 * mu * ln s + 1.

(* The MLA logit relative to 1/sqrt(d_qk): the rotated part's cos/sin carry g(s, ms)/g(s, msa), the
   softmax scale carries g(s, msa)^2; [rope_part], [nope_part] are the unscaled dot products. *)
Definition mla_logit (s ms msa rope_part nope_part : R) : R :=
  ((deepseek_mscale s ms / deepseek_mscale s msa) ^ 2 * rope_part + nope_part) * deepseek_mscale s msa ^ 2.

(** ** Llama 3 band scaling (Meta apply_scaling; HF _compute_llama3_parameters) *)

Definition llama3_frequency (s lf hf L0 theta : R) : R :=
  let l := wavelength theta in
  if Rlt_dec l (L0 / hf) then theta
  else if Rlt_dec (L0 / lf) l then theta / s
  else let k := (L0 / l - lf) / (hf - lf) in (1 - k) * theta / s + k * theta.

(* The same rule with closed bands (<= instead of <). *)
Definition llama3_frequency_closed (s lf hf L0 theta : R) : R :=
  let l := wavelength theta in
  if Rle_dec l (L0 / hf) then theta
  else if Rle_dec (L0 / lf) l then theta / s
  else let k := (L0 / l - lf) / (hf - lf) in (1 - k) * theta / s + k * theta.

(** ** LongRoPE attention factor *)

Definition longrope_attention_factor (s L0 : R) : R := sqrt (1 + ln s / ln L0).

(** ** ALiBi slopes (Press et al. 2022, Sec. 3; reference get_slopes) *)

(* The paper: 2^(-8h/n), h = 1 .. n. *)
Definition alibi_slopes (n : nat) : list R := map (fun h => Rpower 2 (- 8 * INR (S h) / INR n)) (seq 0 n).

(* Python's l[0::2]. *)
Fixpoint every_other (l : list R) : list R :=
  match l with
  | a :: _ :: t => a :: every_other t
  | [a] => [a]
  | [] => []
  end.

(* get_slopes(n): the paper's list for a power of 2; else get_slopes(p) + get_slopes(2p)[0::2][:n - p]. *)
Definition alibi_reference_slopes (n : nat) : list R :=
  let p := (2 ^ Nat.log2 n)%nat in
  if Nat.eqb p n then alibi_slopes n
  else alibi_slopes p ++ firstn (n - p) (every_other (alibi_slopes (2 * p))).

(** ** M-RoPE (Qwen2-VL): pair i rotated by the position id of its section *)

Definition mrope (theta : nat -> R) (h : nat) (pos : nat -> R) (section : nat -> nat) (x : vec) : vec :=
  fun j =>
    let i := Nat.div2 j in
    if Nat.ltb i h then
      (if Nat.even j then fst else snd) (rot (pos (section i) * theta i) (x (2 * i)%nat, x (S (2 * i))))
    else 0.

(** ** T5 relative position buckets (one side: after the sign is split off, num_buckets halved) *)

Definition t5_bucket (buckets max_distance n : Z) : Z :=
  let exact := (buckets / 2)%Z in
  if Z.ltb n exact then n
  else Z.min (buckets - 1)
         (exact + Zfloor (ln (IZR n / IZR exact) / ln (IZR max_distance / IZR exact) * IZR (buckets - exact))).

(** ** Liu et al. 2024: the critical dimension d_extra = 2 ceil((d/2) log_b(T / 2 pi)) *)

Definition critical_dimension (b T : R) (n : nat) : Z := (2 * Zceil (INR n * ln (T / (2 * PI)) / ln b))%Z.

(** ** Xiong et al. 2024: the score of all-ones q = k, 2 sum_i cos(r theta_i) (their Fig. 4) *)

Definition all_ones_score (b : R) (n : nat) (r : R) : R :=
  rsum n (fun i => 2 * cos (r * rope_frequency b (2 * n) i)).

(** ** xPos (Sun et al. 2023; torchscale): zeta_i = (2i + 0.4d) / (1.4d), q x zeta^(n/B), k x zeta^(-m/B) *)

Definition xpos_zeta (n i : nat) : R := (2 * INR i + 4 / 10 * INR (2 * n)) / (14 / 10 * INR (2 * n)).
Definition xpos_scale (zeta B position : R) : R := Rpower zeta (position / B).

(** ** Positional Interpolation (Chen et al. 2023), Sec. 2.3 *)

(* a(s) = Re[sum_j h_j e^{i s theta_j}], h_j = hr j + i hi j, theta_j = c^(-2j/d). *)
Definition pi_score (hr hi : nat -> R) (c : R) (n : nat) (s : R) : R :=
  rsum n (fun j => hr j * cos (s * rope_frequency c (2 * n) j) - hi j * sin (s * rope_frequency c (2 * n) j)).

Fixpoint max_modulus (hr hi : nat -> R) (n : nat) : R :=
  match n with
  | O => 0
  | S k => Rmax (max_modulus hr hi k) (sqrt (hr k ^ 2 + hi k ^ 2))
  end.

Definition linear_interpolation (f : R -> R) (s1 s2 s : R) : R :=
  let l := (s - s1) / (s2 - s1) in (1 - l) * f s1 + l * f s2.

(** ** LongRoPE's start-token rule (Ding et al. 2024, Sec. 3.2): positions below n_hat keep theta *)

(* The angle of a pair at position pos: factor 1 below n_hat, 1/lambda from n_hat on. *)
Definition longrope_angle (lambda theta nhat pos : R) : R :=
  (if Rlt_dec pos nhat then 1 else / lambda) * pos * theta.

(** ** Qwen-1's dynamic NTK alpha (modeling_qwen.py get_ntk_alpha), x = l' / L the length ratio *)

(* max(2^ceil(log2 x + 1) - 1, 1). *)
Definition qwen_ntk_alpha (x : R) : R := Rmax (Rpower 2 (IZR (Zceil (ln x / ln 2 + 1))) - 1) 1.

(** ** NoPE (Kazemnejad et al. 2023, Theorem 1): causal attention of token t over tokens 0 .. t *)

(* Scores e j of token t against token j (no positional encoding), values v j. *)
Definition causal_readout (e v : nat -> R) (t : nat) : R :=
  rsum (S t) (fun j => exp (e j) / rsum (S t) (fun k => exp (e k)) * v j).
