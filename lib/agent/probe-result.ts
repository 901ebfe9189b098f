import * as z from 'zod';
import { isoTime } from '../domain/formats.ts';
import type { ProbeDetails, Probed } from '../probes/types.ts';

/**
 * One probe's result on the wire (lib/agent/protocol.ts): what a located agent posts and the cloud
 * browser function hands back (lib/cloud/browser-function.ts). A module of its own so that the
 * worker, which reads a browser function's result, does not carry the lease protocol.
 */

/** The longest error message a result carries. */
export const MAX_ERROR_MESSAGE = 2000;
const MAX_DNS_ANSWERS = 100;
const MAX_DETAIL_TEXT = 1000;

/** A result's details (lib/probes/types.ts ProbeDetails), bounded. */
const probeDetailsSchema = z.strictObject({
  days_left: z.number().int().optional(),
  answers: z.array(z.string().max(MAX_DETAIL_TEXT)).max(MAX_DNS_ANSWERS).optional(),
  error_code: z.string().max(200).optional(),
  packets_sent: z.number().int().min(0).optional(),
  packets_received: z.number().int().min(0).optional(),
  packet_loss_percent: z.number().min(0).max(100).optional(),
  rtt_min_ms: z.number().min(0).optional(),
  rtt_avg_ms: z.number().min(0).optional(),
  rtt_max_ms: z.number().min(0).optional(),
  grpc_status: z.string().max(200).optional(),
  expires_at: z.string().max(200).optional(),
  rdap_server: z.string().max(MAX_DETAIL_TEXT).optional(),
  tls_warning: z.string().max(MAX_DETAIL_TEXT).optional(),
  steps: z
    .array(
      z.union([
        z.strictObject({
          name: z.string().max(64),
          outcome: z.enum(['passed', 'degraded', 'failed', 'skipped']),
          status_code: z.number().int().min(0),
          error: z.string().max(MAX_DETAIL_TEXT).optional(),
          timings: z
            .strictObject({
              dns_ms: z.number().int().min(0).optional(),
              connect_ms: z.number().int().min(0).optional(),
              tls_ms: z.number().int().min(0).optional(),
              first_byte_ms: z.number().int().min(0).optional(),
              total_ms: z.number().int().min(0),
            })
            .optional(),
        }),
        z.strictObject({
          action: z.string().max(16),
          outcome: z.enum(['passed', 'failed', 'skipped']),
          ms: z.number().int().min(0),
          error: z.string().max(MAX_DETAIL_TEXT).optional(),
        }),
      ]),
    )
    .max(30)
    .optional(),
  failed_step: z.string().max(64).optional(),
  vitals: z
    .strictObject({
      lcp_ms: z.number().min(0).optional(),
      cls: z.number().min(0).optional(),
      ttfb_ms: z.number().min(0).optional(),
    })
    .optional(),
});

// tsc names a detail a probe reports (lib/probes/types.ts) that the wire does not carry yet.
const everyDetailCarried: [Exclude<keyof ProbeDetails, keyof z.infer<typeof probeDetailsSchema>>] extends [
  never,
]
  ? true
  : never = true;
void everyDetailCarried;

/**
 * One probe's result, as the result recorder takes it (lib/checks/results/result-recorder.ts
 * ResultInput): `checked_at` is when the probe began.
 */
export const probeResultSchema = z.strictObject({
  success: z.boolean(),
  /** A degraded success (error_message says why); absent otherwise. */
  degraded: z.literal(true).optional(),
  status_code: z.number().int().min(0).max(999),
  latency_ms: z.number().int().min(0),
  error_message: z.string().max(MAX_ERROR_MESSAGE),
  checked_at: z.iso.datetime(),
  details: probeDetailsSchema.optional(),
});
export type ProbeResult = z.infer<typeof probeResultSchema>;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A probe's outcome as a wire result, texts cut to the protocol's bounds. */
export function toWireResult({ outcome, startedMs }: Probed): ProbeResult {
  const details: ProbeDetails | undefined = outcome.details;
  return {
    success: outcome.success,
    ...(outcome.degraded ? { degraded: true } : {}),
    status_code: outcome.status_code,
    latency_ms: Math.max(0, Math.round(outcome.latency_ms)),
    error_message: cut(outcome.error_message, MAX_ERROR_MESSAGE),
    checked_at: isoTime(startedMs),
    ...(details ? { details: wireDetails(details) } : {}),
  };
}

function wireDetails(details: ProbeDetails): NonNullable<ProbeResult['details']> {
  const { answers, rdap_server, tls_warning, ...rest } = details;
  return {
    ...rest,
    ...(answers ? { answers: answers.slice(0, MAX_DNS_ANSWERS).map((a) => cut(a, MAX_DETAIL_TEXT)) } : {}),
    ...(rdap_server !== undefined ? { rdap_server: cut(rdap_server, MAX_DETAIL_TEXT) } : {}),
    ...(tls_warning !== undefined ? { tls_warning: cut(tls_warning, MAX_DETAIL_TEXT) } : {}),
  };
}

/** A failed result for a job this agent could not probe (`problem` says why). */
export function unprobedResult(problem: string, atMs: number): ProbeResult {
  return {
    success: false,
    status_code: 0,
    latency_ms: 0,
    error_message: cut(problem, MAX_ERROR_MESSAGE),
    checked_at: isoTime(atMs),
  };
}
