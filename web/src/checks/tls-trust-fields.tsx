import type { Schemas } from '../api/client';
import { CheckboxField, TextAreaField } from '../ui/fields';

/**
 * Per-check TLS trust (`tls: {ca_pem, skip_verify}`) in the check form, for the types whose form
 * says `tls: true` (http, tls, grpc): a self-signed target trusted for this check only.
 */

/** The trust inputs of a draft: the PEM as typed, and whether verification is skipped. */
export interface TrustDraft {
  ca_pem: string;
  skip_verify: boolean;
}

/** A stored check's trust as inputs (none: blank). */
export function trustDraftOf(check: Schemas['Check']): TrustDraft {
  const tls = 'tls' in check ? check.tls : null;
  return { ca_pem: tls?.ca_pem ?? '', skip_verify: tls?.skip_verify ?? false };
}

/** The check page's settings rows of its trust; none without any. */
export function trustRows(check: Schemas['Check']): [string, string][] {
  const tls = 'tls' in check ? check.tls : null;
  const rows: [string, string][] = [];
  const count = tls?.ca_pem?.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0;
  if (count > 0) rows.push(['Extra CA', count === 1 ? '1 certificate' : `${count} certificates`]);
  if (tls?.skip_verify) rows.push(['Certificate verification', 'Skipped (insecure): any certificate passes']);
  return rows;
}

/** The body's `tls`: absent when blank on create, null when blank on edit (clears a stored one). */
export function trustBodyOf(d: TrustDraft, editing: boolean): { tls?: Record<string, unknown> | null } {
  const ca_pem = d.ca_pem.trim();
  if (ca_pem || d.skip_verify) {
    return { tls: { ...(ca_pem ? { ca_pem } : {}), ...(d.skip_verify ? { skip_verify: true } : {}) } };
  }
  return editing ? { tls: null } : {};
}

/** The "Trust" group: an extra CA and the insecure switch, with the API's errors at their field. */
export function TrustFields({
  draft,
  onChange,
  errors,
}: {
  draft: TrustDraft;
  onChange: (next: TrustDraft) => void;
  errors: Record<string, string>;
}) {
  return (
    <fieldset>
      <legend>Trust</legend>
      <TextAreaField
        label="Extra CA certificate (PEM)"
        value={draft.ca_pem}
        onChange={(ca_pem) => onChange({ ...draft, ca_pem })}
        rows={4}
        hint="Trusted for this check only, on top of the system CAs: for a self-signed or private-CA target. Up to 10 certificates, 16 KB."
        error={errors['tls.ca_pem'] ?? errors.tls}
      />
      <CheckboxField
        label="Skip certificate verification (insecure)"
        checked={draft.skip_verify}
        onChange={(skip_verify) => onChange({ ...draft, skip_verify })}
        hint="Warning: any certificate is accepted, so an impostor would pass too; every result says the certificate was not verified. Prefer the extra CA."
        error={errors['tls.skip_verify']}
      />
    </fieldset>
  );
}
