#!/usr/bin/env bash
# `npm run demo`: the main job on the embedded default chain.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/node.sh
use_project_node
bash scripts/setup.sh npm
exec npx tsx scripts/demo.ts "$@"
