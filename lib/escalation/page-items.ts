import * as z from 'zod';
import { isoTime } from '../platform/clock.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import { type ClaimTake, takeClaim } from '../store/send-claims.ts';
import type { Table } from '../store/table.ts';

/**
 * Owner of `escalation_page`: the page log of an incident (who was paged, when, by what, with what
 * outcome), one item per page in the tenant partition under `ESCPAGE#<inc_id>#<page key>` (purged with
 * the tenant, expiring PAGE_LOG_DAYS after the page). The key names the page's place in the climb
 * (policy, round, step) and its addressee (a person's contact method, or a channel), so the item is
 * also the page's claim: it is put before anything is sent, and only the job that put it sends.
 */

/** Days a page log entry is kept (longer than any incident's retention after its resolution). */
const PAGE_LOG_DAYS = 400;
/** Entries one incident's page log answers at most (its timeline is bounded too). */
const MAX_PAGES_READ = 500;

/** `queued`: handed to a channel's delivery (its alert record says how it went). */
const PAGE_OUTCOMES = ['pending', 'sent', 'failed', 'queued', 'unreachable'] as const;
export type PageOutcome = (typeof PAGE_OUTCOMES)[number];

const pageSchema = z.object({
  tenant_id: z.string(),
  incident_id: z.string(),
  /** The page's place and addressee: `<esp_id>:<round>:<step>:u:<usr_id>:<cmt_id>:<after_seconds>`, `…:u:<usr_id>:none`, `…:c:<chn_id>` or `…:t:<type>:<id>` (a target that reached nobody). */
  key: z.string(),
  policy_id: z.string(),
  round: z.number().int(),
  step: z.number().int(),
  /** The step's target that reached the addressee. */
  target: z.object({ type: z.string(), id: z.string() }),
  user_id: z.string().nullable(),
  channel_id: z.string().nullable(),
  contact_method_id: z.string().nullable(),
  /** email, sms, … for a person; the channel's type for a channel; null when the person has no way to be reached. */
  contact_kind: z.string().nullable(),
  at: z.string(),
  outcome: z.enum(PAGE_OUTCOMES),
  error: z.string().nullable(),
  /** Sends of the page so far, the current one counted (entries of before wave 5's retries: 1). */
  attempts: z.number().int().min(1).default(1),
  /** When the current attempt took the page (its claim); `at` stays the first page's time. */
  taken_at: z.string().optional(),
});
export type PageRecord = z.infer<typeof pageSchema>;

const PREFIX = 'ESCPAGE#';

const page = defineItem({
  type: itemType('escalation_page'),
  schema: pageSchema,
  key: (k: { tenant_id: string; incident_id: string; key: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `${PREFIX}${k.incident_id}#${k.key}`,
  }),
  ttl: (r) => Math.ceil(Date.parse(r.at) / 1000) + PAGE_LOG_DAYS * 86_400,
  docKey: { tenant_id: '<tnt>', incident_id: '<inc_id>', key: '<page key>' },
});

/** Sends a page to a person gets at most (its job brought back by the queue between them). */
export const MAX_PAGE_ATTEMPTS = 3;

/** Whether this job sends the page now, and if not, whether its job should come back to look again. */
export type PageTake = ClaimTake;

/**
 * Takes a page for a send (puts it `pending`) under the send-claim rule (lib/store/send-claims.ts):
 * a new page is taken at once; a page sent, queued or unreachable is never taken again (a
 * redelivered job sends nothing twice); a failed one is taken again until MAX_PAGE_ATTEMPTS, and one
 * whose job died after the claim once the claim is abandoned.
 */
export function takePage(table: Table, record: PageRecord, nowMs: number): Promise<PageTake> {
  const taken_at = isoTime(nowMs);
  return takeClaim(
    table,
    {
      first: page.put({ ...record, outcome: 'pending', attempts: 1, taken_at }, { kind: 'itemNotExists' }),
      read: async () => {
        const seen = await page.get(table, record, { consistent: true });
        if (!seen) return undefined;
        const state = seen.outcome === 'pending' || seen.outcome === 'failed' ? seen.outcome : 'done';
        return { state, attempts: seen.attempts, takenMs: Date.parse(seen.taken_at ?? seen.at) };
      },
      retake: (attempts, held) =>
        table.update(
          page.update(record, { set: { outcome: 'pending', attempts, taken_at }, condition: held }),
        ),
    },
    nowMs,
    MAX_PAGE_ATTEMPTS,
  );
}

/** Records what became of a claimed page. */
export async function recordPageOutcome(
  table: Table,
  record: Pick<PageRecord, 'tenant_id' | 'incident_id' | 'key'>,
  outcome: { outcome: PageOutcome; error: string | null; contact_kind?: string | null },
): Promise<void> {
  await table.update(page.update(record, { set: outcome }));
}

/** The incident's page log (consistent), oldest key first; at most MAX_PAGES_READ entries. */
export async function readPages(table: Table, tenantId: string, incidentId: string): Promise<PageRecord[]> {
  const items = await queryAll(
    (cursor) =>
      table.query({
        pk: tenantPk(tenantId),
        sk: { op: 'beginsWith', prefix: `${PREFIX}${incidentId}#` },
        consistent: true,
        cursor,
      }),
    MAX_PAGES_READ,
  );
  return page.parseAll(items);
}
