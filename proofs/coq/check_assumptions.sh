#!/usr/bin/env bash
# Re-check the compiled development with coqchk (Coq's independent checker) and list every axiom by its fully
# qualified name. Fails if coqchk rejects a .vo file, or if any axiom is not a library name: a project axiom,
# parameter, hypothesis/variable outside a section or admitted lemma is named Ropecheck.… and fails. Libraries
# (Coq's stdlib, mathcomp, Interval, Coquelicot, Flocq) are admitted (-norec checks only the project's modules);
# their internal names that coqchk lists (module-type fields, primitive-float specifications) are shown.
# Per-theorem axioms — what decides a claim — are judged by ropecheck itself (proofs/kernel/_kernel_coqchk.py: only
# Coq's standard axioms and the primitive Floats/Int63 specifications pass). Run after the build:
#   cd proofs/coq && coq_makefile -f _CoqProject -o Makefile.coq && make -f Makefile.coq -j2 && ./check_assumptions.sh
set -euo pipefail
cd "$(dirname "$0")"
modules=()
for f in $(grep -E '\.v$' _CoqProject); do
  modules+=(-norec "Ropecheck.${f%.v}")
done
out=$(coqchk -silent -o -R . Ropecheck "${modules[@]}")
echo "$out" | awk '
  /^\* Axioms:/ { inside = 1; next }
  inside && /^\*/ { inside = 0 }
  inside && NF {
    ax = $1; total++
    if (ax ~ /^(Coq|mathcomp|Interval|Coquelicot|Flocq|Bignums)\./) { lib++ ; next }
    print "  NOT A LIBRARY AXIOM: " ax; bad++
  }
  END {
    printf "coqchk accepted the project modules; %d axioms in the environment, %d library names\n", total, lib
    exit bad > 0
  }'
