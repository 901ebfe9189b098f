import { createSocket } from 'node:dgram';
import { parseAddress } from '../../lib/egress/ip-rules.ts';

/** A record the test DNS server can answer with. */
type DnsRecord =
  | { type: 'A'; address: string }
  | { type: 'AAAA'; address: string }
  | { type: 'CNAME'; name: string }
  | { type: 'NS'; name: string }
  | { type: 'MX'; priority: number; exchange: string }
  | { type: 'TXT'; chunks: string[] }
  | { type: 'SRV'; priority: number; weight: number; port: number; target: string }
  | { type: 'CAA'; flags: number; tag: string; value: string };

/** Names (lower case, no trailing dot) to their records; a name absent here is NXDOMAIN. */
export type DnsZone = Record<string, DnsRecord[]>;

export interface TestDnsServer {
  /** "127.0.0.1:port", as a probe's `nameserver`. */
  nameserver: string;
  port: number;
  /** Every question received, e.g. "svc.test A". */
  queries: string[];
  close(): Promise<void>;
}

const typeCodes: Record<DnsRecord['type'], number> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  CAA: 257,
};

const typeNames = new Map(Object.entries(typeCodes).map(([name, code]) => [code, name]));

function encodeName(name: string): Buffer {
  const labels = name.split('.').filter((l) => l !== '');
  return Buffer.concat([
    ...labels.map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])),
    Buffer.from([0]),
  ]);
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function rdata(record: DnsRecord): Buffer {
  switch (record.type) {
    case 'A':
    case 'AAAA':
      return Buffer.from(parseAddress(record.address) ?? []);
    case 'CNAME':
    case 'NS':
      return encodeName(record.name);
    case 'MX':
      return Buffer.concat([u16(record.priority), encodeName(record.exchange)]);
    case 'TXT':
      return Buffer.concat(
        record.chunks.map((c) => Buffer.concat([Buffer.from([Buffer.byteLength(c)]), Buffer.from(c)])),
      );
    case 'SRV':
      return Buffer.concat([
        u16(record.priority),
        u16(record.weight),
        u16(record.port),
        encodeName(record.target),
      ]);
    case 'CAA':
      return Buffer.concat([
        Buffer.from([record.flags, record.tag.length]),
        Buffer.from(record.tag),
        Buffer.from(record.value),
      ]);
  }
}

interface Question {
  id: number;
  rd: boolean;
  name: string;
  qtype: number;
  /** The raw question section, echoed in the response. */
  raw: Buffer;
}

/** Reads the header and the first question of a query (queries carry no name compression). */
function decodeQuery(msg: Buffer): Question {
  const labels: string[] = [];
  let offset = 12;
  for (let guard = 0; guard < 128; guard++) {
    const len = msg[offset] ?? 0;
    offset += 1;
    if (len === 0) break;
    labels.push(msg.subarray(offset, offset + len).toString('latin1'));
    offset += len;
  }
  const qtype = msg.readUInt16BE(offset);
  return {
    id: msg.readUInt16BE(0),
    rd: (msg.readUInt16BE(2) & 0x0100) !== 0,
    name: labels.join('.').toLowerCase(),
    qtype,
    raw: msg.subarray(12, offset + 4),
  };
}

/** Builds the response: NXDOMAIN for unknown names, else NOERROR with the records of the asked type. */
function encodeResponse(q: Question, zone: DnsZone): Buffer {
  const records = zone[q.name];
  const rcode = records === undefined ? 3 : 0;
  const answers = (records ?? []).filter((r) => typeCodes[r.type] === q.qtype);
  const flags = 0x8000 | 0x0400 | (q.rd ? 0x0100 : 0) | rcode; // QR, AA, RD echoed
  const header = Buffer.concat([u16(q.id), u16(flags), u16(1), u16(answers.length), u16(0), u16(0)]);
  const body = answers.map((r) => {
    const data = rdata(r);
    const ttl = Buffer.alloc(4);
    ttl.writeUInt32BE(60);
    // 0xc00c points at the question name at offset 12.
    return Buffer.concat([u16(0xc00c), u16(q.qtype), u16(1), ttl, u16(data.length), data]);
  });
  return Buffer.concat([header, q.raw, ...body]);
}

/** Starts a UDP DNS server on 127.0.0.1; names listed in `silent` are never answered (timeouts). */
export async function startDnsServer(
  zone: DnsZone,
  options: { silent?: string[] } = {},
): Promise<TestDnsServer> {
  const socket = createSocket('udp4');
  const queries: string[] = [];
  const silent = new Set(options.silent ?? []);
  socket.on('message', (msg, remote) => {
    let q: Question;
    try {
      q = decodeQuery(msg);
    } catch {
      return; // not a query this server understands
    }
    queries.push(`${q.name} ${typeNames.get(q.qtype) ?? q.qtype}`);
    if (silent.has(q.name)) return;
    socket.send(encodeResponse(q, zone), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    nameserver: `127.0.0.1:${port}`,
    port,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
