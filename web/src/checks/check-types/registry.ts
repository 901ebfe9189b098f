import type { Schemas } from '../../api/client';
import { browserForm } from './browser';
import { dnsForm } from './dns';
import { domainForm } from './domain';
import type { CheckType, CheckTypeForm } from './form';
import { grpcForm } from './grpc';
import { httpForm } from './http';
import { icmpForm } from './icmp';
import { multistepForm } from './multistep';
import { outsideForm } from './outside';
import { pushForm } from './push';
import { tcpForm } from './tcp';
import { tlsForm } from './tls';

/**
 * Every check type's console part, one line each, in the API's order. Typed against the API
 * document's check types, so a type the API gains fails `tsc -p web` until it has its form.
 */
const CHECK_TYPE_FORMS = {
  http: httpForm,
  tcp: tcpForm,
  tls: tlsForm,
  dns: dnsForm,
  push: pushForm,
  icmp: icmpForm,
  domain: domainForm,
  grpc: grpcForm,
  multistep: multistepForm,
  browser: browserForm,
  outside: outsideForm,
} satisfies { [T in CheckType]: CheckTypeForm<T> };

export const CHECK_TYPES = Object.keys(CHECK_TYPE_FORMS) as CheckType[];

/** The types the form offers: all but outside checks, which only an integration's alerts make. */
export const CREATABLE_CHECK_TYPES = CHECK_TYPES.filter((type) => CHECK_TYPE_FORMS[type].kind !== 'outside');

/** A check type's form, as code rendering any type sees it. */
export function checkTypeForm(type: CheckType): CheckTypeForm {
  return CHECK_TYPE_FORMS[type] as CheckTypeForm;
}

/** What a check probes in one line: `GET https://…`, `tcp db:5432`, `dns A example.com`, `push`. */
export function targetOf(check: Schemas['Check']): string {
  return checkTypeForm(check.check_type).target(check);
}
