(* Rope.v: the RoPE claims of proofs/_claims_rope.py (in progress; owned by coq-rope). *)
From Ropecheck Require Import Defs.
