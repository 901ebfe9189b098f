import { parseTransition, TRANSITION_ENTITY } from '../../checks/results.ts';
import type { ChangeConsumer } from '../../store/change-feed.ts';
import { draftAllClear } from './all-clear.ts';
import { type DraftDeps, draftForDown } from './draft-writer.ts';

/**
 * The change-feed consumer of drafts from the dependency graph (draft-writer.ts): each entity
 * transition inserted into down or degraded refreshes the drafts of the roots it concerns; one
 * into up drafts the all-clear. Idempotent (derived ids, conditional writes); bounded per
 * transition by the graph walks (200 entities) and the tenant's pages (20).
 */
export function createPageDraftConsumer(deps: DraftDeps): ChangeConsumer {
  return async (changes) => {
    for (const change of changes) {
      const item = change.newImage;
      if (change.eventName !== 'INSERT' || item?.entity !== TRANSITION_ENTITY) continue;
      const t = parseTransition(item);
      if (t.kind !== 'entity') continue;
      if (t.to_state === 'down' || t.to_state === 'degraded') await draftForDown(deps, t);
      else if (t.to_state === 'up') await draftAllClear(deps, t);
    }
  };
}
