import { createCheckBody } from '../../checks/check-input.ts';
import { publicCheck } from '../../checks/records.ts';
import { checkNameOf } from '../../domain/check-name.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { ProbeOutcome } from '../../probes/types.ts';
import type { BuiltinDeps, BuiltinTool } from './deps.ts';
import { positiveInt, READS, requiredString } from './deps.ts';
import { toolResult } from './result.ts';

/** get_check_results bounds: the window (results expire with retention anyway) and the results returned. */
export const RESULT_LIMITS = { maxHours: 24 * 7, maxItems: 1000 } as const;

/** The probe timeout of create_check's first probe: the default timeout of a new http check. */
const PROBE_TIMEOUT_MS = 5000;

type Result = Awaited<ReturnType<BuiltinDeps['checkReads']['results']>>['results'][number];

/** What a probe saw, in one sentence. */
function describeProbe(url: string, outcome: ProbeOutcome): string {
  const status = outcome.status_code ? `HTTP ${outcome.status_code}` : 'no HTTP response';
  return outcome.success
    ? `Probed ${url}: ${status} in ${outcome.latency_ms} ms, the check would pass.`
    : `Probed ${url}: ${status} after ${outcome.latency_ms} ms, the check would fail: ${outcome.error_message}.`;
}

/** get_check_results: the per-attempt results of one check over the last hours. */
export const getCheckResults: BuiltinTool = {
  name: 'get_check_results',
  annotations: { title: 'Check results', ...READS },
  handler: async (deps, caller, args) => {
    const checkId = requiredString(args, 'check_id');
    const name = checkNameOf(await deps.checkService.requireCheck(caller.tenantId, checkId));
    const hours = positiveInt(args, 'hours', 1, RESULT_LIMITS.maxHours);
    const since = deps.clock.now() - hours * 3_600_000;
    const results: Result[] = [];
    let truncated = false;
    let cursor: string | undefined;
    read: do {
      const page = await deps.checkReads.results(caller.tenantId, checkId, {
        limit: 100,
        ...(cursor ? { cursor } : {}),
      });
      for (const r of page.results) {
        if (Date.parse(r.checked_at) < since) break read;
        if (results.length === RESULT_LIMITS.maxItems) {
          truncated = true;
          break read;
        }
        results.push(r);
      }
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    const passed = results.filter((r) => r.success).length;
    const latencies = results.map((r) => r.latency_ms);
    const avg = latencies.length ? Math.round(latencies.reduce((a, b) => a + b, 0) / latencies.length) : 0;
    const summary =
      results.length === 0
        ? `No results for check "${name}" (${checkId}) in the last ${hours} h.`
        : `Check "${name}": ${results.length} results in the last ${hours} h (newest first): ${passed} passed, ` +
          `${results.length - passed} failed, average latency ${avg} ms.`;
    return toolResult(summary, { check_id: checkId, check_name: name, hours, results, truncated });
  },
};

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
    const parsed = createCheckBody.safeParse({
      entity_id: args.entity_id,
      check_type: 'http',
      target_url: args.target_url,
      ...(args.name !== undefined ? { name: args.name } : {}),
      interval_seconds: positiveInt(args, 'interval_seconds', 60, 86_400),
    });
    if (!parsed.success) {
      throw new ValidationError(
        'invalid check',
        parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      );
    }
    const body = parsed.data;
    const entityId = requiredString(args, 'entity_id');
    // Another tenant's entity is not found before anything leaves the network.
    if (!(await deps.entityStore.getById(caller.tenantId, entityId))) throw new NotFoundError('entity');
    const url = body.target_url ?? '';
    const { outcome } = await deps.prober({
      check_type: 'http',
      target_url: url,
      timeout_ms: PROBE_TIMEOUT_MS,
    });
    const probe = { ...outcome, summary: describeProbe(url, outcome) };
    if (args.dry_run === true) {
      return toolResult(`${probe.summary} Dry run: no check was created.`, { dry_run: true, probe });
    }
    const check = publicCheck(await deps.checkService.create(caller.tenantId, body), caller);
    return toolResult(
      `Created http check "${check.name}" (${check.id}) every ${check.interval_seconds} s. ${probe.summary}`,
      {
        dry_run: false,
        probe,
        check,
      },
    );
  },
};
