import { entityRefInput } from '../../catalog/entities.ts';
import { checkNameOf } from '../../check-types/check-name.ts';
import type { Principal } from '../../domain/principal.ts';
import type { BuiltinTool } from '../../platform/mcp-tool.ts';
import { READS } from '../../platform/mcp-tool.ts';
import { entityWithState, entityWords, someOf, toolResult } from '../../platform/tool-answers.ts';
import { entityRef, GRAPH_LIMITS, load, walk } from '../../status/board-reads.ts';
import { entityTransitionsSince } from '../../status/incidents-tool.ts';
import type { ExplainToolDeps } from './deps.ts';

/**
 * explain_entity_state: why an entity is in its state. An entity's state comes from its own enabled
 * checks (DECISIONS.md "Alert model (wave 4)": the worst wins, or under `state_rule: all_down` down
 * only when all are), so the answer names its down and degraded checks first, each with its reason
 * (the error or assertion failure of its last result in that state) and since when (its last
 * transition into that state). Upstream entities (depends_on, transitively) come after: when the
 * entity is down or degraded, an upstream that is not up is a possible cause of its checks'
 * failures; when it is up, a down upstream does not change its state, and the text says so.
 */

/** Down and degraded checks read for their reason and since (the rest are only named). */
const EXPLAINED_CHECKS = 20;

type Check = Awaited<ReturnType<ExplainToolDeps['checkService']['list']>>[number];

/** What the answer says of one down or degraded check. */
async function explainCheck(
  deps: ExplainToolDeps,
  tenantId: string,
  check: Check & { name: string },
  explain: boolean,
) {
  const state = check.state as 'down' | 'degraded';
  const about = { id: check.id, name: check.name, check_type: check.check_type, state };
  if (!explain) return { check: about, since: null, reason: null, reason_at: null };
  const [results, transitions] = await Promise.all([
    deps.checkReads.results(tenantId, check.id, { limit: 20 }),
    deps.checkReads.transitions(tenantId, check.id, { limit: 5 }),
  ]);
  // An inconclusive slot (too few locations reported) explains no state: it moved none.
  const last =
    results.results.find((r) => r.outcome === state) ??
    results.results.find((r) => r.outcome !== 'inconclusive');
  const into = transitions.transitions.find((t) => t.to_state === state);
  return {
    check: about,
    since: into?.created_at ?? null,
    reason: last?.error_message || null,
    reason_at: last?.checked_at ?? null,
  };
}

type Explained = Awaited<ReturnType<typeof explainCheck>>;

function checkWords(e: Explained): string {
  const since = e.since ? ` since ${e.since}` : '';
  const reason = e.reason ? `: ${e.reason}` : '';
  const at = e.reason_at ? ` (last such result ${e.reason_at})` : '';
  return `check "${e.check.name}" is ${e.check.state}${since}${reason}${at}`;
}

async function explain(deps: ExplainToolDeps, caller: Principal, args: Record<string, unknown>) {
  const entity = await load(deps, caller.tenantId, args);
  const named = (await deps.checkService.list(caller.tenantId, { entity_id: entity.id }))
    .filter((c) => c.enabled)
    .map((c) => ({ ...c, name: checkNameOf(c) }));
  const rank = (s: string) => (s === 'down' ? 0 : 1);
  const notUp = named
    .filter((c) => c.state === 'down' || c.state === 'degraded')
    .sort((a, b) => rank(a.state) - rank(b.state) || a.name.localeCompare(b.name));
  const explained = await Promise.all(
    notUp.map((c, i) => explainCheck(deps, caller.tenantId, c, i < EXPLAINED_CHECKS)),
  );
  const upstream = await walk(deps, caller.tenantId, entity.id, true);
  const upstreamNotUp = upstream.reached.filter((e) => e.state === 'down' || e.state === 'degraded');
  const since = deps.clock.now() - GRAPH_LIMITS.transitionHours * 3_600_000;
  // Counted from the entity's own changes (a window of the tenant's feed could miss some), listed
  // newest first up to maxTransitions.
  const changes = await entityTransitionsSince(
    deps,
    caller.tenantId,
    since,
    GRAPH_LIMITS.maxEntities,
    entity.id,
  );
  const transitions = changes.transitions.slice(0, GRAPH_LIMITS.maxTransitions);
  const counted = `${changes.truncated ? 'More than ' : ''}${changes.transitions.length}`;
  const listedNote =
    changes.transitions.length > transitions.length ? ` (the newest ${transitions.length} listed)` : '';

  const bad = entity.state === 'down' || entity.state === 'degraded';
  const up = named.filter((c) => c.state === 'up').length;
  const parts = [`${entityWords(entity)} is ${entity.state}.`];
  if (explained.length > 0) {
    const listed = explained.slice(0, EXPLAINED_CHECKS).map(checkWords);
    const more = explained.length > EXPLAINED_CHECKS ? `; ${explained.length - EXPLAINED_CHECKS} more` : '';
    const sentence = `${listed.join('; ')}${more}.`;
    parts.push(`${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}`);
    if (entity.state === 'degraded' && notUp.some((c) => c.state === 'down')) {
      parts.push('(Its state rule is all_down: the entity is down only when all its checks are.)');
    }
    parts.push(`Enabled checks up: ${up} of ${named.length}.`);
  } else if (named.length === 0) {
    parts.push('It has no enabled checks.');
  } else if (bad) {
    parts.push(`None of its enabled checks (${named.length}) is down or degraded now.`);
  } else {
    parts.push(`Enabled checks up: ${up} of ${named.length}; none is down or degraded.`);
  }
  const upstreamNames = someOf(upstreamNotUp.map(entityWithState));
  if (upstreamNotUp.length > 0 && bad) {
    parts.push(`Upstream not up, a possible cause: ${upstreamNames}.`);
  } else if (upstreamNotUp.length > 0) {
    parts.push(
      `Upstream not up: ${upstreamNames}; it does not change this entity's state, which comes from its own checks.`,
    );
  } else if (upstream.reached.length > 0 && bad) {
    parts.push(`None of its upstream entities (${upstream.reached.length}) is down or degraded.`);
  }
  parts.push(`${counted} state changes in the last ${GRAPH_LIMITS.transitionHours} h${listedNote}.`);
  return toolResult(parts.join(' '), {
    entity: entityRef(entity),
    checks_total: named.length,
    checks_not_up: explained,
    upstream_not_up: upstreamNotUp,
    upstream_truncated: upstream.truncated,
    recent_transitions: transitions,
    transitions_total: changes.transitions.length,
    transitions_truncated: changes.truncated,
  });
}

export const explainEntityState: BuiltinTool<ExplainToolDeps> = {
  name: 'explain_entity_state',
  offer: {
    toolset: 'catalog-ops',
    order: 90,
    version: '2.2.0',
    description:
      'Why an entity is in its state: its down and degraded checks first, each with its reason (last error or assertion failure) and since when; then upstream entities not up, as a possible cause; recent transitions.',
    inputSchema: entityRefInput,
  },
  annotations: { title: 'Explain entity state', ...READS },
  handler: explain,
};
