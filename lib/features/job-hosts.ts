import { notifyJobHost } from '../notify/compose-notifier.ts';
import { hostQueue, type JobHandler, loadHosts, type PortsOf, type PortsOfAll } from '../platform/feature.ts';
import { FEATURES } from './list.ts';

/**
 * The job hosts of the notify queue: each feature's handler of its jobs there (heavy: they send),
 * taken by what runs the queue (the app in either runtime, the notifier function) and no other
 * function. Notify's own, and each listed feature's (./list.ts names it with a lazy `import()`,
 * loaded here as this module loads: a top-level await; the other functions' bundles leave the
 * `*job-host.ts` modules out, infra/node-function.ts). hostQueue refuses a kind of the list that
 * none of them runs.
 */
const FEATURE_HOSTS = await loadHosts(FEATURES);

/** What the notify queue's host gives: what each of its job hosts is built over. */
export type NotifyJobPorts = PortsOf<typeof notifyJobHost> & PortsOfAll<(typeof FEATURE_HOSTS)[number]>;

/** One handler of every notify queue job, each kind to its feature's host. */
export const hostNotifyJobs = (ports: NotifyJobPorts): JobHandler =>
  hostQueue(FEATURES, 'notify', [notifyJobHost, ...FEATURE_HOSTS], ports);
