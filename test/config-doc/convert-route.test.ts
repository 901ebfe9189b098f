import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERT_MAX_BODY_BYTES } from '../../lib/importers/convert-route.ts';
import { ImportError, type TextImporter } from '../../lib/importers/importer.ts';
import { TEXT_IMPORTERS } from '../../lib/importers/registry.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';

/**
 * POST /v1/config/convert on both runtimes: the uploaded text goes to the importer of `?source=`
 * and its document and unmapped lines come back; an unknown source and a file the importer cannot
 * read are 400s that say why; read-only keys may convert; bodies up to 6 MiB are taken (above the
 * API's 1 MiB), larger ones are 413. The importer here is the test's own, registered for it only,
 * so the route is tested apart from the Kuma and Gatus importers (which have their own tests).
 */

const SOURCE = 'route-test';

/** Lines `monitor <name>` become entities of blueprint `service`; any other line is unmapped. */
const importer: TextImporter = {
  source: SOURCE,
  accept: '.txt',
  convert(text) {
    if (text.startsWith('broken')) throw new ImportError('line 1: not a monitor list');
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    const names = lines.filter((l) => l.startsWith('monitor ')).map((l) => l.slice('monitor '.length));
    return {
      document: {
        apiVersion: 'vigil/v1',
        kind: 'Config',
        entities: names.map((name) => ({ blueprint: 'service', slug: name, name })),
      },
      unmapped: lines.filter((l) => !l.startsWith('monitor ')).map((l) => `${l}: not a monitor`),
    };
  },
};

describe.each(runtimes)('POST /v1/config/convert ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let readOnlyKey: string;

  const convert = (source: string, text: string | Buffer, key = api.adminKey) =>
    api.request('POST', `/v1/config/convert?source=${source}`, {
      key,
      rawBody: text,
      headers: { 'content-type': 'text/plain' },
    });

  beforeAll(async () => {
    TEXT_IMPORTERS[SOURCE] = importer;
    api = await start();
    const res = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'reader', is_read_only: true },
    });
    readOnlyKey = res.body.key;
  });
  afterAll(async () => {
    delete TEXT_IMPORTERS[SOURCE];
    await api?.close();
  });

  it("answers the importer's document and unmapped lines, for a read-only key too", async () => {
    const res = await convert(SOURCE, 'monitor api\nping db\nmonitor web\n', readOnlyKey);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      document: {
        apiVersion: 'vigil/v1',
        kind: 'Config',
        entities: [
          { blueprint: 'service', slug: 'api', name: 'api' },
          { blueprint: 'service', slug: 'web', name: 'web' },
        ],
      },
      unmapped: ['ping db: not a monitor'],
    });
  });

  it('refuses an unknown source naming the known ones, and an unreadable file with its reason', async () => {
    const unknown = await convert('nagios', 'monitor api');
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([{ path: 'source', message: expect.stringContaining(SOURCE) }]);
    const inherited = await convert('constructor', 'monitor api');
    expect(inherited.status).toBe(400);
    const broken = await convert(SOURCE, 'broken file');
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe(`${SOURCE}: line 1: not a monitor list`);
  });

  it('takes a file above the 1 MiB API limit up to 6 MiB, and refuses a larger one with 413', async () => {
    const line = 'monitor x\n';
    const big = line.repeat(Math.floor((2 * 1024 * 1024) / line.length));
    const taken = await convert(SOURCE, big);
    expect(taken.status).toBe(200);
    expect(taken.body.document.entities.length).toBe(big.length / line.length);
    const tooBig = await convert(SOURCE, Buffer.alloc(CONVERT_MAX_BODY_BYTES + 1, 'a'));
    expect(tooBig.status).toBe(413);
  });

  it('still holds other routes to 1 MiB', async () => {
    const res = await api.request('POST', '/v1/blueprints', {
      key: api.adminKey,
      rawBody: JSON.stringify({ slug: 'big', name: 'x'.repeat(1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
  });
});
