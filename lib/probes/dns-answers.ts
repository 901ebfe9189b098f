import type { Resolver } from 'node:dns/promises';
import { addressClass, parseAddress } from '../egress/ip-rules.ts';

/** The record types a dns check may ask for. */
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** One answer as shown to users (`text`) plus further forms an expected value may match. */
export interface DnsAnswer {
  text: string;
  alternatives: string[];
}

const plain = (text: string): DnsAnswer => ({ text, alternatives: [] });

/** Queries one record type and normalises every answer to a string. */
export async function queryAnswers(
  resolver: Resolver,
  name: string,
  type: DnsRecordType,
): Promise<DnsAnswer[]> {
  switch (type) {
    case 'A':
      return (await resolver.resolve4(name)).map(plain);
    case 'AAAA':
      return (await resolver.resolve6(name)).map(plain);
    case 'CNAME':
      return (await resolver.resolveCname(name)).map(plain);
    case 'NS':
      return (await resolver.resolveNs(name)).map(plain);
    case 'MX':
      return (await resolver.resolveMx(name)).map((mx) => ({
        text: `${mx.priority} ${mx.exchange}`,
        alternatives: [mx.exchange],
      }));
    case 'TXT':
      return (await resolver.resolveTxt(name)).map((chunks) => plain(chunks.join('')));
    case 'SRV':
      return (await resolver.resolveSrv(name)).map((srv) =>
        plain(`${srv.priority} ${srv.weight} ${srv.port} ${srv.name}`),
      );
    case 'CAA':
      return (await resolver.resolveCaa(name)).map((caa) => {
        // The record's one other property is its tag (issue, iodef…); Node 24 also adds `type: 'CAA'`.
        const [tag = '', value = ''] =
          Object.entries(caa).find(([key]) => key !== 'critical' && key !== 'type') ?? [];
        return plain(`${caa.critical} ${tag} ${String(value)}`);
      });
  }
}

/** Names compare without case or trailing dot, addresses by value; TXT stays exact (tokens are case-sensitive). */
function normalise(value: string, type: DnsRecordType): string {
  const trimmed = value.trim();
  if (type === 'TXT') return trimmed;
  if (type === 'A' || type === 'AAAA') return parseAddress(trimmed)?.join('.') ?? trimmed.toLowerCase();
  return trimmed.toLowerCase().replace(/\.$/, '');
}

/** Whether any answer (in any of its forms) equals the expected value. */
export function anyAnswerMatches(answers: DnsAnswer[], expected: string, type: DnsRecordType): boolean {
  const want = normalise(expected, type);
  return answers.some((a) => [a.text, ...a.alternatives].some((form) => normalise(form, type) === want));
}

/** What stands for a private or reserved address in what a tenant reads when private targets are denied. */
const HIDDEN_ADDRESS = '(private address)';

/** A run of the characters IP literals are written with. */
const ADDRESS_CHARS = /[0-9a-f:.]+/gi;
const IPV4_INSIDE = /\d{1,3}(?:\.\d{1,3}){3}/g;

/** Whether `text` is an IP literal of a class other than public. */
function isPrivateLiteral(text: string): boolean {
  if (parseAddress(text) === undefined) return false;
  return addressClass(text) !== 'public';
}

function hideRun(run: string): string {
  if (!run.includes('.') && !run.includes(':')) return run;
  if (isPrivateLiteral(run)) return HIDDEN_ADDRESS;
  const trimmed = /^[:.]*(.*?)[:.]*$/s.exec(run)?.[1] ?? run;
  if (trimmed !== run && isPrivateLiteral(trimmed)) return run.replace(trimmed, HIDDEN_ADDRESS);
  return run.replace(IPV4_INSIDE, (v4) => (isPrivateLiteral(v4) ? HIDDEN_ADDRESS : v4));
}

/**
 * The text with every private, loopback, link-local, reserved or metadata IP literal replaced by
 * HIDDEN_ADDRESS (`v=spf1 ip4:10.0.0.0/8` reads `v=spf1 ip4:(private address)/8`): with private
 * targets denied, a DNS check must not read out internal answers of the resolvers it uses.
 */
function hidePrivateAddresses(text: string): string {
  return text.replace(ADDRESS_CHARS, hideRun);
}

/** The answer as shown and matched with private targets denied: its private addresses hidden in every form. */
export function withoutPrivateAddresses(answer: DnsAnswer): DnsAnswer {
  return {
    text: hidePrivateAddresses(answer.text),
    alternatives: answer.alternatives.map(hidePrivateAddresses),
  };
}
