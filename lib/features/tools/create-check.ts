import { requiredEntity } from '../../catalog/entities.ts';
import { checkTypeDefinition } from '../../check-types/registry.ts';
import { createCheckBody, definitionFromCreate } from '../../checks/check-input.ts';
import { probeDefinition } from '../../checks/probe-job.ts';
import { publicCheck } from '../../checks/records.ts';
import { issueSentence } from '../../http/requests.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { BuiltinTool } from '../../platform/mcp-tool.ts';
import { writes } from '../../platform/mcp-tool.ts';
import { entityWords, toolResult } from '../../platform/tool-answers.ts';
import type { ProbeDefinition, ProbeOutcome } from '../../probes/types.ts';
import type { CheckToolDeps } from './deps.ts';
import { createCheckInput } from './schemas.ts';

/** What a probe saw, in one sentence: an http probe names its status, other types their target. */
function describeProbe(job: ProbeDefinition, target: string, outcome: ProbeOutcome): string {
  const http = job.check_type === 'http';
  const status = outcome.status_code ? `HTTP ${outcome.status_code} ` : http ? 'no HTTP response ' : '';
  return outcome.success
    ? `Probed ${target}: ${status}in ${outcome.latency_ms} ms, the check would pass.`
    : `Probed ${target}: ${status}after ${outcome.latency_ms} ms, the check would fail: ${outcome.error_message}.`;
}

/**
 * The create body from the tool's arguments: http's target_url, another type's config. A push
 * check without a failure_threshold gets 1, as every heartbeat made for a user does (DECISIONS.md
 * "Heartbeat defaults"); other types keep the API's default.
 */
function bodyFrom(args: Record<string, unknown>, entityId: string) {
  const checkType = args.check_type ?? 'http';
  const threshold = args.failure_threshold ?? (checkType === 'push' ? 1 : undefined);
  const parsed = createCheckBody.safeParse(
    {
      entity_id: entityId,
      check_type: checkType,
      ...(args.target_url !== undefined ? { target_url: args.target_url } : {}),
      ...(args.config !== undefined ? { config: args.config } : {}),
      ...(args.name !== undefined ? { name: args.name } : {}),
      ...(args.interval_seconds !== undefined ? { interval_seconds: args.interval_seconds } : {}),
      ...(threshold !== undefined ? { failure_threshold: threshold } : {}),
      ...(args.locations !== undefined ? { locations: args.locations } : {}),
      ...(args.quorum !== undefined ? { quorum: args.quorum } : {}),
    },
    { error: issueSentence },
  );
  if (!parsed.success) {
    throw new ValidationError(
      'invalid check',
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
  return parsed.data;
}

/**
 * create_check: registers a check of the entity, of any registered type, under the API's rules
 * (POST /v1/checks: the create body, the per-type config, the runtime's refusals). A probed type
 * is probed once first through the app's prober (the checks' SSRF rules), with the job the check
 * would run; push checks are not probed. dry_run: nothing is created.
 */
export const createCheck: BuiltinTool<CheckToolDeps> = {
  name: 'create_check',
  offer: {
    toolset: 'catalog-ops',
    order: 70,
    version: '2.2.0',
    description:
      'Registers a check of the entity: http (target_url) or another check type (its config, as POST /v1/checks takes it), optionally probed from several locations with a quorum. Probed types are probed once first (from here) and the answer says what the probe saw; push checks are not probed. dry_run: create nothing.',
    inputSchema: createCheckInput,
  },
  // Its entity: not found before the write is confirmed when the tenant has none.
  references: async (deps, caller, args) => {
    await requiredEntity(deps, caller.tenantId, args);
  },
  annotations: writes('Create check', { openWorld: true }),
  handler: async (deps, caller, args) => {
    // Another tenant's entity is not found before anything leaves the network.
    const entity = await requiredEntity(deps, caller.tenantId, args);
    const body = bodyFrom(args, entity.id);
    // The same rules as the API's create, before anything leaves the network: config, schedule, runtime.
    const definition = definitionFromCreate(body, deps.runtime);
    const job = probeDefinition(definition);
    const type = checkTypeDefinition(definition.check_type);
    const target =
      definition.check_type === 'http'
        ? (definition.target_url ?? '')
        : 'kind' in type
          ? ''
          : type.targetLabel(definition.config);
    const probe = job
      ? await deps
          .prober(job)
          .then(({ outcome }) => ({ ...outcome, summary: describeProbe(job, target, outcome) }))
      : undefined;
    const probed = probe ? probe.summary : `${type.label} checks are not probed.`;
    if (args.dry_run === true) {
      return toolResult(`${probed} Dry run: no check was created on ${entityWords(entity)}.`, {
        dry_run: true,
        ...(probe ? { probe } : {}),
      });
    }
    const check = publicCheck(await deps.checkService.create(caller.tenantId, body), caller);
    return toolResult(
      `Created ${check.check_type} check "${check.name}" on ${entityWords(entity)}, every ${check.interval_seconds} s. ${probed}`,
      { dry_run: false, ...(probe ? { probe } : {}), check },
    );
  },
};
