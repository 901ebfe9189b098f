import type { ExpectedStatus } from '../domain/assertions.ts';
import type { HttpAssertion } from '../domain/http-assertions.ts';
import type { HttpTransport } from '../egress/egress.ts';
import type { Resolve } from '../egress/egress-guard.ts';
import type { Clock } from '../platform/clock.ts';
import type { BrowserRunner } from './browser-runner.ts';

/** Per-check TLS trust (http, tls and grpc checks): an extra CA, or no verification at all. */
export interface CheckTlsTrust {
  /** PEM certificates trusted for this check only, on top of Node's bundled CAs and the process's probe CAs. */
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
 * What an http probe runs: the check's top-level fields (the other types' jobs are their config
 * with the common probe fields: lib/check-types/contract/definition.ts). Validation (zod) happens before;
 * optional fields fall back to the documented defaults here.
 */
type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type HttpProbeDefinition = {
  check_type: 'http';
  target_url: string;
  /** GET when absent. */
  method?: HttpMethod;
  headers?: Record<string, string>;
  body?: string;
  /** 200 when absent. */
  expected_status?: number;
  /** Codes and "NNN-NNN" ranges (lib/domain/assertions/http-statuses.ts); when present, judged instead of expected_status. */
  expected_statuses?: ExpectedStatus[];
  /** Empty or absent: the body is not read. */
  body_contains?: string;
  /** All must pass (lib/probes/assertions.ts); the body is read only if one reads it. */
  assertions?: HttpAssertion[];
  timeout_ms: number;
  degraded_latency_ms?: number;
  /** This check's own TLS trust (an extra CA, or no verification); absent: the process's. */
  tls?: CheckTlsTrust | undefined;
};

/**
 * A probe job as the probers carry it (to a probe thread as JSON): its check type and the common
 * fields; each type's own fields are its definition's business (lib/check-types/registry.ts
 * `CheckProbeJob` is the precise union).
 */
export type ProbeDefinition = ProbeCommon & { check_type: string; [field: string]: unknown };

/**
 * The IANA RDAP bootstrap for domain names (RFC 9224) as domain checks read it: per service, its
 * labels ("com", "co.uk") and its base URLs (lib/check-types/rdap-bootstrap.ts parses the shipped copy).
 */
export interface RdapBootstrap {
  publication?: string | undefined;
  services: [string[], string[], ...unknown[]][];
}

/** What every probe needs from its runtime. */
export interface ProbeDeps {
  /** Used for certificate expiry arithmetic. */
  clock: Clock;
  /** Whether private, loopback, link-local and reserved targets may be probed. */
  allowPrivate: boolean;
  /** Extra trusted CA certificates (PEM) for tls and https probes, on top of the system ones. */
  tlsCa?: string[];
  /** Host name resolver for the SSRF guard; the system resolver when absent. */
  resolve?: Resolve;
  /**
   * The DNS servers (`ip:port`) of dns checks that name no nameserver; the system's when absent.
   * Tests point it at a loopback server standing in for a platform resolver with private zones.
   */
  dnsServers?: string[];
  /**
   * The RDAP bootstrap domain checks find their registry's server in; the shipped IANA copy
   * (lib/check-types/domain/rdap-bootstrap.json) when absent. Tests point a TLD at a loopback server.
   */
  rdapBootstrap?: RdapBootstrap;
  /**
   * How http probes send each hop; the hand-written lib/egress/http1-client.ts by default. The
   * local runtime may pass undici (lib/probes/probe-transport.ts), so only it bundles undici for probes.
   */
  transport?: HttpTransport;
  /**
   * Runs browser checks, each in a sandboxed child process (lib/probes/browser-runner.ts): the
   * local runtime's bounded pool. Absent: browser checks fail saying no browser runs here.
   */
  browserRunner?: BrowserRunner;
}

/** http1: lib/egress/http1-client.ts (the default, see docs/performance.md); undici: the channels' client. */
export type ProbeHttpClient = 'http1' | 'undici';

