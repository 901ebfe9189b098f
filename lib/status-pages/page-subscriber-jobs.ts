/**
 * The face of a status page's subscriber jobs for lib/events: the change-feed consumer that enqueues
 * them (their schemas are in the notify queue's union through status pages' face, feature.ts).
 * Lean: no renderer, transport or HTML behind it.
 */
export { createPageSubscriberConsumer, PAGE_SUBSCRIBER_STREAM_ENTITIES } from './subscribers/page-jobs.ts';
