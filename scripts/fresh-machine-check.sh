#!/usr/bin/env bash
# The README's two commands as a newcomer meets them: a fresh clone of the committed HEAD, run
# with an empty home directory, so nothing that earlier runs left in ~/.npm, ~/.cargo or /tmp
# can help:
#   HOME, npm_config_cache, CARGO_HOME, TMPDIR   new empty directories under the work folder
#   RUSTUP_HOME                                  the machine's (the preinstalled toolchains)
#   ~/.npmrc                                     copied (the machine's npm settings, no cache)
#   everything else                              the machine's environment as it is
# Then `npm run demo -- --once` and `npm test` run in the clone, one after the other; each log
# goes to the work folder, and the script ends with one line per command (exit code, wall time)
# and the suite's `total:` line. Debian packages already installed stay installed (the set-up
# installs the missing ones as root, as on a new machine).
# Usage: scripts/fresh-machine-check.sh [--work DIR] [--skip-demo] [--keep]
#   --work DIR    where the clone and the empty directories go (default: a new /tmp folder)
#   --skip-demo   only `npm test`
#   --keep        leave the work folder (default: removed when both commands pass)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="" demo=1 keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work="$2"; shift 2 ;;
    --skip-demo) demo=0; shift ;;
    --keep) keep=1; shift ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fresh-machine-check: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "$work" ] || work="$(mktemp -d /tmp/fresh-machine.XXXXXX)"
mkdir -p "$work"
[ -z "$(ls -A "$work")" ] || { echo "fresh-machine-check: $work is not empty" >&2; exit 2; }
work="$(cd "$work" && pwd)"

say() { printf '[fresh] %s\n' "$*"; }

if [ -n "$(git -C "$repo" status --porcelain)" ]; then
  say "note: uncommitted changes in $repo are not part of the check (it clones HEAD)"
fi
git clone --quiet --no-hardlinks "$repo" "$work/repo"
say "clone of $(git -C "$work/repo" rev-parse --short HEAD) in $work/repo"

home="$work/home"
mkdir -p "$home" "$work/tmp"
[ -f "${HOME:-/nonexistent}/.npmrc" ] && cp "$HOME/.npmrc" "$home/.npmrc"
rustup_home="${RUSTUP_HOME:-$HOME/.rustup}"
cargo_bin="$(dirname "$(command -v cargo 2>/dev/null || echo "$HOME/.cargo/bin/cargo")")"

# The machine's environment (its CA bundles, locale, PATH with the toolchains), with every
# cache and home directory swapped for an empty one.
run_fresh() {
  env -u CARGO_TARGET_DIR -u NODE_OPTIONS \
    HOME="$home" RUSTUP_HOME="$rustup_home" CARGO_HOME="$home/.cargo" \
    npm_config_cache="$home/.npm" TMPDIR="$work/tmp" \
    PATH="$cargo_bin:$PATH" \
    bash -c 'cd "$1" && shift && exec "$@"' _ "$work/repo" "$@"
}

results=()
step() {
  local name="$1" log="$2"; shift 2
  say "$name (log: $log)"
  local started=$SECONDS code=0
  run_fresh "$@" > "$log" 2>&1 || code=$?
  local took=$((SECONDS - started))
  results+=("$(printf '%-24s exit %s in %dm%02ds' "$name" "$code" $((took / 60)) $((took % 60)))")
  return "$code"
}

failed=0
if [ "$demo" = 1 ]; then
  step "npm run demo -- --once" "$work/demo.log" npm run demo -- --once || failed=1
fi
step "npm test" "$work/test.log" npm test || failed=1

echo
say "results ($(nproc) cores; node on PATH before set-up: $(run_fresh node --version 2>/dev/null || echo none))"
for r in "${results[@]}"; do say "  $r"; done
total="$(grep -E '^total: ' "$work/test.log" | tail -n 1 || true)"
say "  ${total:-no total line in $work/test.log}"
if [ "$failed" = 0 ] && [ "$keep" = 0 ]; then
  rm -rf "$work"
else
  say "work folder kept: $work"
fi
exit "$failed"
