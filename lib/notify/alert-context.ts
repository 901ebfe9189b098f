import { checkKeys, RESULT_PREFIX } from '../checks/check-keys.ts';
import { checkNameOf } from '../domain/check-name.ts';
import { checkDefinitionSchema, resultSchema } from '../checks/records.ts';
import { redactUrl } from '../domain/url-redaction.ts';
import type { parseItem } from '../store/items.ts';
import { checkPartition } from '../store/partitions.ts';
import type { Table } from '../store/table.ts';
import type { Alert } from './ports.ts';
import type { DeliveryRecord } from './records.ts';
import { readEntityById } from './upstream.ts';

/** Results read back for the last error: a recovery's latest result is a success, the error is just before it. */
const RESULTS_SCANNED = 20;

type StoredItem = Parameters<typeof parseItem>[1];

/** What the check probes, for humans: "GET https://api.example.com/health", "tcp db:5432", "push". */
export function checkLabelOf(item: StoredItem | undefined): string {
  if (!item) return 'check removed';
  const check = checkDefinitionSchema.safeParse(item);
  if (!check.success) return 'check';
  const c = check.data;
  switch (c.check_type) {
    case 'http':
      // Alert text goes to chat rooms and inboxes: credentials in the URL stay out of it.
      return `${c.method} ${c.target_url ? redactUrl(c.target_url) : ''}`.trim();
    case 'tcp':
      return `tcp ${c.config.host}:${c.config.port}`;
    case 'tls':
      return `tls ${c.config.host}:${c.config.port ?? 443}`;
    case 'dns':
      return `dns ${c.config.record_type} ${c.config.hostname}`;
    case 'push':
      return 'push';
  }
}

/** The check's name for humans (the one given, else derived from its type and target: check-name.ts). */
export function checkNameFrom(item: StoredItem | undefined): string {
  if (!item) return 'check removed';
  const check = checkDefinitionSchema.safeParse(item);
  return check.success ? checkNameOf(check.data) : 'check';
}

/** The error of the check's latest failed result among its most recent ones, or null. */
async function lastError(table: Table, checkId: string): Promise<string | null> {
  const page = await table.query({
    pk: checkPartition(checkId),
    sk: { op: 'beginsWith', prefix: RESULT_PREFIX },
    direction: 'desc',
    limit: RESULTS_SCANNED,
  });
  for (const item of page.items) {
    const result = resultSchema.safeParse(item);
    if (result.success && !result.data.success && result.data.error_message) return result.data.error_message;
  }
  return null;
}

/** The Alert a channel is sent for a delivery record: its event, entity, check name and label, last error. */
export async function alertFor(table: Table, record: DeliveryRecord): Promise<Alert> {
  const { event } = record;
  const [entity, checkItem, error] = await Promise.all([
    readEntityById(table, event.tenant_id, event.entity_id),
    table.get(checkKeys.check(event.tenant_id, event.check_id)),
    lastError(table, event.check_id),
  ]);
  return {
    event,
    kind: record.kind,
    deliveryId: record.id,
    entity: {
      id: event.entity_id,
      name: entity?.name ?? event.entity_name,
      blueprint_slug: entity?.blueprint_slug ?? '',
      slug: entity?.slug ?? '',
    },
    checkName: checkNameFrom(checkItem),
    checkLabel: checkLabelOf(checkItem),
    lastError: error,
  };
}
