#!/usr/bin/env bash
# The main job on the bank example: installs the dependencies, builds
# tracespec, then runs
#   1. `tracespec run examples/bank`: the project's build command (javac
#      into examples/bank/target), its JUnit tests under the JVMTI probe
#      (observe), a contract per public method of bank.Account from the
#      built-in synthesizer, each checked against the bytecode (consistency)
#      and the observations (coverage), the contracts merged into
#      examples/bank/tracespec-out/specs/bank/Account.jml, run.json and the
#      report (report.html, report.md);
#   2. prints the merged contracts;
#   3. `tracespec check examples/bank`: the CI guard, re-validating the
#      stored contracts against a fresh build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
BUILD_DIR="${TRACESPEC_BUILD_DIR:-build}"
OUT=examples/bank/tracespec-out
# A fresh run: `run` would otherwise reuse the last one's observations and
# contracts.
rm -rf "$OUT" examples/bank/target

set -x
"$BUILD_DIR/cli/tracespec" run examples/bank
set +x
echo
echo "== the contracts, merged per class ($OUT/specs/bank/Account.jml)"
cat "$OUT/specs/bank/Account.jml"
echo
set -x
"$BUILD_DIR/cli/tracespec" check examples/bank
set +x
echo
echo "report: $OUT/report.html (and $OUT/report.md)"
