(** * DefsBinary: the definitions Binary.v states its claims with (definition-only, reviewed:
    see docs/trusted.md).  Nothing here is proved; the proofs are in Binary.v. *)

From Coq Require Import ZArith Reals Lia Lra List Bool.
From Ropecheck Require Import Defs.
Import ListNotations.
Local Open Scope nat_scope.

(* The number of bits among the lowest [width] that differ between p and q. *)
Definition flipped_bits (width p q : nat) : nat :=
  length (filter (fun i => xorb (Nat.testbit p i) (Nat.testbit q i)) (seq 0 width)).

(* The table PE_{p,0:8} of seed 004 for p = 0 .. 11, digits as printed. *)
Definition table_004_rows : list (list nat) :=
  ([[0;0;0;0;0;0;0;0]; [0;0;0;0;0;0;0;1]; [0;0;0;0;0;0;1;0]; [0;0;0;0;0;0;1;1];
   [0;0;0;0;0;1;0;0]; [0;0;0;0;0;1;0;1]; [0;0;0;0;0;1;1;0]; [0;0;0;0;0;1;1;1];
   [0;0;0;0;1;0;0;0]; [0;0;0;0;1;0;0;1]; [0;0;0;0;1;0;1;0]; [0;0;0;0;1;0;1;1]])%nat.

(* Position p in 8 bits, most significant digit first, as the table prints it. *)
Definition eight_bits (p : nat) : list nat := map (fun i => Nat.b2n (Nat.testbit p (7 - i))) (seq 0 8).

(* How often bit i changes between consecutive positions 0 .. N. *)
Definition bit_changes (i N : nat) : nat :=
  length (filter (fun p => xorb (Nat.testbit p i) (Nat.testbit (S p) i)) (seq 0 N)).
