import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resolveEnvReferences } from '../../lib/config-doc/secrets.ts';
import type { Resolve } from '../../lib/egress/egress-guard.ts';
import { gatusImporter } from '../../lib/importers/gatus.ts';
import { importHealthchecks } from '../../lib/importers/healthchecks.ts';
import type { Conversion } from '../../lib/importers/importer.ts';
import { importKuma, kumaImporter } from '../../lib/importers/kuma.ts';
import { buildKumaDatabase } from '../fixtures/kuma/kuma-db-fixture.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { type Closable, healthchecksServer, KEY } from './healthchecks-server.ts';
import { EXTRAS } from './kuma-extras.ts';

/**
 * Each importer end to end: its fixture converted, the `${ENV}` references it makes given test
 * values (as `vigil plan` and `vigil apply` would read them from the environment), the document
 * planned (only creates, exactly as many per list as the importer made), applied (every object
 * applied, none failed) and planned again (nothing: the applied tenant reads back as the
 * document). A refused object here is a bug of the importer or of the kind it feeds.
 */

type Doc = Record<string, unknown>;
interface Change {
  op: string;
  kind: string;
  id: string;
  status?: string;
  error?: unknown;
}

const fixture = (path: string) => new URL(`../fixtures/${path}`, import.meta.url);
const BACKUP_TEXT = readFileSync(fixture('kuma/backup.json'), 'utf8');
const GATUS_TEXT = readFileSync(fixture('gatus/config.yaml'), 'utf8');

/**
 * A value each channel type and header accepts for the secret a name stands for. URLs are
 * loopback ones (the scheduler and the notifier do not run, so none is called).
 */
function envValue(name: string): string {
  if (name.endsWith('_URL')) return `http://127.0.0.1:9/${name.toLowerCase()}`;
  if (name.endsWith('TELEGRAM_BOT_TOKEN') || name.endsWith('TELEGRAM_TOKEN'))
    return '123456789:AAbbCCddEEffGGhhIIjjKKllMMnn';
  if (name.includes('PUSHOVER')) return 'abcdefghijklmnopqrstuvwxyz0123';
  if (name.includes('PAGERDUTY') || name.includes('_PD_')) return '0123456789abcdef0123456789abcdef';
  if (name.endsWith('_EMAIL_TO')) return 'ops@example.com';
  if (name.endsWith('BASIC_AUTH')) return 'Basic a3VtYTpwYXNz';
  if (name.endsWith('AUTHORIZATION')) return 'Bearer token-0123456789abcdef';
  return 'Token-0123456789abcdef';
}

/** The document with every `${ENV}` it makes resolved, as the CLI sends it. */
function resolved({ document }: Conversion): Doc {
  const names = [...JSON.stringify(document).matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]);
  const env = Object.fromEntries(names.map((name) => [name, envValue(name as string)]));
  const { value, missing } = resolveEnvReferences(document, env);
  expect(missing).toEqual([]);
  expect(JSON.stringify(value)).not.toMatch(/\$\{/);
  return value;
}

/** How many objects each list of the document holds (the lists it has). */
const listCounts = (document: Doc) =>
  Object.fromEntries(
    Object.entries(document)
      .filter(([, value]) => Array.isArray(value))
      .map(([key, value]) => [key, (value as unknown[]).length]),
  );

function countByKind(changes: Change[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const change of changes) counts[change.kind] = (counts[change.kind] ?? 0) + 1;
  return counts;
}

/** A resolver that answers 127.0.0.1 for every host name (no test reaches a real one). */
const LOOPBACK: Resolve = async () => [{ address: '127.0.0.1', family: 4 }];

