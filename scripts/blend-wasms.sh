#!/usr/bin/env bash
# Copies the published Blend v2 protocol WASMs and the SEP-40 mock oracle WASM out of their
# crates.io crates into target/wasm/blend/, without adding the crates to the workspace build:
# a throwaway cargo project under target/ depends on them, `cargo fetch` downloads the sources
# and `cargo metadata` says where they were unpacked.
#   blend-contract-sdk  -> pool.wasm backstop.wasm pool_factory.wasm emitter.wasm comet.wasm
#   sep-40-oracle       -> sep40_oracle_mock.wasm (feature testutils)
# The versions are pinned; the sandbox host (protocol 28) runs wasm built for any earlier
# protocol, and these are built with soroban-sdk 25 (blend-contract-sdk 2.25.0).
# Usage: scripts/blend-wasms.sh        (idempotent; prints the files and their sizes)
set -euo pipefail
cd "$(dirname "$0")/.."

BLEND_SDK_VERSION="2.25.0"
SEP40_VERSION="${SEP40_VERSION:-1.4.0}"
out=target/wasm/blend
fetch=target/blend-wasm-fetch

if [ -f "$out/.version" ] && [ "$(cat "$out/.version")" = "$BLEND_SDK_VERSION" ] \
   && [ -f "$out/pool.wasm" ] && [ -f "$out/sep40_oracle_mock.wasm" ]; then
  ls -l "$out"/*.wasm | awk '{print $NF"\t"$5" bytes"}'
  exit 0
fi

mkdir -p "$fetch/src" "$out"
sep40_req='sep-40-oracle = { version = "*", features = ["testutils"] }'
if [ -n "$SEP40_VERSION" ]; then
  sep40_req="sep-40-oracle = { version = \"=$SEP40_VERSION\", features = [\"testutils\"] }"
fi
cat > "$fetch/Cargo.toml" <<TOML
[package]
name = "blend-wasm-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
blend-contract-sdk = { version = "=$BLEND_SDK_VERSION", features = ["testutils"] }
$sep40_req
TOML
echo '#![no_std]' > "$fetch/src/lib.rs"

(cd "$fetch" && cargo fetch --quiet)
meta="$(cd "$fetch" && cargo metadata --format-version 1 --quiet)"
dir_of() {
  printf '%s' "$meta" | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const pkg = JSON.parse(s).packages.find((p) => p.name === process.argv[1]);
      if (!pkg) { console.error("crate not found: " + process.argv[1]); process.exit(1); }
      console.log(require("path").dirname(pkg.manifest_path) + "\t" + pkg.version);
    });' "$1"
}

read -r blend_dir blend_ver < <(dir_of blend-contract-sdk)
read -r sep40_dir sep40_ver < <(dir_of sep-40-oracle)
oracle_wasm="$(find "$sep40_dir" -name '*.wasm' | head -n 1)"
if [ -z "$oracle_wasm" ]; then
  echo "no wasm found in $sep40_dir" >&2
  exit 1
fi

# Copy into a private directory, then rename into place: several test suites may run this at
# once, and a reader must never see a half-written file. .version is written last.
stage="$(mktemp -d "$out/.stage.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
for w in pool backstop pool_factory emitter comet; do
  cp "$blend_dir/wasm/$w.wasm" "$stage/$w.wasm"
done
cp "$oracle_wasm" "$stage/sep40_oracle_mock.wasm"
for w in pool backstop pool_factory emitter comet sep40_oracle_mock; do
  mv -f "$stage/$w.wasm" "$out/$w.wasm"
done

printf '%s\n' "$BLEND_SDK_VERSION" > "$out/.version"
printf 'blend-contract-sdk %s\nsep-40-oracle %s (%s)\n' "$blend_ver" "$sep40_ver" "${oracle_wasm#"$sep40_dir"/}" > "$out/SOURCES"
cat "$out/SOURCES"
ls -l "$out"/*.wasm | awk '{print $NF"\t"$5" bytes"}'
