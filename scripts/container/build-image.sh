#!/usr/bin/env bash
# Builds one of the repository's images with podman (through scripts/container/podman.sh):
#   keeper  Dockerfile                 -> localhost/stellar-pooled-liquidations/keeper:latest
#   sim     deploy/k8s/sim.Dockerfile  -> localhost/stellar-pooled-liquidations-sim:latest
#           (context filtered by deploy/k8s/sim.Dockerfile.dockerignore, which podman 4.3 also
#           finds by itself; needs target/sandbox/sandbox and target/wasm, see deploy/k8s/README.md)
# The base images come from scripts/container/base-images.sh when no registry is reachable.
# --format docker: in podman's default OCI format the keeper's HEALTHCHECK would be dropped.
# BUILD_CA_FILE: a CA bundle npm has to trust in RUN steps, for machines whose egress goes
# through a TLS-inspecting proxy (default: NODE_EXTRA_CA_CERTS, the bundle Node on this machine
# is told to trust; set it empty for none); it is mounted for the build only, not in the image.
# Prints the build time in seconds on its last line.
# Usage: scripts/container/build-image.sh keeper|sim [tag]
set -euo pipefail
cd "$(dirname "$0")/../.."
what="${1:-}"
case "$what" in
  keeper) file=Dockerfile; tag="${2:-localhost/stellar-pooled-liquidations/keeper:latest}"; ignore=() ;;
  sim)
    file=deploy/k8s/sim.Dockerfile; tag="${2:-localhost/stellar-pooled-liquidations-sim:latest}"
    ignore=(--ignorefile deploy/k8s/sim.Dockerfile.dockerignore)
    for need in target/sandbox/sandbox target/wasm/vault.wasm target/wasm/blend/pool.wasm; do
      [ -e "$need" ] || { echo "missing $need (see deploy/k8s/README.md)" >&2; exit 1; }
    done
    ;;
  *) echo "usage: $0 keeper|sim [tag]" >&2; exit 2 ;;
esac

ca=()
BUILD_CA_FILE="${BUILD_CA_FILE-${NODE_EXTRA_CA_CERTS:-}}"
if [ -n "$BUILD_CA_FILE" ]; then
  etc="$(mktemp -d)"
  trap 'rm -rf "$etc"' EXIT
  cp "$BUILD_CA_FILE" "$etc/build-ca.crt"
  # npm's global configuration file in the node images is $PREFIX/etc/npmrc. The directory
  # exists in the image, so mounting over it leaves no mount-point files behind in a layer.
  printf 'cafile=/usr/local/etc/build-ca.crt\n' > "$etc/npmrc"
  chmod 755 "$etc" && chmod 644 "$etc"/*
  ca=(--volume "$etc:/usr/local/etc:ro")
fi

start=$(date +%s)
scripts/container/podman.sh build --format docker "${ca[@]}" "${ignore[@]}" -f "$file" -t "$tag" .
echo "built $tag in $(( $(date +%s) - start )) s"
