import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, startHttpsServer, type TestHttpServer } from '../probes/support/http-server.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { ALLOW_ADVICE, mapResolver } from '../support/egress-names.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';

/**
 * An action pointed at the user's own machine or LAN (issue 25, item 4): the refusal at create or
 * update (400 at `url`) and at run time (a blocked execution) names the setting that would allow
 * the address, VIGIL_EGRESS_ALLOW (the CDK context vigil:egressAllow in the cloud); an HTTPS
 * endpoint whose certificate comes from the user's own CA fails naming NODE_EXTRA_CA_CERTS.
 * Actions take http:// to any allowed host (SPEC.md "Actions": http or https).
 */

const names = new Map<string, string>([
  ['deploy.lan.test', '127.0.0.1'],
  ['nas.lan.test', '192.168.1.20'],
]);
const resolve = mapResolver(names);

const ALLOW = ALLOW_ADVICE;

describe.each(runtimes)(
  'action destinations on your own network ($runtime runtime)',
  ({ runtime, start }) => {
    let api: ApiHarness;
    let plain: TestHttpServer;
    let selfSigned: TestHttpServer;
    const call = (method: string, path: string, body?: unknown) =>
      api.request(method, path, { key: api.adminKey, body });

    beforeAll(async () => {
      plain = await startHttpServer();
      // Issued by a test CA the runtime is not given: only NODE_EXTRA_CA_CERTS would make it trusted.
      selfSigned = await startHttpsServer(createTlsFixtures().valid);
      api = await start({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' }, egress: { resolve } });
    });
    afterAll(async () => {
      await api.close();
      await plain.close();
      await selfSigned.close();
    });

    it('refuses a private URL at create and at update, naming the setting and the range to allow', async () => {
      const created = await call('POST', '/v1/actions', {
        name: 'Reboot NAS',
        url: 'http://nas.lan.test/reboot',
      });
      expect(created.status, created.text).toBe(400);
      expect(created.body.details).toEqual([
        {
          path: 'url',
          message: `nas.lan.test resolves to 192.168.1.20, a private address; Vigil sends to private or loopback addresses ${ALLOW[runtime]('192.168.1.20/32')}`,
        },
      ]);

      const ok = await call('POST', '/v1/actions', {
        name: 'Deploy',
        url: `http://deploy.lan.test:${plain.port}/ok`,
      });
      expect(ok.status, ok.text).toBe(201);
      const moved = await call('PUT', `/v1/actions/${ok.body.id}`, { url: 'https://[fd00::7]/deploy' });
      expect(moved.status, moved.text).toBe(400);
      expect(moved.body.details).toEqual([
        {
          path: 'url',
          message: `fd00::7 is a private address; Vigil sends to private or loopback addresses ${ALLOW[runtime]('fd00::7/128')}`,
        },
      ]);
      expect((await call('GET', `/v1/actions/${ok.body.id}`)).body.url).toBe(
        `http://deploy.lan.test:${plain.port}/ok`,
      );
    });

    it('runs an http:// action in the allowed range, and blocks a run whose filled host is private, naming the setting', async () => {
      const allowed = await call('POST', '/v1/actions', {
        name: 'Local',
        url: `http://127.0.0.1:${plain.port}/ok`,
      });
      const ran = await call('POST', `/v1/actions/${allowed.body.id}/run`);
      expect(ran.status, ran.text).toBe(200);
      expect(ran.body).toMatchObject({ dispatch_status: 'success', status_code: 200 });

      const templated = await call('POST', '/v1/actions', { name: 'Any host', url: 'http://{{host}}/x' });
      expect(templated.status, templated.text).toBe(201);
      const blocked = await call('POST', `/v1/actions/${templated.body.id}/run`, {
        vars: { host: '10.9.9.9' },
      });
      expect(blocked.status, blocked.text).toBe(200);
      expect(blocked.body).toMatchObject({
        dispatch_status: 'blocked',
        error_message: `blocked: 10.9.9.9 is a private address; Vigil sends to private or loopback addresses ${ALLOW[runtime]('10.9.9.9/32')}`,
      });
    });

    it('fails a run against an HTTPS endpoint of an unknown CA, naming NODE_EXTRA_CA_CERTS', async () => {
      const action = await call('POST', '/v1/actions', { name: 'Own CA', url: `${selfSigned.origin}/ok` });
      expect(action.status, action.text).toBe(201);
      const ran = await call('POST', `/v1/actions/${action.body.id}/run`);
      expect(ran.body).toMatchObject({
        dispatch_status: 'failed',
        error_message:
          "certificate issued by an unknown CA; if the receiver uses a self-signed certificate or one from your own CA, start Vigil with NODE_EXTRA_CA_CERTS set to that CA's certificate file (PEM)",
      });
    });
  },
);
