#!/bin/sh
# The container image's entrypoint (Dockerfile). Without arguments, or with `serve`, it runs the
# server (bin/serve.ts); anything else is a `vigil` command (bin/vigil.ts), so the image also runs
# a probe location's agent and the operator CLI:
#   podman run localhost/vigil                                   the server
#   podman run localhost/vigil agent --url https://vigil.example.com --key-file /run/secrets/vigil-location-key
#   podman run -v vigil-data:/data localhost/vigil tenant list
# `exec`: Node is PID 1 and receives SIGTERM itself (both stop cleanly on it).
set -eu
cd /opt/vigil
if [ "$#" -eq 0 ] || [ "$1" = serve ]; then
  exec node bin/serve.ts
fi
exec node bin/vigil.ts "$@"
