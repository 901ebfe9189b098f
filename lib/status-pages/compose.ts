import type { HostPolicy } from '../http/origin-policy.ts';
import type { HttpRequest, Route } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import type { JobQueue } from '../platform/job-queue.ts';
import type { Table } from '../store/table.ts';
import { entityDailyUptime } from '../uptime/daily-uptime.ts';
import { pageAccessRoutes } from './access/access-routes.ts';
import type { PageAccessPorts } from './access/page-access-ports.ts';
import { createPageGate } from './access/page-gate.ts';
import { createPageHosts } from './domains/page-hosts.ts';
import { feedRoutes } from './feeds/feed-routes.ts';
import { pageIncidentRoutes } from './incidents/page-incident-routes.ts';
import { createPageIncidentService } from './incidents/page-incident-service.ts';
import { findPublicPage } from './items/status-page-items.ts';
import { statusPageRoutes } from './pages/routes.ts';
import { createStatusPageService, type StatusPageService } from './pages/status-page-service.ts';
import { createDomainRequests } from './public/domain-requests.ts';
import { publicStatusPageRoutes } from './public/public-routes.ts';
import type { DailyUptimeReader } from './public/public-view.ts';
import { ssoPassRoutes } from './public/sso-pass-routes.ts';
import type { PageJob } from './subscribers/page-jobs.ts';
import { createSubscribeService } from './subscribers/subscribe-service.ts';
import { createSubscriberAdmin } from './subscribers/subscriber-admin.ts';
import { subscriberAdminRoutes } from './subscribers/subscriber-admin-routes.ts';
import { linkKeyOf } from './subscribers/subscriber-links.ts';
import { subscriberRoutes } from './subscribers/subscriber-routes.ts';
import { createSubscriberWebhooks } from './subscribers/subscriber-webhooks.ts';

/** Public status pages: the owner's /v1/status-pages routes and the keyless /p/{slug} ones. */
export function composeStatusPages(deps: {
  table: Table;
  clock: Clock;
  /** False for a tenant gone or disabled by the operator (its public pages go dark: 404). */
  tenantLive: (tenantId: string) => Promise<boolean>;
  dailyUptime?: DailyUptimeReader;
  /** The host names Vigil answers under and VIGIL_PUBLIC_URL (the feeds' absolute links). */
  hosts: HostPolicy;
  /** Password pages: people's hashing, the sign-in limits, the cookie's Secure rule. */
  pageAccess: PageAccessPorts;
  /** VIGIL_PAGE_DOMAINS: the custom domains a page may claim; every request on one is a page's. */
  pageDomains: readonly string[];
  /** The notify queue: a keyless subscription is a job there, worked after its answer. */
  queue: Pick<JobQueue<PageJob>, 'enqueue'>;
  /** Whether this deployment can send mail; false: the pages offer no sign-up and the route refuses it. */
  mail: boolean;
}): {
  routes: Route[];
  /** The owner's reads and writes of pages (MCP's status-page resources read through it). */
  pages: StatusPageService;
  /** The router's host step: a request on a page's custom domain becomes its /p/{slug} one (public/domain-requests.ts). */
  mapHost: (req: HttpRequest) => Promise<HttpRequest | Response>;
} {
  const pageHosts = createPageHosts(deps.pageDomains);
  // Where an SSO page's readers on its custom domain sign in: Vigil's own origin.
  const publicOrigin = deps.hosts.publicUrl === undefined ? undefined : new URL(deps.hosts.publicUrl).origin;
  const pages = createStatusPageService({
    table: deps.table,
    clock: deps.clock,
    hashPassword: deps.pageAccess.passwords.hash,
    ssoConfigured: deps.pageAccess.ssoConfigured,
    domains: { allowed: pageHosts.domains, own: deps.hosts.hosts, publicOrigin },
  });
  const pageIncidents = createPageIncidentService({ table: deps.table, clock: deps.clock });
  // The 90 daily bars: the uptime feature's daily rollups (never raw results).
  const dailyUptime: DailyUptimeReader =
    deps.dailyUptime ??
    ((tenantId, entityIds, days) =>
      entityDailyUptime({ table: deps.table, clock: deps.clock }, tenantId, entityIds, days));
  // Subscribers (issue 54 item 3): the keyless subscribe form and the links they are emailed.
  const linkKey = linkKeyOf(deps.table);
  const subscribe = createSubscribeService({ table: deps.table, clock: deps.clock, linkKey });
  // This process calls no webhook (the notifier does): it only shows a subscriber's signing secret.
  const webhooks = createSubscriberWebhooks({ post: undefined, linkKey });
  const admin = createSubscriberAdmin({ table: deps.table, clock: deps.clock, subscribe, webhooks });
  const findPage = async (slug: string) => {
    const page = await findPublicPage(deps.table, slug);
    return page && (await deps.tenantLive(page.tenant_id)) ? page : undefined;
  };
  const gate = createPageGate({
    table: deps.table,
    clock: deps.clock,
    sessionOf: deps.pageAccess.sessionOf,
    sessionById: deps.pageAccess.sessionById,
    publicOrigin,
    pageHosts,
  });
  return {
    routes: [
      ...statusPageRoutes({ pages }),
      ...pageIncidentRoutes({ pageIncidents }),
      ...publicStatusPageRoutes({
        table: deps.table,
        clock: deps.clock,
        dailyUptime,
        tenantLive: deps.tenantLive,
        gate,
        pageHosts,
        mail: deps.mail,
      }),
      ...subscriberRoutes({
        table: deps.table,
        findPage,
        subscribe,
        webhooks,
        gate,
        pageHosts,
        queue: deps.queue,
        mail: deps.mail,
      }),
      ...subscriberAdminRoutes({ admin }),
      ...feedRoutes({ ...deps, gate, pageHosts }),
      ...pageAccessRoutes({ ...deps, pageHosts }),
      ...ssoPassRoutes({ ...deps, pageHosts, publicOrigin }),
    ],
    pages,
    mapHost: createDomainRequests({ table: deps.table, clock: deps.clock, hosts: pageHosts }),
  };
}
