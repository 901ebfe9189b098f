/**
 * The face of a status page's subscribers' sending for lib/notify: the handlers of the notify
 * queue's subscriber jobs (composed into its notifier with its email transport, the tenant's
 * email quota and its signed webhook POST). Their kinds and the consumer that enqueues them are
 * the lean face page-subscriber-jobs.ts (what every function loads with the notify job schema).
 */
export { createPageJobs } from './subscribers/notice-jobs.ts';
export { linkKeyOf } from './subscribers/subscriber-links.ts';
export { createSubscriberWebhooks } from './subscribers/subscriber-webhooks.ts';
