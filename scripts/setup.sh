#!/usr/bin/env bash
# Installs what the repo needs on a fresh machine, idempotently:
#   - a supported Node (scripts/lib/node.sh: the pinned release of .node-version from the npm
#     registry's binary package when the machine's node is not a supported release)
#   - npm packages (npm ci when node_modules is missing or older than package-lock.json)
#   - a wasm32v1-none toolchain for the Soroban contracts (rustup target when it exists,
#     otherwise Debian's rustc-web + rust-web-src + lld, see contracts/README.md)
#   - Debian's chromium, the browser the dashboard's end-to-end tests and the sim's report page
#     tests drive through playwright-core
#   - Debian's slurm-wlm (slurmctld, slurmd, the sbatch/squeue/scontrol clients) and munge, which
#     scripts/slurm/slurm.e2e.test.ts runs as a one-node cluster of its own to check deploy/slurm/
#   - sdk-flows (not part of all): the Python and Go SDK flows of sandbox/sdk-flows, a venv in
#     target/sdk-flows/venv with requirements.txt's pinned packages and the Go flow built to
#     target/sdk-flows/go-flow (its modules from go.mod/go.sum into the default module cache);
#     needs python3 (>= 3.9, with venv) and go (>= 1.25) on PATH
# Usage: scripts/setup.sh [node|npm|wasm|browser|slurm|sdk-flows|all]   (default all)
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"

log() { printf '[setup] %s\n' "$*" >&2; }

source scripts/lib/node.sh

setup_npm() {
  use_project_node
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "installing npm packages (npm ci: exactly what package-lock.json holds)"
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

have_rustup_wasm_target() {
  command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx wasm32v1-none
}

# Installs the Debian packages named as arguments that are missing (needs root).
apt_install_missing() {
  local why="$1"; shift
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    log "missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install -y ${missing[*]})"
    exit 1
  fi
  log "installing Debian packages for $why: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # The lock timeout lets set-ups started at the same time on a fresh machine wait for each other.
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${missing[@]}" >/dev/null
}

setup_wasm() {
  # wasm-opt (binaryen) shrinks every contract; the compiler packages are needed only when no
  # rustup wasm32v1-none target exists (then Debian's rustc-web builds core/alloc from rust-web-src).
  local wanted=(binaryen)
  have_rustup_wasm_target || wanted+=(rustc-web rust-web-src lld-19)
  apt_install_missing "the wasm build" "${wanted[@]}"
}

setup_browser() {
  # A browser already on the machine (CHROMIUM_PATH) is used as is.
  if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then return 0; fi
  apt_install_missing "the browser tests" chromium
}

setup_slurm() {
  # Nothing is configured here: the end-to-end test starts munged, slurmctld and slurmd with a
  # slurm.conf and munge key of its own in a temporary directory, not the system's services.
  apt_install_missing "the Slurm sweep test" slurm-wlm munge
}

setup_sdk_flows() {
  local dir=target/sdk-flows req=sandbox/sdk-flows/python/requirements.txt
  mkdir -p "$dir"
  if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import sys, venv; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
    log "the Python SDK flow needs python3 >= 3.9 with venv on PATH (Debian: apt-get install python3 python3-venv)"
    exit 1
  fi
  if ! command -v go >/dev/null 2>&1 || ! go version | grep -Eq 'go1\.(2[5-9]|[3-9][0-9])'; then
    log "the Go SDK flow needs go >= 1.25 on PATH (found: $(go version 2>/dev/null || echo none)); install Go 1.25 or later"
    exit 1
  fi
  # The venv is rebuilt only when requirements.txt changed (its copy in the venv is the stamp).
  if ! cmp -s "$req" "$dir/venv/requirements.txt"; then
    log "installing the Python SDK flow's packages in $dir/venv"
    rm -rf "$dir/venv"
    python3 -m venv "$dir/venv"
    "$dir/venv/bin/pip" install --quiet --disable-pip-version-check -r "$req"
    cp "$req" "$dir/venv/requirements.txt"
  fi
  # go build fetches the modules go.sum pins (default GOMODCACHE) and is a no-op when nothing changed.
  (cd sandbox/sdk-flows/go && go build -o ../../../"$dir"/go-flow .)
}

case "$what" in
  node) use_project_node ;;
  npm) setup_npm ;;
  wasm) setup_wasm ;;
  browser) setup_browser ;;
  slurm) setup_slurm ;;
  sdk-flows) setup_sdk_flows ;;
  all) setup_npm; setup_wasm; setup_browser; setup_slurm ;;
  *) log "unknown target: $what (expected node, npm, wasm, browser, slurm, sdk-flows or all)"; exit 2 ;;
esac
