# The local runtime (SQLite under /data) in a container. Build it from a prepared context, not from
# this checkout: deploy/image-context.sh makes one with a production node_modules that carries the
# project's pinned Node 24 and the built console, so the build needs no registry beyond the base image.
#   deploy/image-context.sh /tmp/vigil-image
#   podman build --format docker -t localhost/vigil /tmp/vigil-image   (or: docker build -t localhost/vigil ...)
# (--format docker keeps the HEALTHCHECK below; the OCI image format has no field for it.)
FROM debian:bookworm-slim

# Debian's Chromium runs browser checks (VIGIL_CHROMIUM_PATH's default, /usr/bin/chromium), as on a
# Debian host (docs/scripted-checks.md "Requirements"). Without recommends: no setuid sandbox helper
# (Chromium's sandbox needs user namespaces and chroot, which a container's default seccomp profile
# refuses: runs then go on without it, and the server logs that once), no desktop services.
# fonts-dejavu-core, which fontconfig pulls in anyway, is named so that text in screenshots keeps a
# font. No ca-certificates: Node brings its own TLS roots, and Chromium NSS's built-in ones.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install --yes --no-install-recommends chromium fonts-dejavu-core \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/*

RUN groupadd --system --gid 10001 vigil \
 && useradd --system --uid 10001 --gid vigil --home-dir /nonexistent --no-create-home \
      --shell /usr/sbin/nologin vigil \
 && mkdir /data && chown vigil:vigil /data && chmod 0700 /data

# Code and dependencies belong to root and are read-only for the service user; only /data is its.
WORKDIR /opt/vigil
COPY . .

ENV VIGIL_DATA_DIR=/data \
    VIGIL_HOST=0.0.0.0 \
    PORT=8080 \
    PATH=/opt/vigil/node_modules/.bin:$PATH
USER vigil
VOLUME ["/data"]
EXPOSE 8080

# Node runs the health check (the image has no curl or wget); /healthz answers 200 while the store answers.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# `serve` (the default) runs the server; any other command is `vigil <command>`, e.g. a probe
# location's agent: podman run <image> agent --url https://vigil.example.com --key-file <file>
# (deploy/container-entrypoint.sh, docs/locations.md "Running an agent"). Node is PID 1 and stops
# cleanly on SIGTERM: the server within a 4 s deadline of its own (bin/serve.ts), the agent after
# its running probes' results are posted (--stop-grace, 30 s by default).
ENTRYPOINT ["/opt/vigil/deploy/container-entrypoint.sh"]
CMD ["serve"]
