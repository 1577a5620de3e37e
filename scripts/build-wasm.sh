#!/usr/bin/env bash
# Builds every Soroban contract under contracts/ to wasm (release, wasm32v1-none) and copies
# the results to target/wasm/<crate_name>.wasm.
#   - with a rustup wasm32v1-none target: plain `cargo build --target wasm32v1-none`
#   - otherwise: Debian's rustc-web builds core/alloc from rust-web-src (-Z build-std) and
#     lld's wasm-ld links (installed by scripts/setup.sh wasm)
# then scripts/spec-shake drops unused spec entries and binaryen's wasm-opt (Debian package
# `binaryen`, installed by scripts/setup.sh wasm) shrinks the code: 25-30 % off every contract,
# and the 20 KB target of the vault and the registry is met only with it.
# Usage: scripts/build-wasm.sh [crate ...]   (default: every crate in contracts/)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh wasm

crates=("$@")
if [ "${#crates[@]}" -eq 0 ]; then
  for manifest in contracts/*/Cargo.toml; do
    crates+=("$(sed -n 's/^name = "\(.*\)"/\1/p' "$manifest" | head -n 1)")
  done
fi
pkg_args=()
# soroban-sdk 28 emits spec markers and expects the build system to shake the contract spec
# (drop spec entries the code does not use); scripts/spec-shake does that after the build.
export SOROBAN_SDK_BUILD_SYSTEM_SUPPORTS_SPEC_SHAKING_V2=1
for c in "${crates[@]}"; do pkg_args+=(-p "$c"); done

if command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx wasm32v1-none; then
  cargo build --release --target wasm32v1-none "${pkg_args[@]}"
else
  # immediate-abort: panics trap without formatting (the message never leaves a contract), which
  # keeps core::fmt and the panic strings out of every contract (~5 KB each).
  RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32V1_NONE_LINKER=wasm-ld-19 \
    CARGO_TARGET_WASM32V1_NONE_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort" \
    cargo build --release --target wasm32v1-none -Z build-std=core,alloc "${pkg_args[@]}"
fi

cargo build --quiet --profile sandbox -p spec-shake
mkdir -p target/wasm
for c in "${crates[@]}"; do
  out="target/wasm/${c//-/_}.wasm"
  shaken="$(mktemp "$out.shaken.XXXXXX")"
  opt="$(mktemp "$out.opt.XXXXXX")"
  target/sandbox/spec-shake "target/wasm32v1-none/release/${c//-/_}.wasm" "$shaken"
  # Soroban runs WebAssembly 1.0 plus mutable globals (the wasm32v1-none feature set): the
  # feature flags keep wasm-opt from emitting anything newer. Custom sections (contract spec,
  # env and sdk metadata) pass through unchanged.
  wasm-opt -Oz --converge --mvp-features --enable-mutable-globals "$shaken" -o "$opt"
  rm -f "$shaken"
  # Renamed into place, so a test reading the file never sees it half-written.
  chmod 644 "$opt"
  mv -f "$opt" "$out"
  printf '%s\t%s bytes\n' "$out" "$(stat -c %s "$out")"
done
