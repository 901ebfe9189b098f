import { tenantTransitionItems } from '../../../lib/checks/results.ts';
import type { Change } from '../../../lib/store/change-feed.ts';
import type { ApiHarness } from '../../support/api-harness.ts';

/**
 * Every entity transition of the harness's tenant fed again to every change consumer, in order, as
 * the INSERT records of the change feed: a replay. Answers how many records it fed.
 */
export async function replayTransitions(api: ApiHarness): Promise<number> {
  const { items } = await tenantTransitionItems(api.table, api.tenantId, {
    range: { after: 'trn_' },
    direction: 'asc',
    limit: 1000,
  });
  const changes: Change[] = items.map((item, n) => ({
    eventId: `replay-${n}`,
    eventName: 'INSERT',
    keys: { pk: String(item.pk), sk: String(item.sk) },
    newImage: item,
    oldImage: undefined,
    expired: false,
  }));
  for (const consume of api.app.consumers) await consume(changes);
  return changes.length;
}
