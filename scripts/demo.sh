#!/usr/bin/env bash
# The main job on the bank example: installs the dependencies, builds
# tracespec, runs `tracespec observe` on examples/bank (the JUnit tests under
# the JVMTI probe) and shows what one recorded call of deposit looks like.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
BUILD_DIR="${TRACESPEC_BUILD_DIR:-build}"
OUT="$BUILD_DIR/demo/bank"

set -x
"$BUILD_DIR/cli/tracespec" observe \
  --classpath "$BUILD_DIR/examples/bank/classes:$BUILD_DIR/examples/bank/test-classes" \
  --tests bank.AccountTest \
  --method 'bank.Account#deposit' --method 'bank.Account#withdraw' \
  --tests-src examples/bank/test \
  --out "$OUT"
set +x

echo
echo "One recorded call of deposit (from $OUT/observations.jsonl):"
python3 - "$OUT/observations.jsonl" <<'PY'
import json, sys

def show(value):
    kind, v = next(iter(value.items()))
    return kind if kind in ("redacted", "null_value") else (f"#{v}" if kind == "ref" else json.dumps(v))

for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["method"]["name"] != "deposit" or "thrown" in o["outcome"]:
        continue
    names = o["method"].get("param_names", [])
    args = ", ".join(f"{n}={show(a)}" for n, a in zip(names, o["args"]))
    print(f"  test {o['test_id']}: deposit({args})")
    before = {s["id"]: s for s in o["pre"]}
    for after in o["post"]:
        old = {f["name"]: f["value"] for f in before.get(after["id"], {}).get("fields", [])}
        for f in after.get("fields", []):
            print(f"    #{after['id']} {after['class_name']}.{f['name']}: "
                  f"{show(old[f['name']]) if f['name'] in old else '?'} -> {show(f['value'])}")
    print(f"    outcome: {next(iter(o['outcome']))}")
    break
PY
