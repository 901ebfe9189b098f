import { type Clock, isoTime } from '../../platform/clock.ts';
import { ValidationError } from '../../platform/errors.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import type { StatusPageRecord } from '../items/status-page-items.ts';
import {
  addressHash,
  countSubscribers,
  getSubscriber,
  SUBSCRIBER_LIMITS,
  type SubscriberRecord,
  subscriberCreatedOp,
  subscriberId,
  subscriberReplacedOp,
} from '../items/subscriber-items.ts';
import { quotaTakenOp } from './notice-items.ts';
import { type LinkKey, newNonce, tokenMatches, tokenSubscriber } from './subscriber-links.ts';

/**
 * Subscribing to a page and the links a subscriber is sent (issue 54 item 3). A subscription only
 * asks: the address is pending and gets one confirmation email (sent by a notify job: the
 * subscriber's change feed enqueues it) and nothing else until it confirms. Whatever the address's
 * state, the caller learns nothing: the route answers the same. Quotas (SUBSCRIBE_QUOTAS) bound
 * what strangers can make Vigil send: past one, the request is accepted and does nothing.
 */

export const SUBSCRIBE_QUOTAS = {
  /** Subscription requests of one address to one page per hour. */
  addressPerHour: 5,
  /** A pending address gets a new confirmation link at most once an hour. */
  reissueMs: 3_600_000,
  /** Confirmation links issued per page per UTC day. */
  pagePerDay: 500,
  /** Confirmation links issued per tenant per UTC day (they count against its email quota too). */
  tenantPerDay: 2000,
  /** How long a confirmation link works. */
  confirmTtlMs: 7 * 86_400_000,
} as const;

const HOUR_S = 3600;
const DAY_S = 86_400;

type Issued = { issued: true } | { issued: false; reason: string };

export interface SubscribeRequest {
  kind: 'email' | 'webhook';
  address: string;
  url?: string | undefined;
  components: 'all' | string[];
  source: SubscriberRecord['source'];
}

/** Which page a keyless request names: a live tenant's page, or undefined (404). */
export type FindPage = (slug: string) => Promise<StatusPageRecord | undefined>;

