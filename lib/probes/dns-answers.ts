import type { Resolver } from 'node:dns/promises';
import { parseAddress } from '../platform/ip-rules.ts';
import type { DnsRecordType } from './types.ts';

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
        const [tag = '', value = ''] = Object.entries(caa).find(([key]) => key !== 'critical') ?? [];
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
