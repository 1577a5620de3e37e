#!/usr/bin/env bash
# `npm run demo`: the main job on the embedded default chain.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh npm
exec npx tsx scripts/demo.ts "$@"
