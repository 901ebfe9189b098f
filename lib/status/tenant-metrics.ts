import { Counter, Gauge, Registry } from 'prom-client';
import {
  type EntityState,
  entityListSource,
  parseEntityState,
  readEntityListChunk,
  STATES,
} from '../catalog/entities.ts';
import { checkNameOf } from '../check-types/check-name.ts';
import { checkDefinitionsById } from '../checks/check-items.ts';
import type { CheckDefinitionRecord } from '../checks/records.ts';
import { latestResultsOf } from '../checks/results.ts';
import { readMetricCounters } from '../metrics/metric-counter-items.ts';
import { MAX_QUERY_LIMIT, type Table } from '../store/table.ts';
import { readCounts } from './status-counts.ts';

/**
 * GET /v1/metrics: the tenant's state in the Prometheus text format (docs/metrics.md), from what
 * the status board reads (entity items with their checks' states, the status counters), the
 * definitions (check types), the probed checks' newest results (the last latency) and the
 * tenant's metric counters; never a scan of results. Every request fills a Registry of its own, so
 * no series of one tenant can reach another's answer.
 *
 * Bounded: at most MAX_METRIC_ENTITIES entities (and their checks) per answer, in blueprint then
 * slug order; past that `vigil_metrics_truncated` is 1 and a scrape per blueprint
 * (`?blueprint_slug=`) covers the rest. The per-state totals always count every entity.
 */

export const MAX_METRIC_ENTITIES = 5000;
/** Newest results read per probed check to find its last one (lib/checks reads them a cell at a time). */
const LAST_SCANNED = 3;

export interface MetricsQuery {
  blueprint_slug?: string | undefined;
}

/** Up to `max` entities of the tenant (or one blueprint), and whether more were left out. */
async function readEntities(table: Table, tenantId: string, blueprint: string | undefined, max: number) {
  const source = entityListSource(tenantId, blueprint);
  const entities: EntityState[] = [];
  let cursor: string | undefined;
  do {
    const page = await readEntityListChunk(table, source, {
      limit: Math.min(MAX_QUERY_LIMIT, max + 1 - entities.length),
      cursor,
    });
    entities.push(...page.items.map(parseEntityState));
    cursor = page.cursor;
  } while (cursor && entities.length <= max);
  return { entities: entities.slice(0, max), truncated: entities.length > max || cursor !== undefined };
}

/**
 * check id -> its last result's latency (ms), and the whole days its certificate has left when the
 * probe reported them (tls checks), for the checks being probed (push checks report no latency).
 */
async function lastResults(table: Table, checks: readonly CheckDefinitionRecord[]) {
  const latency = new Map<string, number>();
  const daysLeft = new Map<string, number>();
  const latest = await latestResultsOf(table, checks, { limit: LAST_SCANNED, probedOnly: true });
  for (const [checkId, [last]] of latest) {
    if (!last) continue;
    latency.set(checkId, last.latency_ms);
    const days = last.details?.days_left;
    if (typeof days === 'number' && Number.isFinite(days)) daysLeft.set(checkId, days);
  }
  return { latency, daysLeft };
}

