import {
  type PageDraftPublishJob,
  pageDraftPublishJobId,
  publishUntouchedDraft,
} from '../../status-pages/page-drafts.ts';
import { waitedAnotherHop } from './due-jobs.ts';
import type { NotifyDeps } from './notify-deps.ts';

/**
 * A status page's auto-publish of an untouched draft (lib/status-pages/page-drafts.ts): waits for
 * its due time in hops, then publishes it if nobody touched it (a redelivery publishes nothing twice).
 */
export async function handlePageDraftPublish(deps: NotifyDeps, body: PageDraftPublishJob): Promise<void> {
  if (await waitedAnotherHop(deps, body, pageDraftPublishJobId(body), deps.clock.now())) return;
  const published = await publishUntouchedDraft(deps.table, deps.clock, body);
  deps.logger.info(published ? 'draft page incident auto-published' : 'draft page incident left as it is', {
    page: body.page,
    incident: body.incident_id,
  });
}
