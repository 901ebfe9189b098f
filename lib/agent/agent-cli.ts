import { readFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import pkg from '../../package.json' with { type: 'json' };
import { inProcessProber } from '../check-types/run-probe.ts';
import { systemClock } from '../platform/clock.ts';
import { createLogger } from '../platform/logger.ts';
import { createBrowserRunner } from '../probes/browser-runner.ts';
import { createAgent } from './agent.ts';
import { createAgentClient } from './agent-client.ts';
import { serveMetrics } from './agent-metrics.ts';
import {
  AGENT_USAGE,
  type AgentCliOptions,
  AgentUsageError,
  checkLocationKey,
  parseAgentArgs,
} from './agent-options.ts';

/** Where `vigil agent` writes, what it reads its defaults from, and where its signals arrive (bin/vigil.ts). */
export interface AgentIo {
  stdout: Writable;
  stderr: Writable;
  env: Record<string, string | undefined>;
  signals: Pick<NodeJS.Process, 'on' | 'off'>;
}

const STOP_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/**
 * `npm run vigil -- agent …`: answers the exit status (0 stopped with every result delivered, 1
 * stopped with results undelivered or failed to start, 2 usage error).
 */
export async function runAgentCli(args: string[], io: AgentIo): Promise<number> {
  let options: AgentCliOptions | 'help';
  let key: string;
  try {
    options = parseAgentArgs(args, io.env);
    if (options === 'help') {
      io.stdout.write(`${AGENT_USAGE}\n`);
      return 0;
    }
    key = 'key' in options.key ? options.key.key : await keyFromFile(options.key.file);
  } catch (err) {
    if (!(err instanceof AgentUsageError)) throw err;
    io.stderr.write(`vigil agent: ${err.message}\n\n${AGENT_USAGE}\n`);
    return 2;
  }
  return runAgent(options, key, io);
}

async function keyFromFile(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? String(err.code) : String(err);
    throw new AgentUsageError(`cannot read --key-file ${file}: ${code}`);
  }
  return checkLocationKey(text, `--key-file ${file}`);
}

async function runAgent(options: AgentCliOptions, key: string, io: AgentIo): Promise<number> {
  // A closed stdout (EPIPE) must not end the agent: logs are lost, probing goes on.
  io.stdout.on('error', () => {});
  const logger = createLogger({ level: options.logLevel, write: (line) => io.stdout.write(`${line}\n`) });
  const version = pkg.version;
  const agent = createAgent(
    {
      client: createAgentClient({
        url: options.url,
        key,
        userAgent: `vigil-agent/${version} (node ${process.version}; ${process.platform}-${process.arch})`,
      }),
      // The workers' own prober: the same probes, SSRF guard and limits as the runtimes.
      prober: inProcessProber({
        clock: systemClock,
        allowPrivate: options.allowPrivate,
        // Browser checks run in child processes of their own, Chromium started at a run only.
        browserRunner: createBrowserRunner({
          concurrency: options.browser.runs,
          executablePath: options.browser.chromiumPath,
        }),
      }),
      clock: systemClock,
      logger,
      version,
    },
    {
      concurrency: options.concurrency,
      maxUnsent: options.maxUnsent,
      heartbeatIntervalMs: options.heartbeatIntervalMs,
      maxBackoffMs: options.maxBackoffMs,
    },
  );
  let metricsServer: Awaited<ReturnType<typeof serveMetrics>>['server'] | undefined;
  if (options.metrics) {
    try {
      const served = await serveMetrics(agent.metrics.registry, options.metrics.host, options.metrics.port);
      metricsServer = served.server;
      const { address, port } = served.address;
      const host = address.includes(':') ? `[${address}]` : address;
      logger.info('metrics served', { metrics_url: `http://${host}:${port}/metrics` });
    } catch (err) {
      io.stderr.write(
        `vigil agent: cannot serve metrics on ${options.metrics.host}:${options.metrics.port}: ${String(err)}\n`,
      );
      agent.abort();
      await agent.run();
      return 1;
    }
  }
  let signalled = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signalled += 1;
    if (signalled > 1) {
      logger.warn('stopping now', { signal });
      agent.abort();
      return;
    }
    logger.info('stopping: running probes finish and their results are posted', {
      signal,
      in_flight: agent.inFlight,
      unsent: agent.unsent,
      grace_ms: options.stopGraceMs,
    });
    agent.stop();
    setTimeout(() => agent.abort(), options.stopGraceMs).unref();
  };
  for (const signal of STOP_SIGNALS) io.signals.on(signal, onSignal);
  logger.info('agent started', {
    vigil: options.url.origin,
    version,
    concurrency: options.concurrency,
    private_targets: options.allowPrivate,
  });
  try {
    const { unsent } = await agent.run();
    if (unsent > 0) {
      logger.error('stopped with results not delivered: Vigil leases their jobs again', { unsent });
      return 1;
    }
    logger.info('stopped: every result delivered');
    return 0;
  } finally {
    for (const signal of STOP_SIGNALS) io.signals.off(signal, onSignal);
    metricsServer?.closeAllConnections();
    metricsServer?.close();
  }
}
