#!/usr/bin/env bash
# Runs podman with this directory's containers.conf (runtime runc, no default ulimits) unless
# CONTAINERS_CONF already names a file. Debian 12's podman 4.3 needs both on machines whose
# cgroups are in hybrid mode (crun refuses them) and whose hard open-file limit is below what
# podman's default ulimits ask for (runc fails).
# Usage: scripts/container/podman.sh <podman arguments>
#   e.g. scripts/container/podman.sh build --format docker -t keeper .
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"
exec podman "$@"
