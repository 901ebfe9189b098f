/**
 * lib/notify's records as other features read them (its front door; the files behind it are
 * private): a tenant's shared channels (search), an entity's deliveries over a span and the job
 * an incident's acknowledgement enqueues (incidents), and each channel's last word about an
 * entity with the re-judge's "not told yet" rule (status's untold count).
 */

export { readTenantChannels } from './channel-setup/channel-items.ts';
export { readEntityDeliveriesBetween } from './deliveries/delivery-items.ts';
export { acknowledgeJob } from './pipeline/acknowledge.ts';
export { untold } from './pipeline/rejudge.ts';
export { readToldOfEntityEventually } from './pipeline/told-items.ts';
