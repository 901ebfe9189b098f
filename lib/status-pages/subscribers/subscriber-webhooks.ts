import { createHmac } from 'node:crypto';
import { secretRedactor, urlSecrets } from '../../domain/redaction.ts';
import type { PageIncidentRecord } from '../items/page-incident-items.ts';
import type { StatusPageRecord } from '../items/status-page-items.ts';
import type { SubscriberRecord } from '../items/subscriber-items.ts';
import type { NoticeOutcome } from './notice-items.ts';
import type { LinkKey } from './subscriber-links.ts';

/**
 * Webhook subscribers: each update's notice POSTed as JSON, signed as webhook channels sign
 * (`x-service-signature: sha256=<hex HMAC-SHA256 of the body>`, `x-service-delivery`), through the
 * SSRF guard. Both are lib/notify's (its webhook channel's signed POST, handed in by the
 * composition as `post`). The signing secret is the subscriber's own, derived from the links' key
 * and its manage nonce (never stored): shown once its address confirmed it, or to the tenant that
 * added it. A URL is never called before the subscriber is confirmed (notices read confirmed ones only).
 */

/** A signed POST through the SSRF guard: lib/notify's webhook channel's (compose-notifier.ts). */
export type SignedPost = (
  target: { url: string; secret: string; deliveryId: string },
  body: Buffer,
) => Promise<{ ok: boolean; status_code: number | null; error?: string | null }>;

/**
 * The JSON body of one update's notice; each impacted component by id and by name (as the public
 * page names it; null for an entity deleted since), as the maintenance payload names its components.
 */
export function webhookNotice(input: {
  page: StatusPageRecord;
  pageUrl: string;
  manageUrl: string;
  incident: PageIncidentRecord;
  update: PageIncidentRecord['updates'][number];
  names: ReadonlyMap<string, string>;
}): Buffer {
  const { page, incident, update } = input;
  return Buffer.from(
    JSON.stringify({
      kind: 'page_incident_update',
      page: { slug: page.slug, title: page.title, url: input.pageUrl },
      incident: {
        id: incident.id,
        title: incident.title,
        status: incident.status,
        impact: incident.impact.map((i) => ({
          entity_id: i.entity_id,
          entity_name: input.names.get(i.entity_id) ?? null,
          level: i.level,
        })),
        started_at: incident.started_at,
        resolved_at: incident.resolved_at,
      },
      update: { id: update.id, status: update.status, body: update.body, at: update.at },
      manage_url: input.manageUrl,
    }),
    'utf8',
  );
}

const MAINTENANCE_STATUS = { announced: 'scheduled', started: 'in_progress', ended: 'completed' } as const;

/** The JSON body of a maintenance moment's notice (the public page's notice fields, and the moment). */
export function webhookMaintenanceNotice(input: {
  page: StatusPageRecord;
  pageUrl: string;
  manageUrl: string;
  name: string;
  moment: keyof typeof MAINTENANCE_STATUS;
  startMs: number;
  endMs: number;
  publicNote: string | null;
  components: string[];
}): Buffer {
  return Buffer.from(
    JSON.stringify({
      kind: 'page_maintenance',
      page: { slug: input.page.slug, title: input.page.title, url: input.pageUrl },
      maintenance: {
        name: input.name,
        moment: input.moment,
        status: MAINTENANCE_STATUS[input.moment],
        starts_at: new Date(input.startMs).toISOString(),
        ends_at: new Date(input.endMs).toISOString(),
        components: input.components,
        public_note: input.publicNote,
      },
      manage_url: input.manageUrl,
    }),
    'utf8',
  );
}

/** A URL's path and query (empty for a bare origin). */
function pathOf(url: string): string {
  if (!URL.canParse(url)) return '';
  const { pathname, search } = new URL(url);
  return pathname === '/' && search === '' ? '' : `${pathname}${search}`;
}

export function createSubscriberWebhooks(deps: { post: SignedPost | undefined; linkKey: LinkKey }) {
  /** The subscriber's signing secret (`whsec_` and 43 characters). */
  const secretOf = async (s: Pick<SubscriberRecord, 'tenant_id' | 'page' | 'id' | 'manage_nonce'>) =>
    `whsec_${createHmac('sha256', await deps.linkKey())
      .update(`webhook\0${s.tenant_id}\0${s.page}\0${s.id}\0${s.manage_nonce}`)
      .digest('base64url')}`;
  return {
    secretOf,
    async deliver(
      s: SubscriberRecord,
      body: Buffer,
      deliveryId: string,
    ): Promise<{ status: NoticeOutcome; reason: string | null }> {
      if (!deps.post || s.url === null)
        return { status: 'skipped', reason: 'no webhook sender in this process' };
      const secret = await secretOf(s);
      const outcome = await deps.post({ url: s.url, secret, deliveryId }, body);
      if (outcome.ok) return { status: 'sent', reason: null };
      // The error is stored and shown to the tenant: an answer or a connection error may echo the
      // URL's path or query (where a receiver's token lives) or the signing secret.
      const scrub = secretRedactor([secret, pathOf(s.url), ...urlSecrets(s.url)]);
      return {
        status: 'failed',
        reason: scrub(outcome.error ?? `answered ${outcome.status_code ?? 'nothing'}`),
      };
    },
  };
}

export type SubscriberWebhooks = ReturnType<typeof createSubscriberWebhooks>;
