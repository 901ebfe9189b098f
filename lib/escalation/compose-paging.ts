import { type ContactReachDeps, createContactReach } from '../contacts/reach.ts';
import type { PagingFactory } from '../notify/compose-notifier.ts';
import type { NotifyJob } from '../notify/jobs.ts';
import type { JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import { handleClimb } from './climb.ts';
import type { PageLinks } from './page-message.ts';
import { handlePageContact, type PagingDeps } from './page-person.ts';
import { handlePageResolved } from './resolution.ts';

export type { PageLinks } from './page-message.ts';

/** What paging needs from a runtime: the notify queue, the people's sending paths, the console's URL. */
export interface PagingSetup extends ContactReachDeps {
  logger: Logger;
  queue: JobQueue<NotifyJob>;
  publicUrl: string | undefined;
  /** The acknowledge and resolve links a page carries (undefined: the console's link only). */
  links?: PageLinks | undefined;
}

/**
 * The handler of the paging jobs (`climb`, `page_contact`) the notifier hands over (both runtimes'
 * notifier compositions pass it as `paging`): people reached through lib/contacts, channels through
 * the notifier's own sending.
 */
export function pagingFor(setup: PagingSetup): PagingFactory {
  const deps: PagingDeps = {
    table: setup.table,
    clock: setup.clock,
    logger: setup.logger.child({ component: 'paging' }),
    queue: setup.queue,
    reach: createContactReach(setup),
    publicUrl: setup.publicUrl,
    links: setup.links,
  };
  return (parts) => (job) => {
    if (job.kind === 'climb') return handleClimb({ ...deps, ...parts }, job);
    if (job.kind === 'page_contact') return handlePageContact({ ...deps, ...parts }, job);
    return handlePageResolved(deps, job);
  };
}
