#!/usr/bin/env bash
# Configures and builds tracespec into ./build (or $TRACESPEC_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${TRACESPEC_BUILD_DIR:-build}"
JOBS="${TRACESPEC_JOBS:-$(nproc)}"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build "$BUILD_DIR" -j "$JOBS"
