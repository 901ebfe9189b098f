import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import * as z from 'zod';
import { type Clock, isoTime } from '../../platform/clock.ts';
import {
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from '../../platform/errors.ts';
import { deleteHeld } from '../../store/held-writes.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { getPageIncident } from '../items/page-incident-items.ts';
import { getStatusPage } from '../items/status-page-items.ts';
import {
  addressHash,
  countSubscribers,
  getSubscriber,
  listSubscribers,
  SUBSCRIBER_LIMITS,
  type SubscriberRecord,
  type SubscriberState,
  subscriberCreatedOp,
  subscriberDeletedOp,
  subscriberId,
} from '../items/subscriber-items.ts';
import { readFailedNotices, readTallies } from './notice-items.ts';
import type { SubscribeService } from './subscribe-service.ts';
import { newNonce } from './subscriber-links.ts';
import type { SubscriberWebhooks } from './subscriber-webhooks.ts';

/**
 * A page's subscribers as its tenant manages them (keyed routes: members write, read-only keys
 * read, another tenant's page is 404): list and export (CSV), remove, import addresses from a CSV
 * (each becomes pending and gets a confirmation email, within the same quotas as the public form),
 * add a webhook subscriber directly (the tenant vouches for its URL: confirmed at once), and read
 * each update's notice outcomes.
 */

/** Import bounds: bytes of CSV and rows. */
export const IMPORT_LIMITS = { bytes: 256 * 1024, rows: 1000 } as const;

/** Failed notices listed per update (the update's `failed` counts them all). */
export const FAILURES_SHOWN = 100;

/** A webhook URL's origin (scheme, host, port): what identifies it without the path a token may be in. */
const originOf = (url: string | null) => (url !== null && URL.canParse(url) ? new URL(url).origin : null);

/** What the tenant sees of a subscriber (its link nonces never). */
function subscriberView(s: SubscriberRecord) {
  return {
    id: s.id,
    page: s.page,
    kind: s.kind,
    address: s.address === '' ? null : s.address,
    url: s.url,
    components: s.components,
    state: s.state,
    source: s.source,
    created_at: s.created_at,
    confirmed_at: s.confirmed_at,
  };
}

const emailSchema = z.email().max(SUBSCRIBER_LIMITS.address);

export function createSubscriberAdmin(deps: {
  table: Table;
  clock: Clock;
  subscribe: SubscribeService;
  webhooks: Pick<SubscriberWebhooks, 'secretOf'>;
}) {
  const { table } = deps;
  const requirePage = async (tenantId: string, slug: string) => {
    const page = await getStatusPage(table, tenantId, slug);
    if (!page) throw new NotFoundError('status page');
    return page;
  };

  /** The failed notices of one update, each with what the tenant knows its subscriber by. */
  const failuresOf = async (tenantId: string, slug: string, updateId: string) => {
    const failed = await readFailedNotices(table, tenantId, updateId, FAILURES_SHOWN);
    const subscribers = await Promise.all(
      failed.map((f) => getSubscriber(table, tenantId, slug, f.subscriber_id)),
    );
    return failed.map((f, i) => {
      const s = subscribers[i];
      return {
        subscriber_id: f.subscriber_id,
        kind: s?.kind ?? null,
        to: s === undefined ? null : s.kind === 'email' ? s.address : originOf(s.url),
        attempts: f.attempts,
        error: f.error,
        at: f.at,
      };
    });
  };

  return {
    async list(
      tenantId: string,
      slug: string,
      query: { limit: number; cursor?: string | undefined; state?: SubscriberState | undefined },
    ) {
      await requirePage(tenantId, slug);
      const { items, next } = await listSubscribers(table, tenantId, slug, {
        limit: query.limit,
        after: query.cursor,
        state: query.state,
      });
      return { subscribers: items.map(subscriberView), next_cursor: next };
    },

    /** Every subscriber of the page as CSV (at most the per-page bound). */
    async exportCsv(tenantId: string, slug: string): Promise<string> {
      await requirePage(tenantId, slug);
      const rows: (string | null)[][] = [];
      let after: string | undefined;
      do {
        const page = await listSubscribers(table, tenantId, slug, { limit: 500, after });
        for (const s of page.items.map(subscriberView))
          rows.push([
            s.id,
            s.kind,
            s.address,
            s.url,
            s.components === 'all' ? 'all' : s.components.join(' '),
            s.state,
            s.source,
            s.created_at,
            s.confirmed_at,
          ]);
        after = page.next ?? undefined;
      } while (after);
      return stringify(rows, {
        header: true,
        columns: [
          'id',
          'kind',
          'address',
          'url',
          'components',
          'state',
          'source',
          'created_at',
          'confirmed_at',
        ],
      });
    },

    async remove(tenantId: string, slug: string, id: string): Promise<void> {
      await requirePage(tenantId, slug);
      await deleteHeld(table, [subscriberDeletedOp(tenantId, slug, id)], 'subscriber');
    },

    /**
     * Imports a CSV of `email` (and optionally `components`: entity ids separated by spaces; empty
     * or `all` for the whole page): each address becomes pending with a confirmation email.
     */
    async importCsv(tenantId: string, slug: string, csv: Buffer) {
      const page = await requirePage(tenantId, slug);
      if (csv.length > IMPORT_LIMITS.bytes) throw new PayloadTooLargeError(IMPORT_LIMITS.bytes);
      let records: Record<string, string>[];
      let columns: string[] = [];
      try {
        records = parse(csv, {
          columns: (header: string[]) => {
            columns = header.map((h) => h.trim().toLowerCase());
            return columns;
          },
          skip_empty_lines: true,
          trim: true,
          to: IMPORT_LIMITS.rows + 1,
        });
      } catch (error) {
        throw ValidationError.field(
          'body',
          `Not a CSV: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (records.length > IMPORT_LIMITS.rows)
        throw ValidationError.field('body', `At most ${IMPORT_LIMITS.rows} rows per import.`);
      if (!columns.includes('email'))
        throw ValidationError.field(
          'body',
          'The first line names the columns: email, and optionally components.',
        );
      let queued = 0;
      const rejected: { row: number; reason: string }[] = [];
      for (const [i, record] of records.entries()) {
        const row = i + 2;
        const address = emailSchema.safeParse(record.email ?? '');
        if (!address.success) {
          rejected.push({ row, reason: 'not an email address' });
          continue;
        }
        const listed = (record.components ?? '').split(/[\s;]+/).filter((c) => c !== '');
        try {
          const components = listed.length === 0 || listed.includes('all') ? 'all' : listed;
          const outcome = await deps.subscribe.subscribe(page, {
            kind: 'email',
            address: address.data,
            components: deps.subscribe.checkComponents(page, components),
            source: 'import',
          });
          if (outcome.issued) queued += 1;
          else rejected.push({ row, reason: outcome.reason });
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          rejected.push({ row, reason: 'components the page does not show' });
        }
      }
      return { queued, rejected_count: rejected.length, rejected };
    },

    /** Adds a webhook subscriber the tenant vouches for: confirmed at once; its signing secret answered once. */
    async addWebhook(tenantId: string, slug: string, body: { url: string; components: 'all' | string[] }) {
      const page = await requirePage(tenantId, slug);
      const components = deps.subscribe.checkComponents(page, body.components);
      const id = subscriberId(tenantId, slug, 'webhook', body.url);
      if (await getSubscriber(table, tenantId, slug, id))
        throw new ConflictError('the page has a subscriber of this URL');
      if (
        (await countSubscribers(table, tenantId, slug, SUBSCRIBER_LIMITS.perPage)) >=
        SUBSCRIBER_LIMITS.perPage
      )
        throw ValidationError.field('url', `A page holds at most ${SUBSCRIBER_LIMITS.perPage} subscribers.`);
      const now = isoTime(deps.clock.now());
      const record: SubscriberRecord = {
        id,
        tenant_id: tenantId,
        page: slug,
        kind: 'webhook',
        address: '',
        url: body.url,
        address_hash: addressHash(body.url),
        components,
        state: 'confirmed',
        source: 'api',
        created_at: now,
        updated_at: now,
        confirmed_at: now,
        confirm_nonce: null,
        confirm_expires_at: null,
        confirm_issued_at: null,
        confirm_mailed: null,
        manage_nonce: newNonce(),
        version: 1,
      };
      await table.transact([subscriberCreatedOp(record)]).catch((error: unknown) => {
        // A concurrent request added the same URL between the read and this write.
        if (error instanceof ConditionFailedError)
          throw new ConflictError('the page has a subscriber of this URL');
        throw error;
      });
      return { ...subscriberView(record), secret: await deps.webhooks.secretOf(record) };
    },

    /**
     * Each update's notice outcomes: how many were sent, failed (after their last attempt) and
     * skipped, and the failed ones (at most FAILURES_SHOWN per update): the subscriber, its
     * address or its webhook's origin (a URL's path and query may hold a receiver's token), the
     * attempts and the last error (scrubbed of the subscriber's secrets when it was stored).
     */
    async notices(tenantId: string, slug: string, incidentId: string) {
      await requirePage(tenantId, slug);
      const incident = await getPageIncident(table, tenantId, slug, incidentId);
      if (!incident) throw new NotFoundError('page incident');
      const tallies = await readTallies(
        table,
        tenantId,
        incident.updates.map((u) => u.id),
      );
      const updates = [];
      for (const u of incident.updates) {
        const tally = tallies.get(u.id) ?? { sent: 0, failed: 0, skipped: 0 };
        const failures = tally.failed > 0 ? await failuresOf(tenantId, slug, u.id) : [];
        updates.push({ update_id: u.id, notify: u.notify, ...tally, failures });
      }
      return { updates };
    },
  };
}

export type SubscriberAdmin = ReturnType<typeof createSubscriberAdmin>;
