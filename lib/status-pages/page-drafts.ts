/**
 * The face of drafts from the dependency graph (issue 54 item 5) for other features: the
 * change-feed consumer (lib/events), and the auto-publish job the notify queue carries (lib/notify).
 */
export { createPageDraftConsumer } from './drafts/draft-consumer.ts';
export {
  type PageDraftPublishJob,
  pageDraftPublishJobId,
  pageDraftPublishJobSchema,
  publishUntouchedDraft,
} from './drafts/publish-job.ts';
