import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEmailSender } from '../../../lib/domain/formats/email-address.ts';
import type { ChannelSendDeps } from '../../../lib/notify/channels/definition.ts';
import { createNatsPublisher } from '../../../lib/notify/channels/nats.ts';
import { channelDefinition } from '../../../lib/notify/channels/registry.ts';
import { TEMPLATE_CHANNEL_TYPES } from '../../../lib/notify/channels/template-types.ts';
import { systemClock } from '../../../lib/platform/clock.ts';
import { createLogger } from '../../../lib/platform/logger.ts';
import type { OutgoingEmail } from '../../../lib/providers/email.ts';
import { sampleAlert } from './alert-fixture.ts';

/**
 * Every human-facing channel type sends a channel's template: each definition's `send` builds its
 * message with messageFor, so the rendered title and body (and not Vigil's lines) reach the
 * receiver, a plain HTTP server on 127.0.0.1 (allowed by the egress allow-list) or the email
 * transport.
 */

const received: string[] = [];
let server: Server;
let origin: string;
const emails: OutgoingEmail[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(`${JSON.stringify(req.headers)}\n${Buffer.concat(chunks).toString()}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
});

/** A config each human-facing type accepts, pointing at the local receiver. */
const CONFIGS: Record<string, () => object> = {
  slack: () => ({ url: `${origin}/slack` }),
  discord: () => ({ url: `${origin}/discord` }),
  ntfy: () => ({ url: `${origin}/ntfy` }),
  email: () => ({ to: ['ops@example.com'] }),
};

const TEMPLATE = { title: 'TPL {{entity_name}} {{to_state}}', body: 'BODY {{check_name}} / {{last_error}}' };

describe('templated messages of every human-facing channel type', () => {
  const deps = (): ChannelSendDeps => ({
    http: { egressAllow: ['127.0.0.0/8'], runtime: 'local' },
    publicUrl: undefined,
    email: {
      transport: {
        async send(email) {
          emails.push(email);
          return { ok: true, status_code: null, error: null };
        },
      },
      from: parseEmailSender('vigil@example.com'),
      publicUrl: undefined,
      runtime: 'local',
    },
    nats: createNatsPublisher({ natsUrls: [], logger: createLogger({ level: 'error' }) }),
    natsPrefix: 'vigil',
    runtime: 'local',
    clock: systemClock,
  });

  it.each(Object.keys(CONFIGS))('%s sends the rendered title and body, not Vigil’s lines', async (type) => {
    expect(TEMPLATE_CHANNEL_TYPES).toContain(type);
    const definition = channelDefinition(type);
    const config = definition.stored.parse(CONFIGS[type]?.());
    const channel = {
      id: 'chn_1',
      tenant_id: 'tnt_01JTEST',
      check_id: 'chk_01JTEST',
      config,
      template: TEMPLATE,
    };
    const before = received.length + emails.length;
    const outcome = await definition.send(deps(), channel, sampleAlert());
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    const sent = [...received, ...emails.map((e) => JSON.stringify(e))].slice(before).join('\n');
    expect(sent).toContain('TPL Payments API down');
    expect(sent).toContain('BODY Payments health / the endpoint answered 503');
    // The default facts are replaced.
    expect(sent).not.toContain('Target');
    // Slack shows the body as its section beside the state's emoji, not as a context line.
    if (type === 'slack') expect(sent).toContain(':red_circle: BODY Payments health');
  });
});
