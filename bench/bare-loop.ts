import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { onParentMessage, reply } from './child.ts';
import { createLoopMonitor, createSamples } from './stats.ts';

/**
 * Child process: the bare Node ceiling. `concurrency` loops each issue GETs on a fresh connection
 * (agent: false, as the product's probes) against the loopback target, bounded by time and count.
 */

const runMessage = z.object({
  type: z.literal('run'),
  url: z.string(),
  concurrency: z.number().int().min(1),
  durationMs: z.number().int().min(1),
  maxRequests: z.number().int().min(1),
});

function get(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(
      { hostname: url.hostname, port: url.port, path: url.pathname, method: 'GET', agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
        res.on('error', () => resolve(false));
      },
    );
    req.on('error', () => resolve(false));
    req.end();
  });
}

onParentMessage(runMessage, async (run) => {
  const url = new URL(run.url);
  const monitor = createLoopMonitor();
  const latency = createSamples();
  let ok = 0;
  let failed = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + run.durationMs;
  monitor.reset();
  const worker = async () => {
    while (performance.now() < deadline && issued < run.maxRequests) {
      issued += 1;
      const t0 = performance.now();
      if (await get(url)) ok += 1;
      else failed += 1;
      latency.add(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: run.concurrency }, worker));
  const elapsedMs = performance.now() - started;
  reply({ type: 'done', ok, failed, elapsedMs, latency: latency.summary(), loop: monitor.read() });
  monitor.stop();
});
reply({ type: 'ready' });
