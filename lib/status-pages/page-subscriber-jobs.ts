/**
 * The face of a status page's subscriber jobs: their schemas (lib/notify/jobs.ts lists them in the
 * notify queue's union) and the change-feed consumer that enqueues them (lib/events/consumers.ts).
 * Lean: no renderer, transport or HTML behind it.
 */
export {
  createPageSubscriberConsumer,
  isPageJob,
  PAGE_SUBSCRIBER_STREAM_ENTITIES,
  pageJobSchemas,
} from './subscribers/page-jobs.ts';
