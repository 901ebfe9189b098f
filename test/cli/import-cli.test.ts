import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { gatusImporter } from '../../lib/importers/gatus.ts';
import { importKuma, kumaImporter } from '../../lib/importers/kuma.ts';
import { buildKumaDatabase } from '../fixtures/kuma/kuma-db-fixture.ts';
import { EXTRAS } from '../importers/kuma-extras.ts';
import { childOutput, type Exited } from './child-output.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURE = join(root, 'test', 'fixtures', 'gatus', 'config.yaml');
const KUMA_BACKUP = join(root, 'test', 'fixtures', 'kuma', 'backup.json');

/** `npm run vigil -- import <args>` as a process (what `npm run vigil` runs: tsx bin/vigil.ts). */
function vigilImport(args: string[], env: Record<string, string> = {}): Promise<Exited> {
  const child = spawn(process.execPath, ['bin/vigil.ts', 'import', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HEALTHCHECKS_API_KEY: '', ...env },
  });
  return childOutput(child).exited;
}

const servers: { close(): void; closeAllConnections(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** What the command writes on stderr for a conversion's unmapped lines. */
const unmappedText = (unmapped: string[]) =>
  `Not mapped (${unmapped.length}):\n${unmapped.map((line) => `  ${line}\n`).join('')}`;

describe('vigil import (the process)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vigil-import-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a Gatus config as a YAML document to stdout and the unmapped lines to stderr', async () => {
    const res = await vigilImport(['gatus', FIXTURE]);

    expect(res.code, res.stderr).toBe(0);
    const expected = gatusImporter.convert(readFileSync(FIXTURE, 'utf8'));
    expect(parse(res.stdout)).toEqual(expected.document);
    expect(res.stderr).toBe(unmappedText(expected.unmapped));
    expect(res.stderr).toContain('  endpoints[7].url: Vigil has no check for wss:// endpoints');
    // YAML anchors would make the document harder to review: shared policies are written out.
    expect(res.stdout).not.toMatch(/[&*]a\d/);
  });

  it('writes an Uptime Kuma backup as a YAML document, its secrets as environment references', async () => {
    const res = await vigilImport(['kuma', KUMA_BACKUP]);

    expect(res.code, res.stderr).toBe(0);
    const expected = kumaImporter.convert(readFileSync(KUMA_BACKUP, 'utf8'));
    expect(parse(res.stdout)).toEqual(expected.document);
    expect(res.stderr).toBe(unmappedText(expected.unmapped));
    expect(res.stderr).toContain('  monitor "Mongo" (type mongodb): Vigil has no mongodb check');
    expect(res.stdout).toContain(`\${KUMA_OPS_SLACK_URL}`);
    // The backup's secrets stay in the backup.
    expect(res.stdout).not.toContain('SLACKSECRET0001');
  });

  it('reads an Uptime Kuma database (kuma.db) by its first bytes, with its maintenance and status pages', async () => {
    const path = join(dir, 'kuma.db');
    buildKumaDatabase(path, JSON.parse(readFileSync(KUMA_BACKUP, 'utf8')), EXTRAS);

    const res = await vigilImport(['kuma', path]);

    expect(res.code, res.stderr).toBe(0);
    const expected = await importKuma(path);
    const document = parse(res.stdout);
    expect(document).toEqual(expected.document);
    expect(document.maintenance.length).toBeGreaterThan(0);
    expect(document.status_pages.length).toBeGreaterThan(0);
    expect(res.stderr).toBe(unmappedText(expected.unmapped));
    expect(res.stderr).toContain(
      'status page "status": the slug is reserved in Vigil; the page becomes kuma-status',
    );
  });

  it('exits 1 with the reason on a file it cannot read, and 2 with the usage on bad arguments', async () => {
    const missing = await vigilImport(['gatus', join(root, 'test', 'fixtures', 'gatus', 'missing.yaml')]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^vigil import: ENOENT/);

    const usage = await vigilImport(['uptimerobot', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('vigil import cannot read "uptimerobot"');
    expect(usage.stderr).toContain('vigil import healthchecks --url');

    const noKey = await vigilImport(['healthchecks', '--url', 'http://127.0.0.1:9']);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('needs --api-key (or HEALTHCHECKS_API_KEY)');
  });

  it('reads a Healthchecks project with the key from HEALTHCHECKS_API_KEY', async () => {
    const keys: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      keys.push(req.headers['x-api-key'] as string | undefined);
      res.writeHead(200, { 'content-type': 'application/json' });
      const body =
        req.url === '/api/v3/checks/'
          ? { checks: [{ name: 'Backup', slug: 'backup', tags: '', desc: '', grace: 60, timeout: 86_400 }] }
          : { channels: [] };
      res.end(JSON.stringify(body));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const res = await vigilImport(['healthchecks', '--url', url], {
      HEALTHCHECKS_API_KEY: 'hc-key-from-env',
    });

    expect(res.code, res.stderr).toBe(0);
    expect(keys).toEqual(['hc-key-from-env', 'hc-key-from-env']);
    expect(parse(res.stdout).checks).toEqual([
      {
        entity: 'healthchecks/backup',
        name: 'Backup',
        check_type: 'push',
        interval_seconds: 86_400,
        // Healthchecks has no threshold: one /fail or missed deadline is down (DECISIONS.md "Alert truth (wave 5)").
        failure_threshold: 1,
        config: { slug: 'backup', grace_seconds: 86_460 },
      },
    ]);
    expect(res.stderr).toContain('ping URLs: Vigil gives every push check its own ping URL');
  });

  it('exits 1 when Healthchecks refuses the key', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"error": "wrong api key"}');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const res = await vigilImport(['healthchecks', '--url', url, '--api-key', 'wrong']);

    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('Healthchecks refused the API key (401)');
  });
});
