import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server answering Healthchecks' Management API v3 as documented (templates/docs/api.md,
 * hc/api/models.py Check.to_dict and Channel.to_dict): GET /api/v3/checks/ → {checks: [...]},
 * GET /api/v3/channels/ → {channels: [{id, name, kind}]}, both with the project's key in
 * X-Api-Key (401 otherwise); a read-only key lists checks without ping URLs and gets 401 on
 * channels, as Healthchecks answers it.
 */
export const KEY = 'hc-read-write-key-0000000000000000';
export const READ_ONLY_KEY = 'hc-read-only-key-00000000000000000';
const SITE = 'http://127.0.0.1';
const CODE = '5f3ce1a0-2e7b-4c1d-9a1e-7f1c2b3d4e5f';

const CHANNELS = [
  { id: '4ec5a071-2d08-4baa-898a-eb4eb3cd6941', name: 'Ops Slack', kind: 'slack' },
  { id: '746a083e-f542-4554-be1a-707ce16d3acc', name: 'Ops Email', kind: 'email' },
  { id: '0a1b2c3d-0000-4000-8000-000000000001', name: '', kind: 'pd' },
  { id: '0a1b2c3d-0000-4000-8000-000000000002', name: 'Zulip stream', kind: 'zulip' },
];

function checks(readOnly: boolean) {
  const urls = (code: string) =>
    readOnly
      ? { unique_key: 'a6c7b0a8a66bed0df66abfdab3c77736861703ee' }
      : {
          ping_url: `https://hc-ping.com/${code}`,
          update_url: `${SITE}/api/v3/checks/${code}`,
          pause_url: `${SITE}/api/v3/checks/${code}/pause`,
          resume_url: `${SITE}/api/v3/checks/${code}/resume`,
          channels: `${CHANNELS[0]?.id},${CHANNELS[2]?.id},${CHANNELS[3]?.id}`,
        };
  const common = {
    n_pings: 3,
    status: 'up',
    started: false,
    last_ping: '2026-11-20T03:00:02+00:00',
    next_ping: '2026-11-21T03:00:02+00:00',
    manual_resume: false,
    methods: '',
    subject: '',
    subject_fail: '',
    start_kw: '',
    success_kw: '',
    failure_kw: '',
    filter_subject: false,
    filter_body: false,
  };
  return [
    {
      ...common,
      name: 'Nightly backup',
      slug: 'nightly-backup',
      tags: 'prod db',
      desc: 'pg_dump to S3',
      grace: 900,
      schedule: '15 3 * * *',
      tz: 'Europe/Berlin',
      ...urls(CODE),
    },
    {
      ...common,
      name: 'Queue worker',
      slug: 'queue-worker',
      tags: '',
      desc: '',
      grace: 300,
      timeout: 3600,
      status: 'paused',
      manual_resume: true,
      methods: 'POST',
      ...urls('7a1c9e52-8b1d-4f3a-a4c6-2e9d0b7f5c31'),
    },
    {
      ...common,
      name: 'Weekly report',
      slug: '',
      tags: 'reports',
      desc: '',
      grace: 3600,
      schedule: 'Mon *-*-* 09:00:00',
      tz: 'UTC',
      filter_subject: true,
      success_kw: 'SUCCESS',
      ...urls('9b2d0f63-9c2e-4a4b-b5d7-3fae1c8a6d42'),
    },
  ];
}

/** A server the test closes after each case (closeAllConnections, then close). */
export interface Closable {
  close(): void;
  closeAllConnections(): void;
}

/** Starts the server on 127.0.0.1 and adds it to `servers`, which the test closes after each case. */
export async function healthchecksServer(servers: Closable[]) {
  const requests: { path: string; key: string | undefined }[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const key = req.headers['x-api-key'] as string | undefined;
    const path = req.url ?? '';
    requests.push({ path, key });
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (key !== KEY && key !== READ_ONLY_KEY) return json(401, { error: 'wrong api key' });
    if (req.method === 'GET' && path === '/api/v3/checks/')
      return json(200, { checks: checks(key === READ_ONLY_KEY) });
    if (req.method === 'GET' && path === '/api/v3/channels/') {
      return key === KEY ? json(200, { channels: CHANNELS }) : json(401, { error: 'wrong api key' });
    }
    json(404, { error: 'not found' });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}
