import { createCheckBody } from '../../checks/check-input.ts';
import { publicCheck } from '../../checks/records.ts';
import { issueSentence } from '../../http/issue-messages.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { ProbeOutcome } from '../../probes/types.ts';
import type { BuiltinTool } from './deps.ts';
import { positiveInt, requiredString } from './deps.ts';
import { entityWords } from './names.ts';
import { toolResult } from './result.ts';

/** The probe timeout of create_check's first probe: the default timeout of a new http check. */
const PROBE_TIMEOUT_MS = 5000;

/** What a probe saw, in one sentence. */
function describeProbe(url: string, outcome: ProbeOutcome): string {
  const status = outcome.status_code ? `HTTP ${outcome.status_code}` : 'no HTTP response';
  return outcome.success
    ? `Probed ${url}: ${status} in ${outcome.latency_ms} ms, the check would pass.`
    : `Probed ${url}: ${status} after ${outcome.latency_ms} ms, the check would fail: ${outcome.error_message}.`;
}

/** create_check: probes a URL once and, unless dry_run, registers an http check of the entity. */
export const createCheck: BuiltinTool = {
  name: 'create_check',
  annotations: {
    title: 'Create HTTP check',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  handler: async (deps, caller, args) => {
    const parsed = createCheckBody.safeParse(
      {
        entity_id: args.entity_id,
        check_type: 'http',
        target_url: args.target_url,
        ...(args.name !== undefined ? { name: args.name } : {}),
        interval_seconds: positiveInt(args, 'interval_seconds', 60, 86_400),
      },
      { error: issueSentence },
    );
    if (!parsed.success) {
      throw new ValidationError(
        'invalid check',
        parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      );
    }
    const body = parsed.data;
    const entityId = requiredString(args, 'entity_id');
    // Another tenant's entity is not found before anything leaves the network.
    const entity = await deps.entityStore.getById(caller.tenantId, entityId);
    if (!entity) throw new NotFoundError('entity');
    const url = body.target_url ?? '';
    const { outcome } = await deps.prober({
      check_type: 'http',
      target_url: url,
      timeout_ms: PROBE_TIMEOUT_MS,
    });
    const probe = { ...outcome, summary: describeProbe(url, outcome) };
    if (args.dry_run === true) {
      return toolResult(`${probe.summary} Dry run: no check was created on ${entityWords(entity)}.`, {
        dry_run: true,
        probe,
      });
    }
    const check = publicCheck(await deps.checkService.create(caller.tenantId, body), caller);
    return toolResult(
      `Created http check "${check.name}" on ${entityWords(entity)}, every ${check.interval_seconds} s. ${probe.summary}`,
      {
        dry_run: false,
        probe,
        check,
      },
    );
  },
};
