#!/usr/bin/env bash
# The main job on the bank example: installs the dependencies, builds
# tracespec, then runs the whole pipeline on examples/bank —
#   1. `tracespec observe`: the JUnit tests under the JVMTI probe;
#   2. `tracespec infer --builtin` for bank.Account#deposit and #withdraw:
#      the built-in synthesizer proposes contracts from the observations, the
#      validator checks each against the bytecode (consistency) and the
#      observations (coverage), counterexamples go back, at most 3 rounds;
#   3. prints the inferred contracts and each round's validation lines, as
#      the run directory records them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
BUILD_DIR="${TRACESPEC_BUILD_DIR:-build}"
OBSERVED="$BUILD_DIR/demo/bank"
INFERRED="$BUILD_DIR/demo/bank-infer"
# A fresh run directory: `infer` would otherwise continue the last run.
rm -rf "$INFERRED"

set -x
"$BUILD_DIR/cli/tracespec" observe \
  --classpath "$BUILD_DIR/examples/bank/classes:$BUILD_DIR/examples/bank/test-classes" \
  --tests bank.AccountTest \
  --method 'bank.Account#deposit' --method 'bank.Account#withdraw' \
  --tests-src examples/bank/test \
  --out "$OBSERVED"
"$BUILD_DIR/cli/tracespec" infer --builtin \
  --classpath "$BUILD_DIR/examples/bank/classes" \
  --method 'bank.Account#deposit' --method 'bank.Account#withdraw' \
  --observations "$OBSERVED" --tests-src examples/bank/test \
  --out "$INFERRED"
set +x

for method in 'bank.Account#deposit' 'bank.Account#withdraw'; do
  echo
  echo "== $method: the inferred contract ($INFERRED/$method/Account.jml)"
  cat "$INFERRED/$method/Account.jml"
  for report in "$INFERRED/$method"/round-*/report.txt; do
    echo "-- validation of $(basename "$(dirname "$report")") ($report):"
    grep -E '^(consistency|coverage|result):' "$report" | head -3
  done
done
