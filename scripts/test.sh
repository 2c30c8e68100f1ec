#!/usr/bin/env bash
# Installs the dependencies, builds, and runs every test through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
BUILD_DIR="${TRACESPEC_BUILD_DIR:-build}"
cd "$BUILD_DIR"
ctest --output-on-failure -j "${TRACESPEC_JOBS:-$(nproc)}" "$@"
