import { X509Certificate } from 'node:crypto';
import * as z from 'zod';
import type { CheckTlsTrust } from '../probes/types.ts';

/**
 * Per-check TLS trust (`tls: {ca_pem, skip_verify}`) of the types whose definition says `tls:
 * true` (http, tls, grpc): a homelab's self-signed target trusted for its own check only, instead
 * of process-wide through NODE_EXTRA_CA_CERTS.
 */

/** The most a ca_pem may hold: a chain or a few roots, not a CA bundle. */
const CA_PEM_MAX_BYTES = 16 * 1024;
const MAX_CERTIFICATES = 10;
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** Why `pem` is not 1 to 10 PEM certificates, as a sentence; undefined when it is. */
function caPemProblem(pem: string): string | undefined {
  if (Buffer.byteLength(pem) > CA_PEM_MAX_BYTES) {
    return `Give at most ${CA_PEM_MAX_BYTES} bytes (16 KB) of PEM certificates.`;
  }
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) {
    return 'Give one or more PEM certificates (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----).';
  }
  if (blocks.length > MAX_CERTIFICATES) return `Give at most ${MAX_CERTIFICATES} certificates.`;
  if (pem.replace(PEM_BLOCK, '').trim() !== '') {
    return 'Give PEM certificates only: there is text outside the BEGIN/END CERTIFICATE lines.';
  }
  for (const [index, block] of blocks.entries()) {
    try {
      new X509Certificate(block);
    } catch {
      return `Certificate ${index + 1} is not a valid PEM certificate.`;
    }
  }
  return undefined;
}

/** The request's `tls`: strict, ca_pem checked as certificates. */
export const tlsTrustInputSchema = z
  .strictObject({
    ca_pem: z
      .string()
      .max(CA_PEM_MAX_BYTES, `Give at most ${CA_PEM_MAX_BYTES} bytes (16 KB) of PEM certificates.`)
      .superRefine((pem, ctx) => {
        const problem = caPemProblem(pem);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional()
      .meta({
        description:
          'PEM certificates (1 to 10, at most 16 KB) trusted for this check only, on top of the system CAs',
      }),
    skip_verify: z.boolean().optional().meta({
      description:
        "Accept any certificate (self-signed, expired, another name): insecure; each result's details.tls_warning says so",
    }),
  })
  .meta({ description: 'Per-check TLS trust (http, tls and grpc checks); null clears it' });

/** `tls` as stored: lenient. */
export const storedTlsTrustSchema = z.object({
  ca_pem: z.string().optional(),
  skip_verify: z.boolean().optional(),
});

/** `tls` as returned: what was stored (ca_pem is public data, not a secret), or null. */
export const publicTlsTrustSchema = z
  .strictObject({ ca_pem: z.string().optional(), skip_verify: z.boolean().optional() })
  .nullable()
  .meta({ description: 'Per-check TLS trust, or null: none (the process-wide trust only)' });

/** The trust worth storing: null when it trusts nothing extra and verifies as usual. */
export function storedTrust(trust: CheckTlsTrust | null | undefined): CheckTlsTrust | null {
  if (!trust) return null;
  const kept = {
    ...(trust.ca_pem ? { ca_pem: trust.ca_pem } : {}),
    ...(trust.skip_verify ? { skip_verify: true } : {}),
  };
  return Object.keys(kept).length > 0 ? kept : null;
}
