#!/usr/bin/env bash
# Installs the Debian 12 packages tracespec builds and tests with. Idempotent:
# when everything is present it only runs dpkg-query and exits.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git python3
  libprotobuf-dev protobuf-compiler libgrpc++-dev protobuf-compiler-grpc
  libcurl4-openssl-dev rapidjson-dev libz3-dev cvc5 libgtest-dev libgmock-dev
  libabsl-dev libre2-dev libssl-dev libcli11-dev zlib1g-dev
  openjdk-17-jdk-headless junit5
  clang-14 libclang-rt-14-dev spin
  chromium  # renders report.html headless in the report's end-to-end test
  openssl   # makes the certificates of the services' TLS tests
  python3-yaml  # parses deploy/kubernetes/ in its test (tests/deploy/)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y --no-install-recommends "${missing[@]}"; then
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
