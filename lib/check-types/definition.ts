import type * as z from 'zod';
import type { Runtime } from '../platform/config.ts';
import type { ProbeDeps, ProbeOutcome } from '../probes/types.ts';

/**
 * One check type, whole, in one file under this folder: what a request may configure, what is
 * stored, the name and label it gets, the probe job it becomes and the probe that runs it.
 * Registered once in ./registry.ts, typed `satisfies Record<CheckType, ...>`, so the compiler
 * refuses a type without every part; nothing else switches on a type's name
 * (test/architecture/variant-switches.test.ts).
 */

/** Per-check TLS trust (http, tls and grpc checks): an extra CA, or no verification at all. */
export interface CheckTlsTrust {
  /** PEM certificates trusted for this check only, on top of the system's and VIGIL_EXTRA_CA. */
  ca_pem?: string | undefined;
  /** Accept any certificate (self-signed, expired, wrong name); results say so as a warning. */
  skip_verify?: boolean | undefined;
}

/** What every probe job carries besides its type's config. */
export interface ProbeCommon {
  timeout_ms: number;
  /** A success slower than this (ms) is degraded; absent: never. */
  degraded_latency_ms?: number | undefined;
  tls?: CheckTlsTrust | undefined;
}

/**
 * A probed check type configured by `config` alone (tcp, tls, dns, icmp, grpc, domain): the job
 * is the config with the common probe fields and `check_type`; it crosses to a probe thread as
 * JSON, so it holds data only.
 */
export interface ConfiguredCheckType<T extends string, C extends object> {
  /** The console's and the docs' name: "TCP", "gRPC health", "Domain expiry". */
  label: string;
  /** The request's config: strict, with sentence-long messages. */
  input: z.ZodType<C>;
  /** The stored config: lenient (unknown keys dropped). */
  stored: z.ZodType<C>;
  /** Whether per-check TLS trust (`tls`) applies to this type. */
  tls: boolean;
  /**
   * Why a runtime cannot run this type (a create there is a 400 with this sentence), by runtime;
   * absent: every runtime runs it.
   */
  unsupported?: Partial<Record<Runtime, string>>;
  /** The derived name: "TCP db.internal:5432". */
  defaultName(config: C): string;
  /** What alerts say it probes: "tcp db.internal:5432" (no secrets). */
  targetLabel(config: C): string;
  /** Runs one probe; never throws (a failure is a failed outcome). */
  probe(job: C & ProbeCommon & { check_type: T }, deps: ProbeDeps): Promise<ProbeOutcome>;
}

/** Declares a configured check type with its config type inferred from its schemas. */
export function defineCheckType<T extends string, C extends object>(
  _type: T,
  definition: ConfiguredCheckType<T, C>,
): ConfiguredCheckType<T, C> {
  return definition;
}
