#!/usr/bin/env bash
# `npm run sandbox -- [--port N] [--ledger-interval SECONDS] [--manual] [--seed S] [--state FILE]
#                     [--network-passphrase P] [--queue-rules strict|relaxed]`
# Builds the local network node if sandbox/ changed (profile `sandbox`), then runs it in the
# foreground. It prints `sandbox ready <rpc-url>` once it answers; Ctrl-C / SIGTERM stop it
# (writing --state FILE when given).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/sandbox/sandbox
if [ ! -x "$bin" ] || [ -n "$(find sandbox/src sandbox/Cargo.toml -newer "$bin" -print -quit)" ]; then
  cargo build --profile sandbox -p sandbox >&2
fi
exec "$bin" "$@"
