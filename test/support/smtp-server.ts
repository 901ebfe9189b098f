import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { SesMail } from './ses-outbox.ts';
import type { KeyPair } from './tls-fixtures.ts';

/**
 * A real SMTP server (nodemailer's smtp-server) on 127.0.0.1 for the email channel's tests: it
 * keeps every message it accepts, raw, with its envelope, and can be told to refuse the next
 * messages (a 451 or 550 reply at DATA). With `tls`, it speaks TLS from the start (smtps://);
 * without, it offers no STARTTLS (a relay on the operator's own machine).
 */

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The parsed message (headers unfolded, parts decoded). */
  message: ParsedMail;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>` or `smtps://localhost:<port>` (with credentials when `auth` was given). */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Refuses the next `count` messages with `reply` (e.g. 451 for a transient failure). */
  refuseNext(count: number, reply?: { code: number; message: string }): void;
  close(): Promise<void>;
}

export interface SmtpServerOptions {
  tls?: KeyPair;
  auth?: { user: string; pass: string };
}

/** Starts the server on an ephemeral port of 127.0.0.1. */
export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  let refusal = { code: 451, message: 'Try again later' };
  const server = new SMTPServer({
    secure: Boolean(options.tls),
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    disabledCommands: options.tls ? [] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: false,
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = options.auth && auth.username === options.auth.user && auth.password === options.auth.pass;
      if (ok) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusals > 0) {
          refusals -= 1;
          const err = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
          callback(err);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          message: parseMail(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const credentials = options.auth
    ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@`
    : '';
  const url = options.tls
    ? `smtps://${credentials}localhost:${port}`
    : `smtp://${credentials}127.0.0.1:${port}`;
  return {
    url,
    port,
    received,
    refuseNext(count, reply) {
      refusals = count;
      if (reply) refusal = reply;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A message as the tests read it: headers (lower-case names, unfolded) and its text and HTML parts. */
interface ParsedMail {
  headers: Map<string, string>;
  /** Every header line as received (folded lines joined), in order: what injection tests look at. */
  headerLines: string[];
  text: string | undefined;
  html: string | undefined;
}

function splitHead(raw: string): { head: string; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  return at < 0 ? { head: raw, body: '' } : { head: raw.slice(0, at), body: raw.slice(at + 4) };
}

function headerLinesOf(head: string): string[] {
  return head.split('\r\n').reduce<string[]>((lines, line) => {
    if (/^[ \t]/.test(line) && lines.length > 0) lines[lines.length - 1] += line.replace(/^[ \t]+/, ' ');
    else lines.push(line);
    return lines;
  }, []);
}

function headerMap(lines: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) map.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return map;
}

function decodeBody(body: string, encoding: string | undefined): string {
  const kind = (encoding ?? '7bit').toLowerCase();
  if (kind === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (kind === 'quoted-printable') {
    const soft = body.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i += 1) {
      const hex = soft[i] === '=' ? soft.slice(i + 1, i + 3) : '';
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
        bytes.push(Number.parseInt(hex, 16));
        i += 2;
      } else bytes.push(...Buffer.from(soft[i] ?? '', 'utf8'));
    }
    return Buffer.from(bytes).toString('utf8');
  }
  return body;
}

/** The messages `smtp` received so far, oldest first, read as the cloud's SES outbox reads its mails. */
export function receivedMails(smtp: TestSmtpServer): SesMail[] {
  return smtp.received.map((m) => ({
    to: m.to,
    subject: decodeWords(m.message.headers.get('subject') ?? ''),
    text: m.message.text ?? '',
    html: m.message.html ?? '',
    headers: m.message.headers,
  }));
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) decoded, as a mail client shows a subject. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
    );
}

/** Parses a message of one text part or a multipart (alternative, mixed) of text and HTML parts. */
function parseMail(raw: string): ParsedMail {
  const { head, body } = splitHead(raw);
  const headerLines = headerLinesOf(head);
  const headers = headerMap(headerLines);
  const parsed: ParsedMail = { headers, headerLines, text: undefined, html: undefined };
  collectParts(parsed, headers, body);
  return parsed;
}

function collectParts(into: ParsedMail, headers: Map<string, string>, body: string): void {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const sections = body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      const part = splitHead(section.replace(/^\r\n/, ''));
      collectParts(into, headerMap(headerLinesOf(part.head)), part.body.replace(/\r\n$/, ''));
    }
    return;
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding'));
  if (/^text\/html/i.test(type)) into.html ??= decoded;
  else if (/^text\/plain/i.test(type)) into.text ??= decoded;
}
