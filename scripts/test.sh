#!/usr/bin/env bash
# `npm test`: every suite of the repository, from a fresh clone.
#   1. install what is missing (npm packages, the wasm toolchain)
#   2. build the contracts to wasm (end-to-end suites deploy them)
#   3. Rust: contract and sandbox tests; the `sandbox` profile is the one the node binary is
#      built with, so the Soroban host crates compile once for both
#   4. TypeScript: type check, then vitest (unit, property and end-to-end suites)
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh all

echo "== wasm build"
bash scripts/build-wasm.sh
bash scripts/blend-wasms.sh

echo "== cargo test --workspace --profile sandbox"
cargo test --workspace --profile sandbox --quiet
cargo build --profile sandbox -p sandbox --quiet

echo "== tsc --noEmit"
npx tsc --noEmit -p tsconfig.json

echo "== vitest"
npx vitest run
