import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoConsoleErrors, screenshot, seedEntity } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * The check form's assertions and degraded_latency_ms in Chromium against a real local runtime:
 * rows added and removed, an RE2-refused pattern shown at its row, the saved check's settings, the
 * check turning degraded on a slow target (probed by the runtime's own scheduler), and the edit
 * form loading the stored rows back.
 */

/** JSON, answered after 300 ms: slower than the check's 100 ms degraded_latency_ms. */
const target: Server = createServer((_req, res) => {
  setTimeout(() => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok' }));
  }, 300);
});

async function choose(page: Page | Locator, label: string | RegExp, option: string | { label: string }) {
  await page.getByLabel(label).selectOption(option);
}

describe('console: http assertions and degraded', { timeout: 120_000 }, () => {
  let entityId: string;
  beforeAll(async () => {
    target.listen(0, '127.0.0.1');
    await once(target, 'listening');
  });
  const rig = useConsole({
    seed: async (rig) => {
      entityId = await seedEntity(
        rig,
        { slug: 'svc', name: 'Services' },
        { slug: 'api', name: 'Public API' },
      );
    },
  });
  afterAll(async () => {
    target.close();
  });

  it('edits assertion rows, shows a refused pattern at its row, and shows the check degraded', async () => {
    const p = await openSignedIn(rig, { path: `/checks/new?entity_id=${entityId}` });
    await choose(p.page, /^Check type/, 'http');
    await p.page
      .getByLabel('Target URL')
      .fill(`http://127.0.0.1:${(target.address() as AddressInfo).port}/health`);
    await p.page.getByLabel(/^Name/).fill('API health');
    await p.page.getByLabel('Interval (seconds)').fill('2');
    await p.page.getByLabel('Degraded above (ms)').fill('100');

    // Two rows, the second removed again.
    await p.page.getByRole('button', { name: 'Add assertion' }).click();
    await p.page.getByRole('button', { name: 'Add assertion' }).click();
    const row = (n: number) => p.page.getByRole('group', { name: `Assertion ${n}` });
    await row(2).waitFor();
    await p.page.getByRole('button', { name: 'Remove assertion 2' }).click();
    await expect.poll(() => row(2).count()).toBe(0);

    // A pattern RE2 cannot run: refused, and the message shows at its row.
    await choose(row(1), 'Source', 'body');
    await choose(row(1), 'Operator', 'matches');
    await row(1).getByLabel('Value').fill('(ok)\\1');
    await p.page.getByRole('button', { name: 'Create check' }).click();
    await row(1)
      .getByText(/is not a supported regular expression/)
      .waitFor();
    await expect.poll(() => row(1).getByLabel('Value').getAttribute('aria-invalid')).toBe('true');

    // Fixed: a json assertion that passes.
    await choose(row(1), 'Source', 'json');
    await row(1).getByLabel('JSON path').fill('$.status');
    await choose(row(1), 'Operator', 'eq');
    await row(1).getByLabel('Value').fill('ok');
    await p.page.getByRole('button', { name: 'Create check' }).click();
    await p.page.getByRole('heading', { name: 'API health', level: 1 }).waitFor();
    const checkId = p.page.url().split('/checks/')[1] ?? '';
    expect(checkId).toMatch(/^chk_/);
    const stored = await rig.api<{ assertions: unknown[]; degraded_latency_ms: number }>(
      'GET',
      `/v1/checks/${checkId}`,
    );
    expect(stored.body).toMatchObject({
      assertions: [{ source: 'json', path: '$.status', op: 'eq', value: 'ok' }],
      degraded_latency_ms: 100,
    });
    await p.page.getByText('json $.status eq "ok"').waitFor();
    await p.page.getByText('100 ms').first().waitFor();

    // The runtime probes it: the answer passes the assertion but is slow, so the check is degraded.
    await expect
      .poll(
        async () => {
          await p.page.reload();
          return p.page.locator('.stat .badge').first().textContent({ timeout: 10_000 });
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe('degraded');
    await p.page.getByRole('table', { name: 'Recent results' }).getByText('degraded').first().waitFor();
    await p.page
      .getByRole('table', { name: 'Recent results' })
      .getByText(/latency \d+ ms is above degraded_latency_ms 100/)
      .first()
      .waitFor();
    await screenshot(p.page, 'check-degraded');

    // The edit form loads the stored rows back.
    await p.page.getByRole('button', { name: 'Edit' }).click();
    await expect.poll(() => row(1).getByLabel('JSON path').inputValue()).toBe('$.status');
    expect(await row(1).getByLabel('Value').inputValue()).toBe('ok');
    expect(await p.page.getByLabel('Degraded above (ms)').inputValue()).toBe('100');
    expectNoConsoleErrors(p);
    await p.close();
  });
});
