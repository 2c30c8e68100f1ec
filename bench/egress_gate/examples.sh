#!/usr/bin/env bash
# The egress gate on the examples' real requests: runs `tracespec run` on a
# copy of each example (built-in synthesizer, for the observations), then
# `tracespec infer --llm ... --dry-run --impl-src src` for every target
# method, with and without --anonymize (nothing is sent: the endpoint is a
# closed port), and re-checks every request body written with
# bench_egress_gate --requests. Prints one table per example and variant.
# The clean examples must come out with 0 blocked.
#
#   bench/egress_gate/examples.sh [BUILD_DIR]      (default: build)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
tracespec="$build/cli/tracespec"
bench="$build/bench/egress_gate/bench_egress_gate"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export TRACESPEC_AUDIT_KEY="$work/audit-key.pem"

for example in bank loan; do
  cp -r "$root/examples/$example" "$work/$example"
  "$tracespec" run "$work/$example" --out "$work/$example/out" > "$work/$example.run.log" 2>&1
  mapfile -t methods < <(python3 -c '
import json, sys
for m in json.load(open(sys.argv[1]))["methods"]:
    print(m["method"])' "$work/$example/out/run.json")
  args=()
  for m in "${methods[@]}"; do args+=(--method "$m"); done
  for variant in plain anonymize; do
    flags=()
    [[ $variant == anonymize ]] && flags+=(--anonymize)
    out="$work/$example/dry-$variant"
    start=$(date +%s.%N)
    (cd "$work/$example" && "$tracespec" infer --classpath target/classes "${args[@]}" \
        --observations out/observations --tests-src test --impl-src src \
        --llm http://127.0.0.1:9/v1 --model bench --dry-run \
        --egress-policy "$root/policies/egress.textproto" --out "$out" "${flags[@]}" \
        > "$work/$example.$variant.log" 2>&1) || true
    elapsed=$(echo "$(date +%s.%N) - $start" | bc)
    echo
    echo "== examples/$example, $variant: ${#methods[@]} methods, infer --dry-run took ${elapsed%??????} s"
    echo "audit verdicts: $(grep -o '"verdict":"[A-Z_]*"' "$out/audit.jsonl" | sort | uniq -c | tr -s ' ' | paste -sd, -)"
    mapfile -t bodies < <(find "$out" -path '*/dry-run/*.json' | LC_ALL=C sort)
    "$bench" --requests "$root/policies/egress.textproto" "$work/$example/src" "${bodies[@]}"
  done
done
