import { createTransport } from 'nodemailer';
import { formatEmailSender } from '../../domain/formats.ts';
import { ConnectionError, EgressError } from '../../egress/egress-errors.ts';
import { isAllowListed, type Resolve, resolveAllowed } from '../../egress/egress-guard.ts';
import type { Runtime } from '../../platform/config.ts';
import type { EmailTransport, OutgoingEmail } from '../../providers/ports.ts';
import type { SendOutcome } from '../items/ports.ts';
import { failureText } from './http-post.ts';

/**
 * The local runtime's email transport: nodemailer over SMTP to VIGIL_SMTP_URL, one connection per
 * email (alerts are few; a fresh connection re-checks the host every time). The host passes the
 * SSRF guard as any channel's receiver: resolved once, every address checked (private and
 * loopback ones only when VIGIL_EGRESS_ALLOW lists them), and nodemailer connects to the checked
 * address, with the name kept for TLS (SNI and certificate check). `smtp://` upgrades with
 * STARTTLS, required unless the server is in the allow-list (the operator's own machine or LAN,
 * where a relay without TLS is common); `smtps://` is TLS from the start.
 */

export interface SmtpTransportOptions {
  /** VIGIL_SMTP_URL: `smtp://[user:pass@]host[:port]` or `smtps://...` (validated by the config). */
  url: string;
  /** VIGIL_EGRESS_ALLOW. */
  egressAllow: readonly string[];
  runtime?: Runtime;
  /** Extra trusted CA certificates (PEM): tests, a relay with a private CA. */
  ca?: string[] | undefined;
  resolve?: Resolve | undefined;
  /** Connecting, the greeting and each reply wait at most this long (default 10 s, as a webhook). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_REPLY_SHOWN = 200;

interface SmtpServer {
  host: string;
  port: number;
  secure: boolean;
  auth: { user: string; pass: string } | undefined;
}

function smtpServer(raw: string): SmtpServer {
  const url = new URL(raw);
  const secure = url.protocol === 'smtps:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  const auth = url.username
    ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
    : undefined;
  return { host, port, secure, auth };
}

/** The properties nodemailer sets on its errors (NodemailerError). */
interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= MAX_REPLY_SHOWN ? line : `${line.slice(0, MAX_REPLY_SHOWN - 1)}…`;
}

/** A failed send as one sentence: the server's reply when it answered, else what went wrong. */
function smtpFailureText(err: unknown, runtime: Runtime = 'local'): string {
  if (err instanceof EgressError) return failureText(err, runtime);
  const e = (typeof err === 'object' && err !== null ? err : {}) as SmtpError;
  if (e.responseCode && e.response) return `the SMTP server answered: ${oneLine(e.response)}`;
  if (e.code === 'EAUTH') return 'the SMTP server refused the credentials of VIGIL_SMTP_URL';
  if (e.code === 'ETIMEDOUT') return 'the SMTP server did not answer in time';
  if (e.code === 'ETLS') return `TLS with the SMTP server failed: ${oneLine(e.message ?? '')}`;
  if (e.code === 'ECONNECTION' || e.code === 'ESOCKET' || e.code === 'EDNS')
    return `could not reach the SMTP server: ${oneLine(e.message ?? '')}`;
  return failureText(err, runtime);
}

/** An email transport over SMTP to `options.url`. */
export function createSmtpTransport(options: SmtpTransportOptions): EmailTransport {
  const server = smtpServer(options.url);
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    async send(email: OutgoingEmail): Promise<SendOutcome> {
      try {
        const [address] = await resolveAllowed(server.host, {
          allowPrivate: false,
          allow: options.egressAllow,
          resolve: options.resolve,
        });
        if (!address) throw new ConnectionError(`could not resolve host ${server.host}`, 'ENOTFOUND');
        const ownNetwork = isAllowListed(address.address, options.egressAllow);
        const transport = createTransport({
          host: address.address,
          port: server.port,
          secure: server.secure,
          requireTLS: !server.secure && !ownNetwork,
          // The certificate is checked against the name in VIGIL_SMTP_URL, not the address dialled.
          servername: server.host,
          tls: { servername: server.host, ...(options.ca ? { ca: options.ca } : {}) },
          ...(server.auth ? { auth: server.auth } : {}),
          connectionTimeout: timeout,
          greetingTimeout: timeout,
          socketTimeout: timeout,
          // The envelope and headers come from validated addresses; nothing is read from files or URLs.
          disableFileAccess: true,
          disableUrlAccess: true,
        });
        try {
          await transport.sendMail({
            from: formatEmailSender(email.from),
            to: email.to,
            subject: email.subject,
            text: email.text,
            html: email.html,
            headers: { ...email.headers, 'X-Vigil-Delivery': email.deliveryId },
          });
        } finally {
          transport.close();
        }
        return { ok: true, status_code: null, error: null };
      } catch (err) {
        return { ok: false, status_code: null, error: smtpFailureText(err, options.runtime) };
      }
    },
  };
}
