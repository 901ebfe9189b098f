import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCount, expectNoConsoleErrors, expectText, screenshot } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('console actions', { timeout: 60_000 }, () => {
  let receiver: Server;
  let receiverUrl: string;
  const received: Received[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        res.writeHead(202, { 'content-type': 'text/plain' }).end(`queued ${req.url}`);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  const rig = useConsole();
  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('creates an action, runs it with a variable and shows the execution; editing keeps the secret header', async () => {
    const p = await openSignedIn(rig, { path: '/actions' });
    const { page } = p;
    await page.getByText('No actions yet.').waitFor();
    await page.getByRole('button', { name: 'New action' }).click();
    await page.getByLabel(/^Name/).fill('deploy hook');
    await page.getByLabel(/^URL/).fill(`${receiverUrl}/deploy/{{ref}}`);
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 1 name').fill('X-Deploy-Token');
    await page.getByLabel('Header 1 value').fill('s3cret');
    await page.getByLabel('Body template').fill('{"ref":"{{ref}}","action":"{{action_name}}"}');
    await page.getByRole('button', { name: 'Create action' }).click();

    await page.getByRole('heading', { name: 'deploy hook', level: 1 }).waitFor();
    expect(page.url()).toMatch(/\/actions\/act_[0-9A-Z]{26}$/);
    await expectCount(page.getByText('X-Deploy-Token: ********'), 1);

    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByLabel('Variable 1 name').fill('ref');
    await page.getByLabel('Variable 1 value').fill('release-42');
    await page.getByRole('button', { name: 'Run now' }).click();
    const result = page.getByRole('status', { name: 'Run result' });
    await expectText(result, /202/);
    await expectText(result.locator('pre'), 'queued /deploy/release-42');
    // The receiver records a request before it answers, and the run shows only after the answer.
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/deploy/release-42' });
    expect(received[0]?.headers['x-deploy-token']).toBe('s3cret');
    expect(JSON.parse(received[0]?.body ?? '')).toEqual({ ref: 'release-42', action: 'deploy hook' });

    // The execution is listed, and opens to its answer and (empty) pipeline logs.
    const rows = page.locator('table tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    await expectText(rows.first(), /manual/);
    await page.getByRole('button', { name: /^Show execution/ }).click();
    await page.getByText('No log lines').waitFor();
    await expectText(page.locator('table pre.snippet').first(), 'queued /deploy/release-42');
    await screenshot(page, 'action');

    // Editing another field sends ******** back, which keeps the stored header value.
    await page.getByRole('button', { name: 'Edit' }).click();
    await expect.poll(() => page.getByLabel('Header 1 value').inputValue({ timeout: 500 })).toBe('********');
    await page.getByLabel(/^Name/).fill('deploy hook v2');
    await page.getByRole('button', { name: 'Save action' }).click();
    await page.getByRole('heading', { name: 'deploy hook v2', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Run now' }).click();
    await expect.poll(() => received.length).toBe(2);
    expect(received[1]?.headers['x-deploy-token']).toBe('s3cret');

    await page.goto('/actions');
    await page.getByRole('link', { name: 'deploy hook v2' }).waitFor();
    await screenshot(page, 'actions');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('shows a validation error at the field', async () => {
    const p = await openSignedIn(rig, { path: '/actions' });
    const { page } = p;
    await page.getByRole('button', { name: 'New action' }).click();
    await page.getByLabel(/^Name/).fill('bad timeout');
    await page.getByLabel(/^URL/).fill(`${receiverUrl}/x`);
    await page.getByLabel('Timeout (ms)').fill('5');
    await page.getByRole('button', { name: 'Create action' }).click();
    await page.getByRole('alert').first().waitFor();
    await expect.poll(() => page.getByLabel('Timeout (ms)').getAttribute('aria-invalid')).toBe('true');
    expectNoConsoleErrors(p);
    await p.close();
  });

  it('deletes an action after asking', async () => {
    const made = await rig.api<{ id: string }>('POST', '/v1/actions', {
      name: 'to delete',
      url: `${receiverUrl}/d`,
    });
    expect(made.status).toBe(201);
    const p = await openSignedIn(rig, { path: `/actions/${made.body.id}` });
    const { page } = p;
    await page.getByRole('heading', { name: 'to delete', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Delete action' }).click();
    await page.getByRole('heading', { name: 'Actions', level: 1 }).waitFor();
    await expect.poll(async () => (await rig.api('GET', `/v1/actions/${made.body.id}`)).status).toBe(404);
    expectNoConsoleErrors(p);
    await p.close();
  });
});
