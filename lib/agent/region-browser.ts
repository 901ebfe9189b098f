import * as z from 'zod';
import { redactOutcome } from '../check-types/outcome-redaction.ts';
import { runsAlone } from '../check-types/registry.ts';
import type { Clock } from '../platform/clock.ts';
import { failed, INLINE_SCREENSHOT_CHARS, startTimer } from '../probes/outcome.ts';
import type { ProbeDefinition, Probed, ProbeOutcome, Prober } from '../probes/types.ts';
import { type ProbeResult, probeResultSchema } from './probe-result.ts';

/**
 * Browser legs in an AWS region (docs/scripted-checks.md "From probe locations"): the region's
 * probe function has no browser, so its prober hands each browser check it leased to the region's
 * own browser function (infra/probe-region.ts), invoked synchronously, and posts what it answers as
 * its leg's result. A failed or late invoke is a failed leg saying why, never a thrown job.
 */

/**
 * The most browser legs a region runs at once: its browser function's reserved concurrency, and
 * so how many invokes the probe function has in flight (the others wait their turn), so that no
 * leg fails for a throttle of the region's own making.
 */
export const REGION_BROWSER_RUNS = 4;

/**
 * What the probe function sends: the check as leased (its steps and variables, secrets included).
 * `screenshots`: answer the run's screenshots inline (a draft's run, from the home's API function).
 */
export const regionBrowserRequestSchema = z.strictObject({
  check: z.record(z.string(), z.unknown()),
  screenshots: z.literal(true).optional(),
});
type RegionBrowserRequest = z.infer<typeof regionBrowserRequestSchema>;

/**
 * What the browser function answers: the leg's result as an agent posts it (steps, vitals, error),
 * and, when asked, the run's screenshots within INLINE_SCREENSHOT_CHARS and how many that left out.
 */
const regionBrowserAnswerSchema = z.strictObject({
  result: probeResultSchema,
  screenshots: z
    .array(
      z.strictObject({
        step: z.number().int().min(0),
        jpeg: z.string().max(INLINE_SCREENSHOT_CHARS),
      }),
    )
    .max(100)
    .optional(),
  screenshots_left_out: z.number().int().min(1).optional(),
});
export type RegionBrowserAnswer = z.infer<typeof regionBrowserAnswerSchema>;

/** A synchronous invoke's reply: the function's answer (JSON), and Lambda's FunctionError when it threw or timed out. */
interface InvokeReply {
  payload: string;
  functionError?: string | undefined;
}

/** Invokes the region's browser function with `payload` (JSON) and waits for its reply; `signal` gives up. */
export type BrowserInvoke = (payload: string, signal: AbortSignal) => Promise<InvokeReply>;

/** The most a run's steps take (lib/check-types/browser/browser-probe.ts), whatever its timeout_ms. */
const MAX_RUN_MS = 60_000;
/** Beyond the run: Chromium's start and close (the runner's grace, 20 s) and a cold start's unpacking. */
const INVOKE_GRACE_MS = 30_000;

/** The Lambda adapter: @aws-sdk/client-lambda, loaded at the first browser leg (the probe function's start carries none of it). */
export function lambdaBrowserInvoke(options: {
  functionName: string;
  region: string | undefined;
}): BrowserInvoke {
  let client: Promise<(payload: string, signal: AbortSignal) => Promise<InvokeReply>> | undefined;
  const connect = async () => {
    const { InvokeCommand, LambdaClient } = await import('@aws-sdk/client-lambda');
    const lambda = new LambdaClient(options.region ? { region: options.region } : {});
    return async (payload: string, signal: AbortSignal): Promise<InvokeReply> => {
      const out = await lambda.send(
        new InvokeCommand({
          FunctionName: options.functionName,
          InvocationType: 'RequestResponse',
          Payload: new TextEncoder().encode(payload),
        }),
        { abortSignal: signal },
      );
      return {
        payload: out.Payload ? new TextDecoder().decode(out.Payload) : '',
        functionError: out.FunctionError,
      };
    };
  };
  return async (payload, signal) => {
    client ??= connect();
    return (await client)(payload, signal);
  };
}

