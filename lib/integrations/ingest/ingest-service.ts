import type { Clock } from '../../platform/clock.ts';
import { isoTime } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { transactIf } from '../../store/items.ts';
import type { Table } from '../../store/table.ts';
import type { IntegrationRecord } from '../items/integration-items.ts';
import {
  getOutsideAlert,
  type OutsideAlertRecord,
  oldestLowestOpen,
  openAlertCount,
  outsideAlertWrittenOps,
} from '../items/outside-alert-items.ts';
import type { ReadContext, Reading } from '../kinds/definition.ts';
import type { IncomingAlert } from '../kinds/incoming.ts';
import { INTEGRATION_KINDS } from '../kinds/registry.ts';
import { applyEvent } from './alert-lifecycle.ts';
import { compileRules } from './entity-rules.ts';
import { createOutsideState, type OutsideStateChange, vigilEvent } from './outside-state.ts';

/**
 * Ingest (DECISIONS.md "Outside alerts (wave 6)"): a sender's request read by its kind, each alert
 * put on the entity its integration's rules name (or the integration's own, saying why), applied
 * to the stored alert (alert-lifecycle.ts) in a transaction with its entity's tally, and then each
 * touched entity's outside state handed on. The request is answered after its alerts are stored:
 * a failure of the store fails the request (the sender retries), and a retried request applies
 * nothing twice that changes a state (a retrigger only counts again).
 */

/** Where an alert's entity is looked up: the catalog's read of one entity by blueprint and slug. */
export interface EntityLookup {
  get(tenantId: string, blueprintSlug: string, slug: string): Promise<{ id: string } | undefined>;
}

export type { OutsideStateChange } from './outside-state.ts';

export interface IngestDeps {
  table: Table;
  clock: Clock;
  entities: EntityLookup;
  /** A PEM certificate at an HTTPS URL, through the egress guard (SNS signatures). */
  fetchCertificate(url: string): Promise<string>;
  /** Visits an SNS SubscribeURL through the egress guard (the confirmation). */
  confirmSubscription(url: string): Promise<void>;
  /** Stores the topic a cloudwatch integration confirmed. */
  topicConfirmed(integration: IntegrationRecord, topicArn: string): Promise<void>;
  /**
   * Records each touched entity's outside state (the outside check's result): `stale` when the
   * tally moved since it was read (it is read again), `gone` when the entity is.
   */
  stateChanged(change: OutsideStateChange): Promise<'recorded' | 'stale' | 'gone'>;
  /** Acknowledges the entity's open incident, if it has one, for the integration (a sender's acknowledge). */
  acknowledgeIncident(integration: IntegrationRecord, entityId: string): Promise<void>;
  /** Open alerts one integration may hold (default OPEN_ALERTS_BOUND). */
  openBound?: number;
}

/**
 * Open alerts one integration may hold: past it, the oldest open alert of the lowest severity that
 * has one gives way (is resolved), info first, and the payload log says which. Requests in flight
 * at once may each pass it by one before they see the others.
 */
const OPEN_ALERTS_BOUND = 10_000;

/** What one request became (the answer's figures, and the payload log's line). */
export interface IngestOutcome {
  /** Alerts whose state changed (opened, reopened, acknowledged, resolved). */
  accepted: number;
  /** Triggers of an alert already open (counted, nothing else changed). */
  deduplicated: number;
  /** Alerts that landed on the integration's own entity (their rules named no known entity). */
  unmatched: number;
  /** Why, for the first few of them (the payload log's words). */
  unmatchedWhy: string[];
  /** Open alerts resolved to keep the integration under its bound (their dedup keys, the first few). */
  gaveWay: string[];
  /** Events that changed nothing: late, or naming no alert. */
  ignored: number;
  /** The dedup keys of the alerts, in the request's order (PagerDuty's answer names its one). */
  dedupKeys: string[];
  /** What a request without alerts was (an SNS subscription confirmed, an unsubscribe). */
  note?: string;
}