const servers: Closable[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** The icmp checks of a document: AWS Lambda has no raw sockets, so the lambda runtime refuses them. */
const icmpChecks = (document: Doc) =>
  (document.checks as Doc[])
    .filter((check) => check.check_type === 'icmp')
    .map((check) => `${check.entity}:${check.name}`);

describe.each(bothRuntimes)(
  'an imported document planned and applied ($runtime runtime)',
  ({ runtime, start }) => {
    let api: ApiHarness;
    let dir: string;
    const post = (path: string, key: string, body: unknown) => api.request('POST', path, { key, body });

    beforeAll(async () => {
      // The channels judge their hosts when created (api.telegram.org, the fixtures' own
      // gotify.example.com, ...): every name resolves to 127.0.0.1, which the guard allows here.
      // Nothing is called: the scheduler and the notifier do not run.
      api = await start({ env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' }, egress: { resolve: LOOPBACK } });
      dir = mkdtempSync(join(tmpdir(), 'vigil-import-apply-'));
    }, 120_000);
    afterAll(async () => {
      await api?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    /**
     * Plans, applies and plans again `document` in a new tenant; answers the first plan's counts.
     * On the lambda runtime the API refuses icmp checks (and only those): they fail with its
     * reason, and the second plan holds exactly their creates.
     */
    async function planApplyReplan(name: string, document: Doc): Promise<Record<string, number>> {
      const refused = runtime === 'lambda' ? icmpChecks(document) : [];
      const { key } = await api.createTenant(name);
      const plan = await post('/v1/config/plan', key, document);
      expect(plan.status, plan.text).toBe(200);
      const planned = plan.body.changes as Change[];
      expect(planned.filter((c) => c.op !== 'create')).toEqual([]);

      const applied = await post('/v1/config/apply', key, document);
      expect(applied.status, applied.text).toBe(200);
      const changes = applied.body.changes as Change[];
      expect(changes.filter((c) => c.status !== 'applied')).toEqual(
        refused.map((id) => ({
          op: 'create',
          kind: 'checks',
          id,
          status: 'failed',
          error: expect.stringContaining('icmp checks need raw network access'),
        })),
      );
      expect(applied.body.summary.failed, applied.text).toBe(refused.length);
      // Apply may order the objects of a list differently from the plan; it applies the same ones.
      const ids = (list: Change[]) => list.map((c) => `${c.op} ${c.kind} ${c.id}`).sort();
      expect(ids(changes)).toEqual(ids(planned));

      const again = await post('/v1/config/plan', key, document);
      expect(again.status, again.text).toBe(200);
      expect(again.body.changes).toEqual(refused.map((id) => ({ op: 'create', kind: 'checks', id })));
      return countByKind(planned);
    }

    it('applies an Uptime Kuma backup', async () => {
      const document = resolved(kumaImporter.convert(BACKUP_TEXT));
      // The upside-down monitor is left out (no entity, no check); "API" keeps its 200-299.
      const counts = { blueprints: 1, entities: 9, relations: 2, channels: 14, checks: 8 };
      expect(listCounts(document)).toMatchObject(counts);
      expect(await planApplyReplan('kuma backup', document)).toEqual(counts);
    }, 120_000);

    it('applies an Uptime Kuma database (kuma.db), with its maintenance and status pages', async () => {
      const path = join(dir, 'kuma.db');
      buildKumaDatabase(path, JSON.parse(BACKUP_TEXT), EXTRAS);
      const document = resolved(await importKuma(path));
      const counts = {
        blueprints: 1,
        entities: 9,
        relations: 2,
        channels: 14,
        checks: 8,
        maintenance: 4,
        status_pages: 2,
      };
      expect(listCounts(document)).toEqual(counts);
      expect(await planApplyReplan('kuma db', document)).toEqual(counts);
    }, 120_000);

    it('applies a Gatus configuration', async () => {
      const document = resolved(gatusImporter.convert(GATUS_TEXT));
      const counts = { blueprints: 1, entities: 7, channels: 5, checks: 11, maintenance: 1 };
      expect(listCounts(document)).toEqual(counts);
      expect(await planApplyReplan('gatus', document)).toEqual(counts);
    }, 120_000);

    it('applies a Healthchecks project', async () => {
      const hc = await healthchecksServer(servers);
      const document = resolved(await importHealthchecks({ url: hc.url, apiKey: KEY }));
      const counts = { blueprints: 1, entities: 3, channels: 3, checks: 3 };
      expect(listCounts(document)).toEqual(counts);
      expect(await planApplyReplan('healthchecks', document)).toEqual(counts);
    }, 120_000);
  },
);
