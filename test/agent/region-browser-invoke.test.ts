import { InvokeCommand, LambdaClient, TooManyRequestsException } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { browserLegProber, lambdaBrowserInvoke } from '../../lib/agent/region-browser.ts';
import { createRegionBrowserHandler } from '../../lib/agent/region-browser-function.ts';
import { createPowertoolsLogger, fromPowertools } from '../../lib/cloud/edge/lambda-edge.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { INLINE_SCREENSHOT_CHARS } from '../../lib/probes/outcome.ts';
import { resultKey, startVigilStandIn } from '../support/vigil-stand-in.ts';
import { regionProbeLambda, SLOT } from './region-lambda.ts';

/**
 * A region's browser leg when the invoke of its browser function fails (lib/agent/region-browser.ts):
 * the leg is a failed result saying why, posted like any other, and the run goes on. Lambda has no
 * local engine, so aws-sdk-client-mock answers the probe function's Lambda client (loaded at the
 * first leg) with Lambda's own failures: a throttle, a function that timed out, an answer that is
 * not a result.
 */

const KEY = 'vlk_Region0Browser0Invoke0Tests000000001';
const FUNCTION = 'VigilProbe-eu-west-1-BrowserFunction';
const lambda = mockClient(LambdaClient);
afterEach(() => lambda.reset());
afterAll(() => lambda.restore());

/** A browser check whose only step names the failure the mock plays for it. */
const browserJob = (failure: string) => ({
  job_id: failure,
  slot: SLOT,
  check: {
    check_type: 'browser',
    timeout_ms: 30_000,
    variables: { token: { value: 'tok-s3cr3t-99', secret: true } },
    steps: [{ action: 'goto', url: `https://${failure}.example/?t={{variables.token}}` }],
  },
});

const reply = (json: unknown, functionError?: string) => ({
  StatusCode: 200,
  ...(functionError ? { FunctionError: functionError } : {}),
  Payload: new TextEncoder().encode(JSON.stringify(json)),
});

describe('a region’s browser leg whose invoke fails', () => {
  it('posts a failed result with the reason: throttled, timed out, or answered unreadably', async () => {
    const vigil = await startVigilStandIn(KEY);
    const sent: { FunctionName?: string; InvocationType?: string; check: unknown }[] = [];
    lambda.on(InvokeCommand).callsFake((input: InvokeCommand['input']) => {
      const payload = input.Payload instanceof Uint8Array ? new TextDecoder().decode(input.Payload) : '';
      const { check } = JSON.parse(payload) as {
        check: { steps: { url: string }[] };
      };
      sent.push({ FunctionName: input.FunctionName, InvocationType: input.InvocationType, check });
      const host = new URL(check.steps[0]?.url ?? 'https://none.example').hostname;
      if (host === 'throttled.example')
        throw new TooManyRequestsException({ message: 'Rate exceeded', $metadata: {} });
      if (host === 'timed-out.example')
        return reply(
          { errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 120.00 seconds' },
          'Unhandled',
        );
      return reply({ result: { success: 'yes' } });
    });
    const invoke = regionProbeLambda(
      vigil.url,
      KEY,
      lambdaBrowserInvoke({ functionName: FUNCTION, region: 'eu-west-1' }),
    );
    vigil.enqueue(browserJob('throttled'), browserJob('timed-out'), browserJob('unreadable'));

    try {
      const answer = await invoke();

      expect(answer).toEqual({ leased: 3, answered: 3, unsent: 0, refused: false });
      const stored = (id: string) => vigil.state.stored.get(resultKey({ job_id: id, slot: SLOT }))?.result;
      expect(stored('throttled')).toMatchObject({
        success: false,
        error_message: "this region's browser function failed: TooManyRequestsException: Rate exceeded",
      });
      expect(stored('timed-out')).toMatchObject({
        success: false,
        error_message: "this region's browser function failed: Task timed out after 120.00 seconds",
      });
      expect(stored('unreadable')).toMatchObject({
        success: false,
        error_message: expect.stringMatching(
          /^this region's browser function failed: its answer cannot be read at result\.success: /,
        ),
      });
      // One synchronous invoke of the region's function per leg, the check as leased (the mock answers
      // in place of the client's middleware, so the SDK's own retry of a throttle is not played here).
      expect(sent).toEqual(
        ['throttled', 'timed-out', 'unreadable'].map((failure) => ({
          FunctionName: FUNCTION,
          InvocationType: 'RequestResponse',
          check: browserJob(failure).check,
        })),
      );
    } finally {
      await vigil.stop();
    }
  });

  it('gives up on an invoke that does not answer within its bound', async () => {
    const prober = browserLegProber({
      invoke: () => new Promise(() => {}),
      clock: systemClock,
      boundMs: 50,
    });

    const { outcome } = await prober(browserJob('hung').check);

    expect(outcome).toMatchObject({
      success: false,
      error_message: "this region's browser function failed: no answer within 0.05 s",
    });
  });

  it('is answered with a failed result by a browser function that cannot read its payload, never a throw', async () => {
    const runs: unknown[] = [];
    const handler = createRegionBrowserHandler({
      runner: async (input) => {
        runs.push(input);
        throw new Error('no run expected');
      },
      allowPrivate: false,
      clock: systemClock,
      logger: fromPowertools(createPowertoolsLogger({ level: 'warn', write: () => {} })),
    });

    const unreadable = await handler({ checks: [] });
    const notBrowser = await handler({ check: { check_type: 'http', target_url: 'https://a.example' } });

    expect(unreadable.result).toMatchObject({
      success: false,
      error_message: expect.stringMatching(
        /^the region's browser function cannot read its payload at check: /,
      ),
    });
    expect(notBrowser.result).toMatchObject({
      success: false,
      error_message: 'the browser function runs browser checks only',
    });
    expect(runs).toEqual([]);
  });
});

describe('a browser run answered with its screenshots (a draft’s, from the draft browser function)', () => {
  const answered = (answer: Record<string, unknown>) => {
    const sent: unknown[] = [];
    const prober = browserLegProber({
      invoke: async (payload) => {
        sent.push(JSON.parse(payload));
        return { payload: JSON.stringify(answer) };
      },
      clock: systemClock,
      screenshots: true,
    });
    return { prober, sent };
  };
  const result = {
    success: false,
    status_code: 0,
    latency_ms: 900,
    error_message: 'step 2 failed',
    checked_at: '2026-11-28T03:00:00.000Z',
  };

  it('asks for them, and carries them and the count its bound left out on the outcome', async () => {
    const { prober, sent } = answered({
      result,
      screenshots: [{ step: 1, jpeg: '/9j/AAAA' }],
      screenshots_left_out: 2,
    });

    const { outcome } = await prober(browserJob('draft').check);

    expect(sent).toEqual([expect.objectContaining({ screenshots: true })]);
    expect(outcome).toMatchObject({
      success: false,
      screenshots: [{ step: 1, jpeg: '/9j/AAAA' }],
      screenshots_left_out: 2,
    });
  });

  it('is a failed run saying why when a screenshot is past the inline bound', async () => {
    const { prober } = answered({
      result,
      screenshots: [{ step: 0, jpeg: 'A'.repeat(INLINE_SCREENSHOT_CHARS + 4) }],
    });

    const { outcome } = await prober(browserJob('huge').check);

    expect(outcome).toMatchObject({
      success: false,
      error_message: expect.stringMatching(
        /^this region's browser function failed: its answer cannot be read at screenshots\.0\.jpeg/,
      ),
    });
    expect(outcome.screenshots).toBeUndefined();
  });
});
