#!/usr/bin/env bash
# Builds the keeper daemon as ONE executable: dist/keeper (a Node single executable application).
#   1. esbuild bundles src/keeper/server.ts and every dependency into one CommonJS file (inside a
#      SEA only built-in modules can be required, so optional packages probed at run time are
#      replaced by stand-ins; deprecation warnings are off because every bundled line counts as
#      application code to Node)
#   2. node --experimental-sea-config turns the bundle into a SEA blob
#   3. postject injects the blob into a copy of the node binary (the project's Node line,
#      scripts/lib/node.sh)
# The result needs no node_modules and no Node install: `./dist/keeper` with the environment.
# Usage: scripts/build-keeper.sh [output]   (default dist/keeper)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/node.sh
use_project_node

out="${1:-dist/keeper}"
work="$(dirname "$out")/.keeper-build"
mkdir -p "$work" "$(dirname "$out")"
[ -d node_modules/esbuild ] || npm install --no-audit --no-fund

npx --no-install esbuild src/keeper/server.ts \
  --bundle --platform=node --target=node24 --format=cjs \
  --outfile="$work/keeper.cjs" \
  --alias:supports-color=./src/keeper/build/no-supports-color.cjs \
  --banner:js='process.noDeprecation = true;' \
  --legal-comments=none --log-level=warning

cat > "$work/sea-config.json" <<JSON
{
  "main": "$work/keeper.cjs",
  "output": "$work/keeper.blob",
  "disableExperimentalSEAWarning": true,
  "useCodeCache": false,
  "useSnapshot": false
}
JSON
node --experimental-sea-config "$work/sea-config.json" >/dev/null

node_bin="$(node -p 'process.execPath')"
rm -f "$out"
cp "$node_bin" "$out"
chmod u+w "$out"
npx --no-install postject "$out" NODE_SEA_BLOB "$work/keeper.blob" \
  --sentinel-fuse NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2 >/dev/null
chmod 755 "$out"
echo "built $out ($(du -h "$out" | cut -f1))"
