import type * as z from 'zod';
import type { Runtime } from '../platform/config.ts';
import type { HttpProbeDefinition } from '../probes/types.ts';
import { browserCheckType } from './browser/browser.ts';
import type {
  CheckTypeDefinition,
  ConfiguredCheckType,
  ConfiguredProbeJob,
  HttpCheckType,
  OutsideCheckType,
  PushCheckType,
} from './contract/definition.ts';
import { dnsCheckType } from './dns/dns.ts';
import { domainCheckType } from './domain/domain.ts';
import { grpcCheckType } from './grpc/grpc.ts';
import { httpCheckType } from './http/http.ts';
import { icmpCheckType } from './icmp/icmp.ts';
import { multistepCheckType } from './multistep/multistep.ts';
import { outsideCheckType } from './outside/outside.ts';
import { pushCheckType } from './push/push.ts';
import { tcpCheckType } from './tcp/tcp.ts';
import { tlsCheckType } from './tls/tls.ts';

/**
 * Every check type's shape, one line each (the order is the API's and the console's). Whatever
 * switched on a check type's name derives from here: the request and stored config schemas
 * (lib/check-types/check-config.ts), the derived name (lib/check-types/check-name.ts), the create body and
 * the Check responses (lib/checks), the probe job (lib/checks/probe-job.ts), the alert label
 * (lib/notify/pipeline/alert-context.ts). The probes are registered apart (./probe-registry.ts),
 * so what imports a shape never loads a network client.
 */
export const CHECK_TYPE_DEFINITIONS = {
  http: httpCheckType,
  tcp: tcpCheckType,
  tls: tlsCheckType,
  dns: dnsCheckType,
  push: pushCheckType,
  icmp: icmpCheckType,
  domain: domainCheckType,
  grpc: grpcCheckType,
  multistep: multistepCheckType,
  browser: browserCheckType,
  outside: outsideCheckType,
} satisfies Record<string, CheckTypeDefinition>;

type Definitions = typeof CHECK_TYPE_DEFINITIONS;
export type CheckType = keyof Definitions;
export const CHECK_TYPES = Object.keys(CHECK_TYPE_DEFINITIONS) as [CheckType, ...CheckType[]];

/** The types a request may create (POST /v1/checks, config as code, MCP, the importers): all but outside. */
export type CreatableType = {
  [T in CheckType]: Definitions[T] extends OutsideCheckType ? never : T;
}[CheckType];
export const CREATABLE_CHECK_TYPES = CHECK_TYPES.filter(
  (type): type is CreatableType => !isOutsideType(type),
) as [CreatableType, ...CreatableType[]];

/** The types configured by `config` alone (not http, not push): probed, one job shape each. */
type ConfiguredType = {
  [T in CheckType]: Definitions[T] extends HttpCheckType | PushCheckType | OutsideCheckType ? never : T;
}[CheckType];

/** The types a probe runs (all but push and outside): ./probe-registry.ts holds a probe for each. */
export type ProbedType = {
  [T in CheckType]: Definitions[T] extends PushCheckType | OutsideCheckType ? never : T;
}[CheckType];

/** A type's stored config. */
type StoredConfigOf<T extends CheckType> = z.output<Definitions[T]['stored']>;

/** A check's type with its stored config, narrowed together by `check_type`. */
export type CheckConfig = { [T in CheckType]: { check_type: T; config: StoredConfigOf<T> } }[CheckType];

/** What a probe runs: an http check's request, or a configured type's job. */
export type CheckProbeJob =
  | HttpProbeDefinition
  | { [T in ConfiguredType]: ConfiguredProbeJob<T, StoredConfigOf<T>> }[ConfiguredType];

/** A check type's definition, as code that dispatches on any type sees it. */
export function checkTypeDefinition(type: CheckType): CheckTypeDefinition {
  return CHECK_TYPE_DEFINITIONS[type];
}

/** Whether each slot of a `type` check is a run of its own, outside any cell (a browser check's). */
export function runsAlone(type: string): boolean {
  return aloneProbe(type) !== undefined;
}

/** The probe of a type whose slots run alone (its definition's `runsAlone.probe`), or undefined. */
export function aloneProbe(
  type: string,
): NonNullable<ConfiguredCheckType<object>['runsAlone']>['probe'] | undefined {
  if (!isCheckType(type)) return undefined;
  const definition: CheckTypeDefinition = CHECK_TYPE_DEFINITIONS[type];
  return 'runsAlone' in definition ? definition.runsAlone?.probe : undefined;
}

/** Why `runtime` cannot run a draft of a `type` check (POST /v1/checks/run-draft), or undefined. */
export function draftRefusal(type: string, runtime: Runtime): string | undefined {
  if (!isCheckType(type)) return undefined;
  const definition: CheckTypeDefinition = CHECK_TYPE_DEFINITIONS[type];
  return 'draftUnsupported' in definition ? definition.draftUnsupported?.[runtime] : undefined;
}

/** Whether checks of `type` are probed (push checks are reported to, outside checks fed by an integration). */
export function isProbedType(type: CheckType): type is ProbedType {
  const definition: CheckTypeDefinition = CHECK_TYPE_DEFINITIONS[type];
  return !('kind' in definition && (definition.kind === 'push' || definition.kind === 'outside'));
}

/** Whether `type` is written only by an integration's alerts (never by a request). */
export function isOutsideType(type: string): boolean {
  if (!isCheckType(type)) return false;
  const definition: CheckTypeDefinition = CHECK_TYPE_DEFINITIONS[type];
  return 'kind' in definition && definition.kind === 'outside';
}

/** Whether `type` is one of the registry's (data read at runtime may hold anything). */
export function isCheckType(type: string): type is CheckType {
  return Object.hasOwn(CHECK_TYPE_DEFINITIONS, type);
}
