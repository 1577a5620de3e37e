#!/usr/bin/env bash
# `npm run sandbox -- [--port N] [--ledger-interval SECONDS] [--manual] [--seed S] [--state FILE]
#                     [--network-passphrase P] [--queue-rules strict|relaxed] ...` (`--help` lists
#                     every option with its default)
# Builds the local network node if sandbox/ changed (profile `sandbox`), then runs it in the
# foreground. It prints `sandbox ready <rpc-url>` once it answers; Ctrl-C / SIGTERM stop it
# (writing --state FILE when given).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'USAGE'
usage: npm run sandbox -- [options]

Builds the local network node if sandbox/ changed, then runs it in the foreground: a
Stellar-RPC-compatible node on the real Soroban engine (sandbox/README.md). It prints
`sandbox ready <rpc-url>` once it answers; Ctrl-C stops it.

options:
  --port N                      RPC port, 0 = any free one (default 8000)
  --host H                      address to bind (default 127.0.0.1)
  --ledger-interval SECONDS     seconds per ledger (default 1; with --manual: none)
  --manual                      close ledgers only on sandbox_closeLedgers (default: on a timer)
  --instant                     close a ledger as soon as a transaction is accepted (default: off)
  --seed S                      seeded PRNGs and a virtual clock (default: none, wall-clock time)
  --state FILE                  load the state from FILE when it exists, write it on exit
                                (default: in memory only)
  --network-passphrase P        (default "Standalone Network ; February 2017"; a snapshot's or
                                fork's own network when started from one)
  --start-time UNIX             with --seed: where the virtual clock starts
                                (default 2026-01-01T00:00:00Z)
  --retention-window N          ledgers of history kept (default 17280)
  --min-persistent-ttl N        least TTL of persistent entries, ledgers (default 2073600)
  --apply-order core|arrival    order a close applies its transactions in (default core)
  --queue-rules strict|relaxed  what the queue admits from one source (default strict)
  --no-simulation-memo          turn off the simulation memo (default: on)
  --exit-on-stdin-close         stop when stdin closes (default: off)
  --quiet                       fewer log lines (default: off)
  --snapshot FILE               start from a LedgerSnapshot file (default: an empty network)
  --fork-url URL                fork a live RPC lazily (default: none)
  --fork-header 'Name: value'   an HTTP header for the fork's upstream (repeatable; default none)
  -h, --help                    this text

example:
  npm run sandbox -- --port 8000 --ledger-interval 5 --seed 7 --state target/sandbox-state.json
USAGE
}

# Help without building the node (the binary's own usage has no defaults).
for arg in "$@"; do
  case "$arg" in
    --) break ;;
    -h | --help) usage; exit 0 ;;
  esac
done
bin=target/sandbox/sandbox
if [ ! -x "$bin" ] || [ -n "$(find sandbox/src sandbox/Cargo.toml -newer "$bin" -print -quit)" ]; then
  cargo build --profile sandbox -p sandbox >&2
fi
exec "$bin" "$@"