/** The outcome of a request that carried no alert. */
const nothing = (): IngestOutcome => ({
  accepted: 0,
  deduplicated: 0,
  unmatched: 0,
  unmatchedWhy: [],
  gaveWay: [],
  ignored: 0,
  dedupKeys: [],
});

/** Where an alert is put: the entity it lands on, and why not the one its rules name, if so. */
interface Place {
  entityId: string;
  unmatched: OutsideAlertRecord['unmatched'];
}

/** The place of an alert that gives way: it is stored already, so it is never asked for. */
const STORED_ONLY = async (): Promise<Place> => {
  throw new Error('an alert that gives way is stored: it has a place');
};

/** Attempts at one alert's write before the request fails (another request wrote it meanwhile). */
const WRITE_ATTEMPTS = 5;

export function createIngestService(deps: IngestDeps) {
  const outsideState = createOutsideState(deps);
  /**
   * Where a request's new alerts first land: its integration's rules compiled once, each named
   * entity looked up once per request, and only for an alert not stored yet (a stored one stays
   * where it first landed).
   */
  const placer = (integration: IntegrationRecord) => {
    const route = compileRules(integration.entity_rules);
    const looked = new Map<string, Promise<{ id: string } | undefined>>();
    return (alert: IncomingAlert) => async (): Promise<Place> => {
      const outcome = route(alert.labels);
      if (!outcome.matched) {
        const { rule, named, why } = outcome;
        return { entityId: integration.entity_id, unmatched: { rule, named, why } };
      }
      const named = `${outcome.blueprint_slug}/${outcome.entity_slug}`;
      let entity = looked.get(named);
      if (!entity) {
        entity = deps.entities.get(integration.tenant_id, outcome.blueprint_slug, outcome.entity_slug);
        looked.set(named, entity);
      }
      const found = await entity;
      if (found) return { entityId: found.id, unmatched: null };
      return {
        entityId: integration.entity_id,
        unmatched: { rule: outcome.rule, named, why: `no entity ${named}` },
      };
    };
  };

  /** Applies one alert; its change, and the entity whose tally it touched (when it wrote). */
  const applyOne = async (
    integration: IntegrationRecord,
    place: () => Promise<Place>,
    alert: IncomingAlert,
  ) => {
    for (let attempt = 1; ; attempt++) {
      const prev = await getOutsideAlert(deps.table, integration.id, alert.dedup_key);
      const now = isoTime(deps.clock.now());
      const { next, change } = applyEvent(prev, alert, now);
      // Nothing written: a sender's retry of what was stored lands here, and its entity's state is
      // recorded again (a crash may have come between the alert's write and its state's).
      if (!next || next === prev) return { change, record: undefined, entityId: prev?.entity_id };
      const where = prev ? undefined : await place();
      // An alert stays on the entity it first landed on: its tally is that entity's.
      const record: OutsideAlertRecord = {
        ...next,
        id: prev?.id ?? newId('oal', deps.clock.now()),
        tenant_id: integration.tenant_id,
        integration_id: integration.id,
        dedup_key: alert.dedup_key,
        entity_id: prev?.entity_id ?? where?.entityId ?? integration.entity_id,
        unmatched: prev ? prev.unmatched : (where?.unmatched ?? null),
        version: (prev?.version ?? 0) + 1,
      };
      if (await transactIf(deps.table, outsideAlertWrittenOps(prev, record)))
        return { change, record, entityId: record.entity_id };
      if (attempt >= WRITE_ATTEMPTS)
        throw new Error(`outside alert ${alert.dedup_key}: written by others ${attempt} times`);
    }
  };

  /** Past the bound, the oldest open alert of the lowest severity present is resolved (said in the outcome). */
  const keepUnderBound = async (
    integration: IntegrationRecord,
    opened: string,
    outcome: IngestOutcome,
    touched: Map<string, OutsideAlertRecord[]>,
  ) => {
    if ((await openAlertCount(deps.table, integration.id)) <= (deps.openBound ?? OPEN_ALERTS_BOUND)) return;
    const victim = await oldestLowestOpen(deps.table, integration.id);
    if (victim === undefined) return;
    const gone = vigilEvent('resolve', victim);
    const { record } = await applyOne(integration, STORED_ONLY, gone);
    if (!record) return;
    touched.set(record.entity_id, [...(touched.get(record.entity_id) ?? []), record]);
    if (outcome.gaveWay.length < 5) outcome.gaveWay.push(victim === opened ? `${victim} (itself)` : victim);
  };

  const alertsIn = async (
    integration: IntegrationRecord,
    alerts: IncomingAlert[],
  ): Promise<IngestOutcome> => {
    const placeOf = placer(integration);
    const outcome = nothing();
    // Per touched entity, the open alerts this request wrote, newest last (the reason is read off them).
    const touched = new Map<string, OutsideAlertRecord[]>();
    const acknowledged = new Set<string>();
    for (const alert of alerts) {
      outcome.dedupKeys.push(alert.dedup_key);
      const { change, record, entityId } = await applyOne(integration, placeOf(alert), alert);
      // Unmatched: stored on the integration's own entity (an event that stored nothing is only ignored).
      if (record?.unmatched) {
        outcome.unmatched += 1;
        if (outcome.unmatchedWhy.length < 5)
          outcome.unmatchedWhy.push(`${alert.dedup_key}: ${record.unmatched.why}`);
      }
      if (entityId !== undefined)
        touched.set(entityId, [...(touched.get(entityId) ?? []), ...(record ? [record] : [])]);
      if ((change === 'opened' || change === 'reopened') && record)
        await keepUnderBound(integration, record.dedup_key, outcome, touched);
      if (change === 'acknowledged' && entityId !== undefined) acknowledged.add(entityId);
      if (change === 'retriggered') outcome.deduplicated += 1;
      else if (change === 'unchanged' || change === 'late' || change === 'unknown') outcome.ignored += 1;
      else outcome.accepted += 1;
    }
    for (const [entityId, written] of touched) await outsideState.record(integration, entityId, written);
    // A sender's acknowledge acknowledges the entity's open incident (the climb stops).
    for (const entityId of acknowledged) await deps.acknowledgeIncident(integration, entityId);
    return outcome;
  };

  return {
    /**
     * Acknowledges or resolves one alert from Vigil (an MCP tool), as its sender would: the alert
     * and its entity's outside state move as for a sender's event. Undefined when no such alert.
     */
    async actInVigil(integration: IntegrationRecord, dedupKey: string, action: 'acknowledge' | 'resolve') {
      if (!(await getOutsideAlert(deps.table, integration.id, dedupKey))) return undefined;
      await alertsIn(integration, [vigilEvent(action, dedupKey)]);
      return getOutsideAlert(deps.table, integration.id, dedupKey);
    },

    /** Reads a request of `integration` and stores what it says; throws what the route answers. */
    async ingest(
      integration: IntegrationRecord,
      body: unknown,
      headers: Readonly<Record<string, string | undefined>>,
    ): Promise<IngestOutcome> {
      const context: ReadContext = {
        severityMap: integration.severity_map,
        settings: integration.settings ?? undefined,
        headers,
        fetchCertificate: deps.fetchCertificate,
        snsTopicArn: integration.sns_topic_arn ?? undefined,
        now: new Date(deps.clock.now()),
      };
      const reading: Reading = await INTEGRATION_KINDS[integration.kind].read(body, context);
      if (reading.kind === 'subscription') {
        await deps.confirmSubscription(reading.confirmUrl);
        await deps.topicConfirmed(integration, reading.topicArn);
        return { ...nothing(), note: `subscribed to ${reading.topicArn}` };
      }
      if (reading.kind === 'nothing') return { ...nothing(), note: reading.why };
      return alertsIn(integration, reading.alerts);
    },
  };
}

export type IngestService = ReturnType<typeof createIngestService>;
