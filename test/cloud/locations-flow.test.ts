import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProbeRegionLambda } from '../../functions/probe-region.ts';
import { createRegionHandler, type RegionRunAnswer } from '../../lib/agent/region-function.ts';
import { createPowertoolsLogger, fromPowertools } from '../../lib/cloud/edge/lambda-edge.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { adminCall, type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';
import { lambdaContext } from '../support/lambda-context.ts';
import { startStatusServer } from '../support/status-server.ts';

/**
 * A located check through the cloud runtime: a manual run (api handler) puts the slot's probe job on
 * the probe queue (fauxqs); the worker Lambda fans it out to its location's job; an AWS region's
 * probe function (functions/probe-region.ts, its run shortened to 2 s) leases that job from the api
 * handler, probes a target on 127.0.0.1 and posts the result, which decides the slot (quorum 1); the
 * stream function then moves the entity. The api handler is reached over HTTP through a loopback
 * stand-in of API Gateway (an HTTP server handing each request to the harness).
 */

const SECRET_ID = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:VigilProbeLocationKey-abc';
const LEASE_FOR_MS = 2000;

let h: LambdaHarness;
let gateway: Server;
let gatewayUrl: string;
let target: Awaited<ReturnType<typeof startStatusServer>>;

beforeAll(async () => {
  target = await startStatusServer(200);
  h = await startLambdaHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
  gateway = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'user-agent', 'accept']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const body = Buffer.concat(chunks);
      const answer = await h.request(req.method ?? 'GET', req.url ?? '/', {
        headers,
        ...(body.length > 0 ? { rawBody: body } : {}),
      });
      const { 'content-length': _length, 'transfer-encoding': _encoding, ...sent } = answer.headers;
      res.writeHead(answer.status, sent).end(answer.text);
    });
  });
  gateway.listen(0, '127.0.0.1');
  await once(gateway, 'listening');
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  gateway?.close();
  await h?.close();
  await target?.close();
});

const call = (method: string, path: string, body?: unknown) => adminCall(h, method, path, body);

/** The region's probe function as Lambda invokes it, its location key in the (stand-in) secret. */
function regionFunction(locationKey: string) {
  const powertools = createPowertoolsLogger({ level: 'silent' });
  const handler = createProbeRegionLambda({
    regionHandler: createRegionHandler({
      config: {
        agentUrl: gatewayUrl,
        locationKeySecret: SECRET_ID,
        allowPrivateTargets: true,
        region: 'eu-west-1',
      },
      readSecret: async (secretId) => (secretId === SECRET_ID ? locationKey : undefined),
      clock: systemClock,
      logger: fromPowertools(powertools),
      run: { leaseForMs: LEASE_FOR_MS, stopMarginMs: 1000 },
    }),
    powertools,
  });
  return async () =>
    (await handler(
      { scheduled_time: new Date().toISOString() },
      lambdaContext('vigil-probe-region'),
    )) as RegionRunAnswer;
}

describe('a located check on the cloud runtime', () => {
  it('is probed by its region’s probe function: leased from the api, its result decides the slot and moves the entity', async () => {
    const location = await call('POST', '/v1/locations', { name: 'eu-west-1', kind: 'aws_region' });
    await call('POST', '/v1/blueprints', { slug: 'svc', name: 'Service' });
    const entity = await call('POST', '/v1/blueprints/svc/entities', { slug: 'intranet', name: 'Intranet' });
    const check = await call('POST', '/v1/checks', {
      entity_id: entity.id,
      check_type: 'http',
      target_url: target.url,
      interval_seconds: 86_400,
      locations: ['eu-west-1'],
    });
    const checkId = String(check.id);

    const run = await h.request('POST', `/v1/checks/${checkId}/run`, { key: h.adminKey });
    expect(run.status, run.text).toBe(202);
    expect(run.body).toMatchObject({ status: 'dispatched', check_id: checkId });
    await h.runProbeJobs();
    expect(target.hits()).toBe(0);

    const answer = await regionFunction(String(location.key))();

    expect(answer).toEqual({ leased: 1, answered: 1, unsent: 0, refused: false });
    expect(target.hits()).toBe(1);
    const { results } = await call('GET', `/v1/checks/${checkId}/results`);
    expect(results).toEqual([
      expect.objectContaining({
        success: true,
        manual: true,
        locations: [expect.objectContaining({ location: 'eu-west-1', outcome: 'up', status_code: 200 })],
      }),
    ]);
    await h.drainChanges();
    expect((await call('GET', '/v1/blueprints/svc/entities/intranet')).state).toBe('up');
    // The next minute's run finds nothing left to probe.
    expect(await regionFunction(String(location.key))()).toMatchObject({ leased: 0, unsent: 0 });
    expect(target.hits()).toBe(1);
    expect(h.probeSqs.deadLetterBodies()).toEqual([]);
  });
});
