import { setImmediate } from 'node:timers';
import { parentPort, workerData } from 'node:worker_threads';
import * as z from 'zod';
import { systemClock } from '../platform/clock.ts';
import { createBrowserRunner } from '../probes/browser-runner.ts';
import { probeTransport } from '../probes/probe-transport.ts';
import type { ProbeDefinition, Probed } from '../probes/types.ts';
import { inProcessProber } from './run-probe.ts';

/**
 * A probe thread (see lib/local/probe-threads.ts): runs the probes it is sent with the same code,
 * SSRF guard and limits as the event loop would, and answers each with its outcome and start
 * time. Requests and answers travel in batches (one message per turn each way).
 */

export interface ProbeRequest {
  id: number;
  def: ProbeDefinition;
}
export interface ProbeAnswer extends Probed {
  id: number;
}

const settings = z
  .object({
    allowPrivate: z.boolean(),
    tlsCa: z.array(z.string()).optional(),
    httpClient: z.enum(['http1', 'undici']).optional(),
    browser: z.object({ runs: z.number().int().min(1), chromiumPath: z.string() }).optional(),
  })
  .parse(workerData);
if (!parentPort) throw new Error('probe-thread.ts runs only as a worker thread');
const port = parentPort;
const prober = inProcessProber({
  clock: systemClock,
  allowPrivate: settings.allowPrivate,
  ...(settings.tlsCa ? { tlsCa: settings.tlsCa } : {}),
  transport: probeTransport(settings.httpClient ?? 'http1'),
  ...(settings.browser
    ? {
        browserRunner: createBrowserRunner({
          concurrency: settings.browser.runs,
          executablePath: settings.browser.chromiumPath,
        }),
      }
    : {}),
});

let answers: ProbeAnswer[] = [];
const flush = () => {
  const batch = answers;
  answers = [];
  port.postMessage(batch);
};

port.on('message', (requests: ProbeRequest[]) => {
  for (const { id, def } of requests) {
    // inProcessProber never rejects: every failure is a failed outcome.
    void prober(def).then((probed) => {
      if (answers.length === 0) setImmediate(flush);
      answers.push({ id, ...probed });
    });
  }
});