/** The exposition of one tenant (its own registry, filled and rendered once). */
export async function tenantMetrics(
  table: Table,
  tenantId: string,
  query: MetricsQuery = {},
): Promise<{ body: string }> {
  const [read, counts, counters] = await Promise.all([
    readEntities(table, tenantId, query.blueprint_slug, MAX_METRIC_ENTITIES),
    readCounts(table, tenantId),
    readMetricCounters(table, tenantId),
  ]);
  const checkIds = read.entities.flatMap((e) => Object.keys(e.check_states ?? {}));
  const definitions = await checkDefinitionsById(table, tenantId, checkIds);
  const last = await lastResults(table, definitions);
  const byId = new Map(definitions.map((d) => [d.id, d] as const));

  const registry = new Registry();
  const entityState = new Gauge({
    name: 'vigil_entity_state',
    help: 'The entity is in this state (1) or not (0)',
    labelNames: ['blueprint', 'entity', 'state', 'entity_name'] as const,
    registers: [registry],
  });
  // Names beside the ids, so dashboards' legends read "Checkout API" rather than chk_01…
  // (prom-client escapes backslashes, quotes and newlines in label values).
  const checkLabels = ['check_id', 'entity', 'check_type', 'check_name', 'entity_name'] as const;
  const checkUp = new Gauge({
    name: 'vigil_check_up',
    help: 'The check is up or degraded (1) or down (0); no sample while its state is unknown',
    labelNames: checkLabels,
    registers: [registry],
  });
  // DECISIONS.md names it vigil_check_latency_ms, which `promtool check metrics` refuses ("metric
  // names should not contain abbreviated units"): the base unit, as Prometheus names it, instead.
  const checkLatency = new Gauge({
    name: 'vigil_check_latency_seconds',
    help: 'Latency of the last result of the check in seconds (pull checks in cells)',
    labelNames: checkLabels,
    registers: [registry],
  });
  // Certificate days left, in the base unit `promtool check metrics` asks for (it refuses "days"):
  // whole days times 86,400, so `/ 86400` gives the days.
  const certificateDays = new Gauge({
    name: 'vigil_check_certificate_remaining_seconds',
    help: "Time until the certificate of the check's target expires, in whole days as seconds, from its last result (negative once expired)",
    labelNames: checkLabels,
    registers: [registry],
  });
  const entities = new Gauge({
    name: 'vigil_entities',
    help: 'Entities of the tenant per state (all of them, whatever the bound of the answer)',
    labelNames: ['state'] as const,
    registers: [registry],
  });
  const results = new Counter({
    name: 'vigil_check_results_total',
    help: "Check results recorded, by status (a pull check's as its slot is stored; a push check's when its 5-minute bucket closes)",
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const alerts = new Counter({
    name: 'vigil_alerts_total',
    help: 'Alert deliveries that reached a final status, by status',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const truncated = new Gauge({
    name: 'vigil_metrics_truncated',
    help: `1 when the answer left entities out (more than ${MAX_METRIC_ENTITIES}): scrape per blueprint`,
    registers: [registry],
  });

  for (const entity of read.entities) {
    for (const state of STATES)
      entityState.set(
        { blueprint: entity.blueprint_slug, entity: entity.slug, state, entity_name: entity.name },
        entity.state === state ? 1 : 0,
      );
    for (const [checkId, state] of Object.entries(entity.check_states ?? {})) {
      const definition = byId.get(checkId);
      if (!definition) continue;
      const labels = {
        check_id: checkId,
        entity: entity.slug,
        check_type: definition.check_type,
        check_name: checkNameOf(definition),
        entity_name: entity.name,
      };
      if (state !== 'unknown') checkUp.set(labels, state === 'down' ? 0 : 1);
      const latency = last.latency.get(checkId);
      if (latency !== undefined) checkLatency.set(labels, latency / 1000);
      const days = last.daysLeft.get(checkId);
      if (days !== undefined) certificateDays.set(labels, days * 86_400);
    }
  }
  const tally = counts ?? countStates(read.entities);
  for (const state of STATES) entities.set({ state }, tally[state]);
  results.inc({ status: 'success' }, counters.results_success);
  results.inc({ status: 'failure' }, counters.results_failure);
  alerts.inc({ status: 'sent' }, counters.alerts_sent);
  alerts.inc({ status: 'failed' }, counters.alerts_failed);
  alerts.inc({ status: 'skipped' }, counters.alerts_skipped);
  truncated.set(read.truncated ? 1 : 0);
  return { body: await registry.metrics() };
}

/** Counts per state of the entities read (a tenant whose counters are not seeded yet). */
function countStates(list: readonly EntityState[]): Record<(typeof STATES)[number], number> {
  const tally = { up: 0, degraded: 0, down: 0, unknown: 0 };
  for (const entity of list) tally[entity.state] += 1;
  return tally;
}
