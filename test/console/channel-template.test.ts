import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { expectNoConsoleErrors, screenshot } from './support.ts';
import { openSignedIn, useConsole } from './use-console.ts';

/**
 * A shared channel's message template in the console (docs/notifications.md "Message templates"):
 * an unknown field shows its sentence at the field as typed (the preview route refuses it), a good
 * template shows its preview with the made-up event, the channel is saved with it, and its test
 * message reaches an ntfy-style receiver with the rendered title.
 */

const tmp = mkdtempSync(join(tmpdir(), 'vigil-console-channel-template-'));
const tls = createTlsFixtures();
const caFile = join(tmp, 'test-ca.pem');
writeFileSync(caFile, tls.caCert);
const received: { path: string; title: string | undefined; body: string }[] = [];
const receiver: HttpsServer = createHttpsServer(tls.valid, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const title = req.headers.title;
    received.push({
      path: req.url ?? '',
      title: typeof title === 'string' ? title : undefined,
      body: Buffer.concat(chunks).toString(),
    });
    res.writeHead(200).end('{}');
  });
});
const topicUrl = () => `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/alerts`;

describe('console message templates', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
  });
  const rig = useConsole({ env: { NODE_EXTRA_CA_CERTS: caFile } });
  afterAll(async () => {
    receiver.closeAllConnections();
    receiver.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('previews a template as typed, shows a bad field’s sentence, saves it and sends it', async () => {
    const p = await openSignedIn(rig, { path: '/channels' });
    const form = p.page.getByRole('form', { name: 'New shared channel' });
    await form.getByLabel(/^Name/).fill('Phone');
    await form.getByLabel(/^Channel type/).selectOption('ntfy');
    await form.getByLabel(/^URL/).fill(topicUrl());

    const title = form.getByLabel('Title template');
    await title.fill('Hi {{entity}}');
    await expect.poll(() => title.getAttribute('aria-invalid')).toBe('true');
    await form.getByText(/\{\{entity\}\} is not a field: use entity_name, /).waitFor();

    await title.fill('[{{to_state}}] {{entity_name}}');
    await form
      .getByLabel('Body template')
      .fill('{{check_name}}{{#last_error}}: {{last_error}}{{/last_error}}');
    const preview = form.getByRole('status', { name: 'Template preview' });
    await preview.getByText('[down] Checkout API').waitFor();
    await preview.getByText('Health endpoint: connect ECONNREFUSED 203.0.113.10:443').waitFor();
    expect(await title.getAttribute('aria-invalid')).toBeNull();
    await screenshot(p.page, 'channel-template');

    await form.getByRole('button', { name: 'Create channel' }).click();
    await p.page.getByText('The shared channel Phone was created.').waitFor();
    const stored = await rig.api<{ channels: { name?: string; template?: unknown }[] }>(
      'GET',
      '/v1/notify/channels?limit=200',
    );
    expect(stored.body.channels.find((c) => c.name === 'Phone')?.template).toEqual({
      title: '[{{to_state}}] {{entity_name}}',
      body: '{{check_name}}{{#last_error}}: {{last_error}}{{/last_error}}',
    });

    await p.page.getByRole('button', { name: 'Send test to Phone' }).click();
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]).toMatchObject({ path: '/alerts', title: 'Test: [down] Checkout API' });
    expect(received[0]?.body).toContain('Health endpoint: connect ECONNREFUSED 203.0.113.10:443');

    // Edit: a new title is sent; emptying both fields removes the template.
    const templateOf = async () =>
      (
        await rig.api<{ channels: { name?: string; template?: unknown }[] }>(
          'GET',
          '/v1/notify/channels?limit=200',
        )
      ).body.channels.find((c) => c.name === 'Phone')?.template;
    await p.page.getByRole('button', { name: 'Edit Phone' }).click();
    let edit = p.page.getByRole('form', { name: 'Edit Phone' });
    expect(await edit.getByLabel('Title template').inputValue()).toBe('[{{to_state}}] {{entity_name}}');
    await edit.getByLabel('Title template').fill('{{entity_name}} ({{kind}})');
    await edit.getByRole('status', { name: 'Template preview' }).getByText('Checkout API (alert)').waitFor();
    await edit.getByRole('button', { name: 'Save Phone' }).click();
    // The form closes once the list is read again: an Edit pressed before then would be closed by it.
    await p.page.getByText('The shared channel Phone was saved.').waitFor();
    await expect.poll(templateOf).toEqual({
      title: '{{entity_name}} ({{kind}})',
      body: '{{check_name}}{{#last_error}}: {{last_error}}{{/last_error}}',
    });
    await p.page.getByRole('button', { name: 'Edit Phone' }).click();
    edit = p.page.getByRole('form', { name: 'Edit Phone' });
    await edit.getByLabel('Title template').fill('');
    await edit.getByLabel('Body template').fill('');
    await edit.getByRole('button', { name: 'Save Phone' }).click();
    await p.page.getByText('The shared channel Phone was saved.').waitFor();
    await expect.poll(templateOf).toBeUndefined();
    expectNoConsoleErrors(p);
  });
});
