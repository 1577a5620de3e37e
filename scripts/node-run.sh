#!/usr/bin/env bash
# `bash scripts/node-run.sh COMMAND [ARGS...]`: runs COMMAND with a supported Node first on PATH
# (scripts/lib/node.sh installs the pinned one when the machine's is not). The npm scripts that
# run the project's TypeScript go through it, so they run on the project's Node line whatever
# Node started npm.
set -euo pipefail
source "$(dirname "$0")/lib/node.sh"
use_project_node
exec "$@"
