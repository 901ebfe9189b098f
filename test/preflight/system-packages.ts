/**
 * The one list of the system packages `npm test` needs beyond Node and npm (issue 79): each entry is
 * a Debian package, what shows it is installed (a command on the PATH, or the absolute path the tests
 * run), and why the tests need it. The preflight (test/preflight/run.ts) reads it before anything
 * else runs; `.ci/run` installs nothing of its own. Package names are Debian bookworm's (Ubuntu's
 * are the same).
 */
export interface SystemPackage {
  /** The Debian package that brings it. */
  package: string;
  /** A command looked up on the PATH, or an absolute path the tests run as it is. */
  provides: string;
  /** What needs it, in a few words (printed when it is installed or missing). */
  why: string;
}

export const SYSTEM_PACKAGES: readonly SystemPackage[] = [
  {
    package: 'openjdk-17-jre-headless',
    provides: 'java',
    why: 'DynamoDB Local and the Nu Html Checker run on Java 17',
  },
  { package: 'openssl', provides: '/usr/bin/openssl', why: 'TLS probe fixtures make their certificates' },
  {
    package: 'nats-server',
    provides: '/usr/sbin/nats-server',
    why: 'the nats channel tests publish to a real server',
  },
  { package: 'chromium', provides: '/usr/bin/chromium', why: "browser checks run the product's Chromium" },
  {
    package: 'chromium-headless-shell',
    provides: '/usr/bin/chromium-headless-shell',
    why: 'the console tests drive it with playwright-core',
  },
  {
    package: 'prometheus',
    provides: '/usr/bin/promtool',
    why: 'the metrics tests check the exposition with promtool',
  },
  {
    package: 'prometheus-alertmanager',
    provides: '/usr/bin/prometheus-alertmanager',
    why: 'outside alerts are tested with the real Alertmanager as their sender',
  },
  { package: 'podman', provides: 'podman', why: 'the container image test builds and runs the image' },
  { package: 'runc', provides: 'runc', why: "podman's OCI runtime here, as crun fails on hybrid cgroups" },
  {
    package: 'mmdebstrap',
    provides: 'mmdebstrap',
    why: "the image test's offline base image, as no registry is reached",
  },
  { package: 'podman-compose', provides: 'podman-compose', why: 'the compose.yaml test' },
  {
    package: 'systemd',
    provides: 'systemd-analyze',
    why: 'deploy/vigil.service is verified and its security scored',
  },
  { package: 'iputils-ping', provides: 'ping', why: 'the icmp check type runs ping' },
  { package: 'iproute2', provides: '/usr/sbin/ip', why: 'the icmp and agent tests make network namespaces' },
  {
    package: 'libxml2-utils',
    provides: '/usr/bin/xmllint',
    why: 'the status page feeds are validated against RELAX NG',
  },
];
