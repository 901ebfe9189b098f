import { handoverJobHost } from '../handover/job-host.ts';
import { notifyJobHost } from '../notify/compose-notifier.ts';
import { hostQueue, type JobHandler, type PortsOf } from '../platform/feature.ts';
import { statusPagesJobHost } from '../status-pages/job-host.ts';
import { FEATURES } from './list.ts';

/**
 * The job hosts of the notify queue: each feature's handler of its jobs there (heavy: they send),
 * taken by what runs the queue (the app in either runtime, the notifier function) and no other
 * function. hostQueue refuses a kind of the list that none of them runs.
 */
const NOTIFY_JOB_HOSTS = [notifyJobHost, statusPagesJobHost, handoverJobHost];

/** What the notify queue's host gives: what each of its job hosts is built over. */
export type NotifyJobPorts = PortsOf<typeof notifyJobHost> &
  PortsOf<typeof statusPagesJobHost> &
  PortsOf<typeof handoverJobHost>;

/** One handler of every notify queue job, each kind to its feature's host. */
export const hostNotifyJobs = (ports: NotifyJobPorts): JobHandler =>
  hostQueue(FEATURES, 'notify', NOTIFY_JOB_HOSTS, ports);
