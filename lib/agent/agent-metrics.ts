import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { processRegistry } from '../platform/process-registry.ts';
import type { FailureKind } from './agent-client.ts';

/** The agent's operations against Vigil, the `operation` label of its error counter. */
export type AgentOperation = 'lease' | 'results' | 'heartbeat';

const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/**
 * The agent's own metrics (docs/agent.md "Metrics"), in a registry of its own: prom-client's
 * process metrics and the agent's leases, probes, results and errors. `gauges` are read at each
 * scrape.
 */
export function createAgentMetrics(version: string, gauges: { inFlight(): number; unsent(): number }) {
  const registry = processRegistry();
  const registers = [registry];
  new Gauge({
    name: 'vigil_agent_info',
    help: 'The agent version (always 1)',
    labelNames: ['version'],
    registers,
  }).set({ version }, 1);
  new Gauge({
    name: 'vigil_agent_probes_in_flight',
    help: 'Probes running now',
    registers,
    collect() {
      this.set(gauges.inFlight());
    },
  });
  new Gauge({
    name: 'vigil_agent_results_unsent',
    help: 'Results waiting to be acknowledged by Vigil',
    registers,
    collect() {
      this.set(gauges.unsent());
    },
  });
  const connected = new Gauge({
    name: 'vigil_agent_connected',
    help: '1 when the last exchange with Vigil succeeded, else 0',
    registers,
  });
  const leases = new Counter({
    name: 'vigil_agent_leases_total',
    help: 'Lease requests answered by Vigil (with or without jobs)',
    registers,
  });
  const leased = new Counter({ name: 'vigil_agent_jobs_leased_total', help: 'Jobs leased', registers });
  const redelivered = new Counter({
    name: 'vigil_agent_jobs_redelivered_total',
    help: 'Jobs leased again that this agent had already taken (not probed again)',
    registers,
  });
  const probed = new Counter({
    name: 'vigil_agent_jobs_probed_total',
    help: 'Jobs probed, by check type and result (up, degraded, down; unprobed: the agent could not read the check)',
    labelNames: ['check_type', 'result'],
    registers,
  });
  const lag = new Histogram({
    name: 'vigil_agent_probe_lag_seconds',
    help: "From the job's slot to the start of its probe",
    buckets: LAG_BUCKETS,
    registers,
  });
  const posted = new Counter({
    name: 'vigil_agent_results_posted_total',
    help: 'Results acknowledged by Vigil, by status (recorded, duplicate, expired; rejected: refused as malformed)',
    labelNames: ['status'],
    registers,
  });
  const retried = new Counter({
    name: 'vigil_agent_results_retried_total',
    help: 'Results whose post failed and that are sent again',
    registers,
  });
  const delivery = new Histogram({
    name: 'vigil_agent_result_delivery_seconds',
    help: "From a probe's end to Vigil's acknowledgement of its result",
    buckets: LAG_BUCKETS,
    registers,
  });
  const heartbeats = new Counter({
    name: 'vigil_agent_heartbeats_total',
    help: 'Heartbeats acknowledged',
    registers,
  });
  const errors = new Counter({
    name: 'vigil_agent_errors_total',
    help: 'Failed exchanges with Vigil, by operation and kind (network, auth, rejected, server, protocol)',
    labelNames: ['operation', 'kind'],
    registers,
  });
  connected.set(0);

  return {
    registry,
    succeeded(operation: AgentOperation): void {
      connected.set(1);
      if (operation === 'lease') leases.inc();
      if (operation === 'heartbeat') heartbeats.inc();
    },
    failed(operation: AgentOperation, kind: FailureKind): void {
      if (kind === 'network' || kind === 'server') connected.set(0);
      errors.inc({ operation, kind });
    },
    leased(count: number, again: number): void {
      leased.inc(count);
      redelivered.inc(again);
    },
    probeStarted(lagSeconds: number): void {
      lag.observe(Math.max(0, lagSeconds));
    },
    probed(checkType: string, result: 'up' | 'degraded' | 'down' | 'unprobed'): void {
      probed.inc({ check_type: checkType, result });
    },
    acknowledged(status: string, deliverySeconds: number): void {
      posted.inc({ status });
      if (status !== 'rejected') delivery.observe(Math.max(0, deliverySeconds));
    },
    retried(count: number): void {
      retried.inc(count);
    },
  };
}

export type AgentMetrics = ReturnType<typeof createAgentMetrics>;

/** Serves GET /metrics on host:port (port 0: any free one); answers the bound address. */
export async function serveMetrics(
  registry: Registry,
  host: string,
  port: number,
): Promise<{ server: Server; address: AddressInfo }> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  server.listen(port, host);
  await once(server, 'listening');
  return { server, address: server.address() as AddressInfo };
}
