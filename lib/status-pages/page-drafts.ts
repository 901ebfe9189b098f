/**
 * The face of drafts from the dependency graph (issue 54 item 5) for tests that publish a draft by
 * hand; the change-feed consumer and the auto-publish job are status pages' face's (feature.ts).
 */
export { publishUntouchedDraft } from './drafts/publish-job.ts';
