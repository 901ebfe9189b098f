/**
 * lib/notify's records as other features read them (its front door; the files behind it are
 * private): a tenant's shared channels (search) and how many entities have a channel whose last
 * word is not their state (status's untold count), and a check's alert policy (an escalation
 * climb holds while the check is silenced), and the one-time seed of those words from the delivery
 * log of a store written before them (lib/migrations.ts). What incidents show of alerts is
 * notify's contribution in its composition (./compose.ts).
 */

export { getTenantChannels, readTenantChannels } from './items/channel-items.ts';
export { getPolicy as getCheckPolicy } from './items/policy-items.ts';
export { listRoutes } from './items/route-items.ts';
export { seedToldWords } from './pipeline/told-seed.ts';
export { countUntold } from './pipeline/untold-count.ts';