export function createSubscribeService(deps: { table: Table; clock: Clock; linkKey: LinkKey }) {
  const { table, clock } = deps;

  /** Components name only entities the page shows. */
  const checkComponents = (page: StatusPageRecord, components: 'all' | string[]) => {
    if (components === 'all') return components;
    const shown = new Set(page.entity_ids);
    const issues = components.flatMap((id, i) =>
      shown.has(id) ? [] : [{ path: `components.${i}`, message: `The page does not show entity ${id}.` }],
    );
    if (issues.length > 0) throw new ValidationError('invalid components', issues);
    return [...new Set(components)];
  };

  /** Takes one from a quota counter; false when it is spent. */
  const take = async (tenantId: string, scope: string, limit: number, ttlSeconds: number) => {
    try {
      await table.update(quotaTakenOp(tenantId, scope, limit, clock.now(), ttlSeconds));
      return true;
    } catch (error) {
      if (error instanceof ConditionFailedError) return false;
      throw error;
    }
  };

  /** The page's and the tenant's daily quotas of confirmation links. */
  const takeDaily = async (page: StatusPageRecord) => {
    const day = isoTime(clock.now()).slice(0, 10);
    return (
      (await take(page.tenant_id, `page#${page.slug}#${day}`, SUBSCRIBE_QUOTAS.pagePerDay, 2 * DAY_S)) &&
      (await take(page.tenant_id, `tenant#${day}`, SUBSCRIBE_QUOTAS.tenantPerDay, 2 * DAY_S))
    );
  };

  /** A fresh confirmation link on the subscriber (the change feed has its email sent). */
  const issued = (
    current: SubscriberRecord | undefined,
    base: Omit<SubscriberRecord, 'confirm_nonce' | 'confirm_expires_at' | 'confirm_issued_at'>,
    nowMs: number,
  ): SubscriberRecord => ({
    ...base,
    state: 'pending',
    confirmed_at: null,
    confirm_nonce: newNonce(),
    confirm_expires_at: isoTime(nowMs + SUBSCRIBE_QUOTAS.confirmTtlMs),
    confirm_issued_at: isoTime(nowMs),
    updated_at: isoTime(nowMs),
    version: (current?.version ?? 0) + 1,
  });

  /**
   * Asks for a subscription. The keyless route answers the same whatever this resolves to, so that
   * no caller can tell a known address from an unknown one; the tenant's import reports `reason`
   * (its own subscribers' states are the tenant's to know).
   */
  const subscribe = async (page: StatusPageRecord, request: SubscribeRequest): Promise<Issued> => {
    const components = checkComponents(page, request.components);
    const address = request.address.toLowerCase();
    const hash = addressHash(address);
    const nowMs = clock.now();
    const hour = isoTime(nowMs).slice(0, 13);
    if (
      !(await take(
        page.tenant_id,
        `addr#${page.slug}#${hash}#${hour}`,
        SUBSCRIBE_QUOTAS.addressPerHour,
        2 * HOUR_S,
      ))
    )
      return {
        issued: false,
        reason: `more than ${SUBSCRIBE_QUOTAS.addressPerHour} requests for the address this hour`,
      };
    const identity = request.kind === 'webhook' ? (request.url ?? '') : address;
    const id = subscriberId(page.tenant_id, page.slug, request.kind, identity);
    const current = await getSubscriber(table, page.tenant_id, page.slug, id);
    if (current?.state === 'confirmed') return { issued: false, reason: 'already confirmed' };
    if (
      current?.state === 'pending' &&
      current.confirm_issued_at !== null &&
      Date.parse(current.confirm_issued_at) > nowMs - SUBSCRIBE_QUOTAS.reissueMs
    )
      return { issued: false, reason: 'a confirmation link went out within the hour' };
    if (
      !current &&
      (await countSubscribers(table, page.tenant_id, page.slug, SUBSCRIBER_LIMITS.perPage)) >=
        SUBSCRIBER_LIMITS.perPage
    )
      return { issued: false, reason: `the page holds ${SUBSCRIBER_LIMITS.perPage} subscribers` };
    if (!(await takeDaily(page)))
      return { issued: false, reason: 'the daily quota of confirmation emails is spent' };
    const now = isoTime(nowMs);
    const record = issued(
      current,
      {
        id,
        tenant_id: page.tenant_id,
        page: page.slug,
        kind: request.kind,
        address,
        url: request.kind === 'webhook' ? (request.url ?? null) : null,
        address_hash: hash,
        components,
        state: 'pending',
        source: request.source,
        created_at: current?.created_at ?? now,
        updated_at: now,
        confirmed_at: null,
        confirm_mailed: current?.confirm_mailed ?? null,
        manage_nonce: current?.manage_nonce ?? newNonce(),
        version: 0,
      },
      nowMs,
    );
    try {
      await table.transact([
        current ? subscriberReplacedOp(record, current.version) : subscriberCreatedOp(record),
      ]);
      return { issued: true };
    } catch (error) {
      // A concurrent request for the same address won: its link is the one that goes out.
      if (error instanceof ConditionFailedError) return { issued: false, reason: 'changed meanwhile' };
      throw error;
    }
  };

  /** The subscriber a link of `purpose` names, when the token is its current one (and, to confirm, unexpired). */
  const byLink = async (page: StatusPageRecord, purpose: 'confirm' | 'manage', token: string) => {
    const id = tokenSubscriber(token);
    if (!id) return undefined;
    const found = await getSubscriber(table, page.tenant_id, page.slug, id);
    if (!found) return undefined;
    const key = await deps.linkKey();
    if (purpose === 'manage')
      return tokenMatches(key, 'manage', found, found.manage_nonce, token) ? found : undefined;
    const live =
      found.state === 'pending' &&
      found.confirm_expires_at !== null &&
      Date.parse(found.confirm_expires_at) > clock.now();
    return live && tokenMatches(key, 'confirm', found, found.confirm_nonce, token) ? found : undefined;
  };

  /** Writes a change of the subscriber over the version read; false when something changed it first. */
  const change = async (current: SubscriberRecord, next: Partial<SubscriberRecord>) => {
    const record = {
      ...current,
      ...next,
      updated_at: isoTime(clock.now()),
      version: current.version + 1,
    };
    try {
      await table.transact([subscriberReplacedOp(record, current.version)]);
      return record;
    } catch (error) {
      if (error instanceof ConditionFailedError) return undefined;
      throw error;
    }
  };

  return {
    subscribe,
    checkComponents,

    /** The pending subscriber of a live confirmation link, or undefined (unknown, used, expired: the same). */
    peekConfirm: (page: StatusPageRecord, token: string) => byLink(page, 'confirm', token),

    /** Confirms by the link (once: the nonce is cleared); undefined when the link is not live. */
    async confirm(page: StatusPageRecord, token: string) {
      const found = await byLink(page, 'confirm', token);
      if (!found) return undefined;
      return change(found, {
        state: 'confirmed',
        confirmed_at: isoTime(clock.now()),
        confirm_nonce: null,
        confirm_expires_at: null,
      });
    },

    /** The subscriber of a manage link, or undefined. */
    managed: (page: StatusPageRecord, token: string) => byLink(page, 'manage', token),

    /** Unsubscribes by the manage link (RFC 8058 one-click too); repeated, it stays unsubscribed. */
    async unsubscribe(page: StatusPageRecord, token: string) {
      const found = await byLink(page, 'manage', token);
      if (!found) return undefined;
      if (found.state === 'unsubscribed') return found;
      return change(found, { state: 'unsubscribed', confirm_nonce: null, confirm_expires_at: null });
    },

    /** Sets the components a confirmed subscriber is told about, by the manage link. */
    async setComponents(page: StatusPageRecord, token: string, components: 'all' | string[]) {
      const found = await byLink(page, 'manage', token);
      if (found?.state !== 'confirmed') return undefined;
      return change(found, { components: checkComponents(page, components) });
    },
  };
}

export type SubscribeService = ReturnType<typeof createSubscribeService>;
