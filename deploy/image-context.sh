#!/usr/bin/env bash
# Prepares the build context of the container image (Dockerfile): this checkout's files (tracked,
# and new ones git does not ignore) plus a production node_modules from `npm ci --omit=dev`. That
# install brings the project's pinned Node 24 (the node-linux-<arch> package, README
# "Requirements") and its postinstall builds the console, so the Dockerfile copies a finished tree:
# building the image needs no registry, no Node download and no compiler.
#   deploy/image-context.sh /tmp/vigil-image && podman build --format docker -t vigil /tmp/vigil-image
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: deploy/image-context.sh <directory> (created, or emptied of a previous context)}"

mkdir -p "$out"
out="$(cd "$out" && pwd)"
[ "$out" != "$src" ] || { echo "the context must be another directory than the checkout" >&2; exit 2; }
# Only this script's own output is ever removed: a directory it did not make is left alone.
if [ -n "$(ls -A "$out")" ]; then
  [ -f "$out/.vigil-image-context" ] || { echo "$out is not empty and not a previous context" >&2; exit 2; }
  find "$out" -mindepth 1 -delete
fi

# Files of the checkout as git sees them (a deleted but still tracked file is skipped).
(cd "$src" && git ls-files -z --cached --others --exclude-standard) |
  (cd "$src" && while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done) |
  tar -C "$src" --null -T - -cf - | tar -C "$out" -xf -
touch "$out/.vigil-image-context"

cd "$out"
npm ci --omit=dev --no-audit --no-fund --prefer-offline --loglevel=error
# What only building needs stays out of the tree: Node's C headers (no addon is compiled; better-sqlite3
# ships prebuilt binaries) and the CDK library (infra/ and `npm run synth` only; the local runtime never
# imports it). The container test starts the server from the trimmed tree, so a runtime import of either
# would fail it.
rm -rf node_modules/node-linux-*/include node_modules/aws-cdk-lib node_modules/@aws-cdk
[ -f web/dist/index.html ] || { echo "the console was not built (web/dist/index.html missing)" >&2; exit 1; }
[ -x node_modules/.bin/node ] || { echo "the pinned Node is missing (node_modules/.bin/node)" >&2; exit 1; }
echo "image context ready in $out (Node $(node_modules/.bin/node --version))"
