#!/usr/bin/env bash
# Re-check the compiled development with coqchk (Coq's independent checker) and judge every axiom it names.
#
# coqchk 8.16 prints its context summary on stderr, so stdout and stderr are read together. The script fails (exit 1)
# when coqchk rejects a .vo file, when any axiom is not listed in standard_axioms.txt (a project axiom or parameter,
# a Context/Hypothesis/Variable outside a section, an admitted lemma, a library axiom nobody reviewed: each is named),
# when a constant relies on a disabled kernel check ("unsafe: guard checking disabled for X", positivity, universe
# checking / type-in-type), or when coqchk's summary is missing (no answer is never "no axioms").
# Libraries are admitted (-norec checks only the project's modules). Per-theorem axioms — what decides a claim — are
# judged by ropecheck itself (proofs/kernel/_kernel_coqchk.py), from the same standard_axioms.txt. Run after the build:
#   cd proofs/coq && coq_makefile -f _CoqProject -o Makefile.coq && make -f Makefile.coq -j2 && ./check_assumptions.sh
# `ROPECHECK_COQCHK_ROOT=DIR` checks the compiled copy in DIR (its _CoqProject) with this folder's list.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "${ROPECHECK_COQCHK_ROOT:-$here}"
modules=()
for f in $(grep -E '\.v$' _CoqProject) $(ls Statements*.v 2>/dev/null); do
  modules+=(-norec "Ropecheck.${f%.v}")
done
out=$(coqchk -silent -o -R . Ropecheck "${modules[@]}" 2>&1)
status=$?
if [ $status -ne 0 ] || ! grep -q "CONTEXT SUMMARY" <<<"$out"; then
  echo "coqchk rejected the development (exit $status):"
  tail -n 5 <<<"$out"
  exit 1
fi
awk '
  FNR == NR {  # standard_axioms.txt: exact names and prefixes (ending in ".")
    if ($0 ~ /^[[:space:]]*(#|$)/ || $0 ~ /^\[/) next
    if ($1 ~ /\.$/) prefix[$1] = 1; else exact[$1] = 1
    next
  }
  /^\* / {
    section = ""
    if ($0 ~ /^\* Axioms:/) section = "axiom"
    else if ($0 ~ /type-in-type/) section = "universe checking disabled (type-in-type)"
    else if ($0 ~ /unsafe \(co\)fixpoints/) section = "guard checking disabled"
    else if ($0 ~ /positivity is assumed/) section = "positivity checking disabled"
    next
  }
  section != "" && NF && !/^    [^[:space:]]+[[:space:]]*$/ { section = ""; next }  # not a name: the section ends
  section != "" && NF {
    name = $1
    if (section != "axiom") { print "  unsafe: " section " for " name; bad++; next }
    total++
    ok = (name in exact)
    for (p in prefix) if (index(name, p) == 1) ok = 1
    if (!ok) { print "  NOT A STANDARD AXIOM: " name; bad++ }
  }
  END {
    printf "coqchk accepted the project modules; %d axioms in the environment, %d not standard or unsafe\n", total, bad
    exit bad > 0
  }' "$here/standard_axioms.txt" - <<<"$out"