/** The result of one probe run, ready to become a check result record. */
export interface ProbeOutcome {
  success: boolean;
  /** The HTTP status; 0 when there was no HTTP response (and for non-http probes). */
  status_code: number;
  /** Whole milliseconds the probe took, successful or not. */
  latency_ms: number;
  /** Empty when the probe passed; for a degraded pass, why it is degraded. */
  error_message: string;
  /** A pass that is degraded (slower than degraded_latency_ms, a certificate inside its expiry threshold); absent otherwise. */
  degraded?: true;
  details?: ProbeDetails;
  /**
   * browser: JPEG screenshots (base64) of each `screenshot` step and of the failing step. Never
   * stored in a result: the recorder writes them through the artifact port (lib/checks/artifacts)
   * and the result's details list them; a draft run answers them inline.
   */
  screenshots?: ProbeScreenshot[];
  /** browser, a run answered by a synchronous browser function: the screenshots its answer's bound left out. */
  screenshots_left_out?: number;
  /** browser: the run's Playwright trace (a zip, base64, the check's secrets masked); stored as the screenshots are. */
  trace?: string;
  /** browser: why the trace the check asked for is not kept (larger than the bound); the stored result's details say it. */
  trace_left_out?: string;
}

/** One screenshot of a browser run: its step (zero-based) and the JPEG, base64. */
export interface ProbeScreenshot {
  step: number;
  jpeg: string;
}

export interface ProbeDetails {
  /** tls: whole days until the certificate expires (negative once expired). */
  days_left?: number;
  /** dns: the answers, normalised to strings. */
  answers?: string[];
  /** tls, and http on https targets: the OpenSSL or Node code of a TLS failure (e.g. CERT_HAS_EXPIRED). */
  error_code?: string;
  /** icmp: echo requests sent and replies received, the loss, and the round trips (ms). */
  packets_sent?: number;
  packets_received?: number;
  packet_loss_percent?: number;
  rtt_min_ms?: number;
  rtt_avg_ms?: number;
  rtt_max_ms?: number;
  /** grpc: the serving status the health service answered (SERVING, NOT_SERVING, …). */
  grpc_status?: string;
  /** domain: the registration's expiry (ISO 8601) and the RDAP server asked. */
  expires_at?: string;
  rdap_server?: string;
  /** http, tls, grpc with `tls.skip_verify`: the certificate was not verified (lib/probes/check-trust.ts). */
  tls_warning?: string;
  /** multistep, browser: each step in order (those after a failure `skipped`); multistep: the first that failed. */
  steps?: StepReport[];
  failed_step?: string;
  /** browser: the last page's Web Vitals (each absent when the page did not report it). */
  vitals?: BrowserVitals;
}

/** One step of a multistep or a browser run as its result shows it. */
type StepReport = ApiStepReport | BrowserStepReport;

/** One step of a browser run: its action, outcome, whole ms, and why it failed. */
export interface BrowserStepReport {
  action: string;
  outcome: 'passed' | 'failed' | 'skipped';
  ms: number;
  error?: string;
}

/** A browser run's Web Vitals, read from the page (PerformanceObserver, navigation timing). */
interface BrowserVitals {
  lcp_ms?: number;
  cls?: number;
  ttfb_ms?: number;
}

/** One step of a multistep run as its result shows it. */
export interface ApiStepReport {
  name: string;
  outcome: 'passed' | 'degraded' | 'failed' | 'skipped';
  /** The HTTP status; 0 without a response (and for a skipped step). */
  status_code: number;
  /** Why it failed or is degraded; absent when it passed or was skipped. */
  error?: string;
  /** Whole ms of each phase of its last hop (absent when it did not happen) and of the whole step. */
  timings?: StepTimings;
}

export interface StepTimings {
  dns_ms?: number;
  connect_ms?: number;
  tls_ms?: number;
  first_byte_ms?: number;
  total_ms: number;
}

/** A probe run and when it began (epoch ms): the result's checked_at. */
export interface Probed {
  outcome: ProbeOutcome;
  startedMs: number;
}

/** Runs probes: on the event loop (`inProcessProber`) or on probe threads (lib/local/probe-threads.ts). */
export type Prober = (def: ProbeDefinition) => Promise<Probed>;