/** What Lambda answers for a function that threw or ran out of time. */
const functionErrorSchema = z.object({ errorMessage: z.string().optional() });

interface LegDeps {
  invoke: BrowserInvoke;
  clock: Clock;
  /** How long an invoke may take; default the run's bound and INVOKE_GRACE_MS. */
  boundMs?: number | undefined;
  /** Whether the outcome carries the run's screenshots (a draft's run answers them inline); default no. */
  screenshots?: boolean;
}

class LegTimeout extends Error {
  override readonly name = 'LegTimeout';
}

/**
 * The prober of browser legs: at most REGION_BROWSER_RUNS invokes at once, each bounded by the
 * run's 60 s and INVOKE_GRACE_MS (`boundMs` in tests), its answer parsed; the outcome is redacted as
 * runProbe redacts every probe's.
 */
export function browserLegProber(deps: LegDeps): Prober {
  const acquire = slots(REGION_BROWSER_RUNS);
  return async (def) => {
    const release = await acquire();
    try {
      const probed = await invokeLeg(def, deps);
      return { ...probed, outcome: redactOutcome(probed.outcome, def) };
    } finally {
      release();
    }
  };
}

async function invokeLeg(def: ProbeDefinition, deps: LegDeps): Promise<Probed> {
  const startedMs = deps.clock.now();
  const elapsed = startTimer();
  const boundMs = deps.boundMs ?? Math.min(def.timeout_ms, MAX_RUN_MS) + INVOKE_GRACE_MS;
  const fail = (reason: string): Probed => ({
    outcome: failed(`this region's browser function failed: ${reason}`, elapsed()),
    startedMs,
  });
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new LegTimeout(`no answer within ${boundMs / 1000} s`)),
    boundMs,
  );
  const timedOut = new Promise<never>((_, reject) =>
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }),
  );
  let reply: InvokeReply;
  try {
    const request: RegionBrowserRequest = { check: def, ...(deps.screenshots ? { screenshots: true } : {}) };
    reply = await Promise.race([deps.invoke(JSON.stringify(request), controller.signal), timedOut]);
  } catch (err) {
    if (err instanceof LegTimeout) return fail(err.message);
    return fail(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  } finally {
    clearTimeout(timer);
  }
  const body = parseJson(reply.payload);
  if (reply.functionError !== undefined) {
    const error = functionErrorSchema.safeParse(body);
    return fail((error.success ? error.data.errorMessage : undefined) ?? reply.functionError);
  }
  const answer = regionBrowserAnswerSchema.safeParse(body);
  if (!answer.success) {
    const issue = answer.error.issues[0];
    return fail(`its answer cannot be read at ${issue?.path.join('.') || 'its root'}: ${issue?.message}`);
  }
  const { result, screenshots, screenshots_left_out } = answer.data;
  return {
    outcome: {
      ...fromWireResult(result),
      ...(screenshots?.length ? { screenshots } : {}),
      ...(screenshots_left_out ? { screenshots_left_out } : {}),
    },
    startedMs: Date.parse(result.checked_at),
  };
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** A wire result (lib/agent/probe-result.ts) as the outcome the agent posts it from again. */
function fromWireResult(result: ProbeResult): ProbeOutcome {
  return {
    success: result.success,
    ...(result.degraded ? { degraded: true } : {}),
    status_code: result.status_code,
    latency_ms: result.latency_ms,
    error_message: result.error_message,
    ...(result.details ? { details: result.details } : {}),
  };
}

/** `acquire()` resolves with a release once fewer than `n` hold a slot; first come, first served. */
function slots(n: number): () => Promise<() => void> {
  let held = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else held -= 1;
  };
  return async () => {
    if (held < n) held += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    return release;
  };
}

/** The region's prober: browser checks (a type whose slots run alone) to `browser`, the rest to `local`. */
export function withBrowserLegs(local: Prober, browser: Prober): Prober {
  return (def) => (runsAlone(def.check_type) ? browser(def) : local(def));
}
