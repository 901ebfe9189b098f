import { getUser, listUsers, type User } from '../auth/records.ts';
import type { IncidentService, PublicIncident } from '../incidents/incident-service.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import { NotFoundError } from '../platform/errors.ts';
import { transactIf } from '../store/items.ts';
import type { Table } from '../store/table.ts';
import { type AckLinkRecord, ackLinkUsedOp, findAckLink } from './ack-link-items.ts';
import { ackTokenHash } from './ack-link-token.ts';

export interface AckLinkServiceDeps {
  table: Table;
  clock: Clock;
  /** The incidents' own acknowledge: the link acts as its person, as the API route does for a key. */
  incidents: Pick<IncidentService, 'acknowledge' | 'get'>;
  /** False for a tenant gone or disabled by the operator: its links answer as unknown. */
  tenantLive: (tenantId: string) => Promise<boolean>;
}

/** A person as a link's page names them: their name, else their e-mail. */
const nameOf = (user: User | undefined) => (user ? user.name.trim() || user.email : 'a former member');

/** What a link's page shows: the incident, the person the link is for, and who acknowledged it. */
export interface AckLinkView {
  incident: PublicIncident;
  /** The person the link acknowledges as. */
  person: string;
  /** Who acknowledged the incident (by the link or otherwise), when it is. */
  acknowledgedBy: string | null;
}

/**
 * What a link is: unknown (never minted, expired, its tenant disabled, its person gone from the
 * account, its incident gone: all alike, so a token cannot be probed), used (it worked once), or
 * live.
 */
export type AckLinkState =
  | { kind: 'unknown' }
  | { kind: 'used'; view: AckLinkView; usedAt: string }
  | { kind: 'live'; view: AckLinkView }
  /** This press acknowledged (or found the incident acknowledged or resolved already) and used the link up. */
  | { kind: 'done'; view: AckLinkView };

/**
 * Acknowledgement links (issue 55 item 4): a GET reads what a link names and changes nothing (mail
 * scanners prefetch links); the POST acknowledges the incident as the link's person through the
 * incidents' own acknowledge, then uses the link up in a conditional write, so it works once.
 * Nothing here signs anyone in.
 */
export function createAckLinkService(deps: AckLinkServiceDeps) {
  const { table, clock } = deps;

  const viewOf = async (link: AckLinkRecord): Promise<AckLinkView | undefined> => {
    const caller = { tenantId: link.tenant_id, userId: link.user_id };
    const incident = await deps.incidents.get(caller, link.incident_id).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    if (!incident) return undefined;
    const users = await listUsers(table, link.tenant_id);
    const by = incident.acknowledged_by;
    return {
      incident,
      person: nameOf(users.find((u) => u.id === link.user_id)),
      acknowledgedBy: by === null ? null : nameOf(users.find((u) => u.id === by)),
    };
  };

  /** The link a token names, if it is one still in force (unexpired, its tenant live, its person still a member). */
  const linkOf = async (token: string): Promise<AckLinkRecord | undefined> => {
    const hash = ackTokenHash(token);
    const link = hash ? await findAckLink(table, hash) : undefined;
    if (!link || link.expires_at <= isoTime(clock.now())) return undefined;
    if (!(await deps.tenantLive(link.tenant_id))) return undefined;
    if (!(await getUser(table, link.tenant_id, link.user_id))) return undefined;
    return link;
  };

  const stateOf = async (link: AckLinkRecord | undefined): Promise<AckLinkState> => {
    const view = link && (await viewOf(link));
    if (!link || !view) return { kind: 'unknown' };
    return link.state === 'used'
      ? { kind: 'used', view, usedAt: link.used_at ?? '' }
      : { kind: 'live', view };
  };

  return {
    /** What the link's page shows; reads only. */
    async peek(token: string): Promise<AckLinkState> {
      return stateOf(await linkOf(token));
    },

    /**
     * Acknowledges the link's incident as its person (idempotent: an incident acknowledged already
     * keeps its first acknowledgement; a resolved one has nothing left to stop) and uses the link
     * up. A link used already, or used by a concurrent press, answers `used` (the acknowledgement
     * is the incidents' own and idempotent, so two presses acknowledge once).
     */
    async acknowledge(token: string): Promise<AckLinkState> {
      const link = await linkOf(token);
      if (!link || link.state === 'used') return stateOf(link);
      await deps.incidents.acknowledge({ tenantId: link.tenant_id, userId: link.user_id }, link.incident_id);
      const at = isoTime(clock.now());
      if (!(await transactIf(table, [ackLinkUsedOp(link, at)]))) return stateOf(await linkOf(token));
      const view = await viewOf(link);
      return view ? { kind: 'done', view } : { kind: 'unknown' };
    },
  };
}

export type AckLinkService = ReturnType<typeof createAckLinkService>;
