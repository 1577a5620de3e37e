#!/usr/bin/env bash
# `npm test`: every suite of the repository, from a fresh clone.
#   1. install what is missing (npm packages, the wasm toolchain)
#   2. Rust: contract and sandbox tests (cargo test --workspace)
#   3. TypeScript: type check, then vitest (unit, property and end-to-end suites)
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh all

if grep -qE '^members = \[[^]]' Cargo.toml || grep -qE '^\s+"[a-z]' Cargo.toml; then
  echo "== cargo test --workspace"
  cargo test --workspace --quiet
fi

echo "== tsc --noEmit"
npx tsc --noEmit -p tsconfig.json

echo "== vitest"
npx vitest run
