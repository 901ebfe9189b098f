import type * as z from 'zod';
import type { Runtime } from '../../platform/config.ts';
import type {
  CheckTlsTrust,
  HttpProbeDefinition,
  ProbeCommon,
  ProbeDeps,
  Probed,
} from '../../probes/types.ts';

/**
 * One check type in two files under this folder: `<type>.ts`, its shape (what a request may
 * configure, what is stored, the name and label it gets, the probe job it becomes), registered in
 * ./registry.ts; and `<type>-probe.ts`, the probe that runs it, registered in ./probe-registry.ts.
 * The shape is all most functions need, and it reaches no network client: only the code that
 * probes loads the probes (and a probe's heavy client, gRPC, only when it runs). Both registries
 * are typed against every type, so the compiler refuses a type without every part; nothing else
 * switches on a type's name (test/architecture/variant-switches.test.ts).
 */

export type { CheckTlsTrust };

/** The job of a configured type: its config with the common probe fields and `check_type`. */
export type ConfiguredProbeJob<T extends string, C extends object> = C & ProbeCommon & { check_type: T };

/** The job of type `T` as its definition `D` (`typeof dnsCheckType`) gives its config. */
export type ProbeJobOf<T extends string, D> =
  D extends ConfiguredCheckType<infer C> ? ConfiguredProbeJob<T, C> : never;

/**
 * A probed check type configured by `config` alone (tcp, tls, dns, icmp, grpc, domain): the job
 * is the config with the common probe fields and `check_type`; it crosses to a probe thread as
 * JSON, so it holds data only.
 */
export interface ConfiguredCheckType<C extends object> {
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
  /**
   * Each slot is a run of its own (a browser: a process with Chromium, up to a minute): the check
   * never joins a cell, its slots are per-check probe jobs, which the cloud's worker hands to a
   * function of their own (lib/cloud/browser-function.ts), where `probe` runs the job's check as
   * received (parsed there: a check it cannot read is a `problem`). Absent: it runs in a cell.
   */
  runsAlone?: { probe(check: unknown, deps: ProbeDeps): Promise<Probed | { problem: string }> };
  /**
   * Why a runtime cannot run a draft of this type (POST /v1/checks/run-draft probes in the API's
   * own process: a 400 with this sentence), by runtime; absent: as `unsupported`.
   */
  draftUnsupported?: Partial<Record<Runtime, string>>;
  /** The derived name: "TCP db.internal:5432". */
  defaultName(config: C): string;
  /** What alerts say it probes: "tcp db.internal:5432" (no secrets). */
  targetLabel(config: C): string;
  /**
   * The secrets its probe sends (a token, metadata values): hidden in every outcome before it is
   * stored (lib/check-types/outcome-redaction.ts); absent: none.
   */
  secrets?(config: C): string[];
  /**
   * The fewest seconds between runs (the target rate-limits: RDAP servers); a shorter
   * interval_seconds is a 400 at create and update. Absent: 1.
   */
  minIntervalSeconds?: number;
  /**
   * The config as the Check responses show it (written-only secrets as `********`); absent: as
   * stored. `view` is its schema in the API document (absent: `input`).
   */
  present?(config: C, options: { readOnly: boolean }): object;
  view?: z.ZodType;
  /**
   * The config an update's `config` (not yet parsed) stands for, given the stored one: a
   * `********` secret keeps its stored value (or throws a ValidationError naming the field when
   * none can be kept); absent: the update's config as given.
   */
  keep?(incoming: Record<string, unknown>, stored: C | undefined): Record<string, unknown>;
}

/** What the derived name and the alert label of an http or push check read: its top-level fields. */
interface CheckTopFields {
  method: string;
  target_url: string | null;
  entity_slug: string;
  interval_seconds: number;
}

/**
 * The http check type: its target and request are top-level fields of the check (the job is
 * lib/probes/types.ts' HttpProbeDefinition), its `config` is empty.
 */
export interface HttpCheckType {
  kind: 'http';
  label: string;
  input: z.ZodType<Record<string, never>>;
  stored: z.ZodType<Record<string, never>>;
  tls: true;
  unsupported?: Partial<Record<Runtime, string>>;
  defaultName(check: CheckTopFields): string;
  targetLabel(check: CheckTopFields): string;
  /** The secrets its probe sends: the header values and the URL's credentials. */
  secrets(job: HttpProbeDefinition): string[];
}

/**
 * A type never probed: push (reported to; a dead man's switch runs out instead) and outside (one
 * per entity and integration, made and written only by the integration's alerts (lib/integrations):
 * never created, edited or deleted through the API, config as code, MCP or the importers).
 */
interface UnprobedCheckType<K extends 'push' | 'outside', C extends object> {
  kind: K;
  label: string;
  input: z.ZodType<C>;
  stored: z.ZodType<C>;
  tls: false;
  unsupported?: Partial<Record<Runtime, string>>;
  defaultName(check: CheckTopFields): string;
  targetLabel(check: CheckTopFields): string;
}
export type PushCheckType<C extends object = object> = UnprobedCheckType<'push', C>;
export type OutsideCheckType<C extends object = object> = UnprobedCheckType<'outside', C>;

/** Any check type, as the registry (./registry.ts) holds it. */
export type CheckTypeDefinition =
  | HttpCheckType
  | PushCheckType
  | OutsideCheckType
  // Methods are compared bivariantly, so every ConfiguredCheckType<C> is one of these.
  | ConfiguredCheckType<object>;

/** Declares a configured check type with its config type inferred from its schemas. */
export function defineCheckType<T extends string, C extends object>(
  _type: T,
  definition: ConfiguredCheckType<C>,
): ConfiguredCheckType<C> {
  return definition;
}
