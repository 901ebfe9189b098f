import type { CheckConfig } from '../../check-types/check-config.ts';
import { ConflictError } from '../../platform/errors.ts';
import type { Table, WriteOp } from '../../store/table.ts';
import { getSlug, slugFreedOp, slugTakenOp } from './slug-items.ts';

/** A check's slug, if it is a push check with one. */
const slugOf = (check: CheckConfig | undefined): string | undefined =>
  check?.check_type === 'push' ? check.config.slug : undefined;

/** A push check whose slug is taken: 409, naming the field. */
export class SlugTakenError extends ConflictError {
  override name = 'SlugTakenError';
  constructor(slug: string) {
    super(
      `config.slug: "${slug}" is already the slug of another push check of this account; slugs are unique`,
    );
  }
}

/**
 * The writes that keep the tenant's slug items in step with a check's create (no `before`), update
 * or delete (no `after`), added to that write's transaction by the check service (through the check
 * store, lib/checks/definitions/check-store.ts). A slug held by another live check is refused
 * (SlugTakenError) before anything is written; the items' conditions settle a race between two
 * writers of one slug, and the loser, retried, reads the winner's item and gets the 409.
 */
export async function slugChangeOps(
  table: Table,
  input: {
    tenantId: string;
    checkId: string;
    before?: CheckConfig | undefined;
    after?: CheckConfig | undefined;
    /** Whether a check still exists (its definition and state are there). */
    live: (checkId: string) => Promise<boolean>;
  },
): Promise<WriteOp[]> {
  const { tenantId, checkId } = input;
  const [before, after] = [slugOf(input.before), slugOf(input.after)];
  if (before === after) return [];
  const ops: WriteOp[] = [];
  if (after) {
    const held = await getSlug(table, tenantId, after);
    if (!held) ops.push(slugTakenOp({ tenant_id: tenantId, slug: after, check_id: checkId }));
    else if (held.check_id !== checkId) {
      if (await input.live(held.check_id)) throw new SlugTakenError(after);
      ops.push(slugTakenOp({ tenant_id: tenantId, slug: after, check_id: checkId }, held.check_id));
    }
  }
  if (before) ops.push(slugFreedOp(tenantId, before, checkId));
  return ops;
}
