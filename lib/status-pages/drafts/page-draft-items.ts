import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { tenantPk } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of `page_draft_marker`: one per page and root change a draft was made for from the
 * dependency graph (drafts/draft-writer.ts), written in the same transaction as the draft. It
 * outlives the draft: a draft a person deleted is not made again by a redelivered change or a
 * dependent moving later in the same root change. It expires 90 days after the draft was made.
 */

const MARKER_DAYS = 90;

const markerSchema = z.object({
  tenant_id: z.string(),
  page: z.string(),
  /** The draft's id (derived from the page, the root and its transition). */
  incident_id: z.string(),
  entity_id: z.string(),
  transition_id: z.string(),
  created_at: z.string(),
});
export type DraftMarkerRecord = z.infer<typeof markerSchema>;

const marker = defineItem({
  type: itemType('page_draft_marker'),
  schema: markerSchema,
  key: (k: { tenant_id: string; page: string; incident_id: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `PAGEDRAFT#${k.page}#${k.incident_id}`,
  }),
  ttl: (r) => Math.ceil(Date.parse(r.created_at) / 1000) + MARKER_DAYS * 86_400,
  docKey: { tenant_id: '<tnt>', page: '<slug>', incident_id: '<pin_id>' },
});

/** Whether a draft was ever made under this id on the page (consistent). */
export async function draftWasMade(
  table: Table,
  tenantId: string,
  page: string,
  incidentId: string,
): Promise<boolean> {
  const found = await marker.get(
    table,
    { tenant_id: tenantId, page, incident_id: incidentId },
    { consistent: true },
  );
  return found !== undefined;
}

/** The put of a new marker: one existing (the draft was made before) fails the transaction. */
export function draftMarkedOp(record: DraftMarkerRecord): WriteOp {
  return marker.put(record, { kind: 'itemNotExists' });
}
