(** * DefsCache: the definitions Cache.v states its claims with (definition-only, reviewed:
    see docs/trusted.md).  Nothing here is proved; the proofs are in Cache.v. *)

From Coq Require Import Reals Lia Lra List.
From Ropecheck Require Import Defs.
From Ropecheck Require DefsSinusoidal.  (* qualified only: APE-PREFIX-STALE-003 is stated with DefsSinusoidal.spe *)
Import ListNotations.
Open Scope R_scope.

(* The reals stored for one token: the dk key coordinates, then the dv value coordinates. *)
Definition kv_entry (dk dv : nat) (key value : vec) : list R :=
  map key (seq 0 dk) ++ map value (seq 0 dv).

(* Without positions in the keys: the key as projected. *)
Definition plain_entry (h dv : nat) (k v : vec) : list R := kv_entry (2 * h) dv k v.

(* With RoPE: the key rotated at the token's position n. *)
Definition rope_entry (theta : nat -> R) (h dv : nat) (n : R) (k v : vec) : list R :=
  kv_entry (2 * h) dv (rope theta h n k) v.

(* A decode step reads the key part of an entry against the (rotated) query. *)
Definition entry_score (h : nat) (query : vec) (entry : list R) : R :=
  sum (2 * h) (fun j => query j * nth j entry 0).
