#!/usr/bin/env bash
# Installs what the repo needs on a fresh machine, idempotently:
#   - npm packages (npm ci when node_modules is missing or older than package-lock.json)
#   - a wasm32v1-none toolchain for the Soroban contracts (rustup target when it exists,
#     otherwise Debian's rustc-web + rust-web-src + lld, see contracts/README.md)
# Usage: scripts/setup.sh [npm|wasm|all]   (default all)
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"

log() { printf '[setup] %s\n' "$*" >&2; }

setup_npm() {
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "installing npm packages"
    # npm ci rejects lock files that omit other platforms' optional packages (rollup), which
    # npm itself writes; npm install honours the lock file and tolerates that.
    npm install --no-audit --no-fund --loglevel=error
  fi
}

have_rustup_wasm_target() {
  command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx wasm32v1-none
}

setup_wasm() {
  # wasm-opt (binaryen) shrinks every contract; the compiler packages are needed only when no
  # rustup wasm32v1-none target exists (then Debian's rustc-web builds core/alloc from rust-web-src).
  local wanted=(binaryen)
  have_rustup_wasm_target || wanted+=(rustc-web rust-web-src lld-19)
  local missing=()
  for pkg in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
      log "missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install -y ${missing[*]})"
      exit 1
    fi
    log "installing Debian packages for the wasm build: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # The lock timeout lets set-ups started at the same time on a fresh machine wait for each other.
    apt-get -o DPkg::Lock::Timeout=300 update -qq
    apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${missing[@]}" >/dev/null
  fi
}

case "$what" in
  npm) setup_npm ;;
  wasm) setup_wasm ;;
  all) setup_npm; setup_wasm ;;
  *) log "unknown target: $what (expected npm, wasm or all)"; exit 2 ;;
esac
