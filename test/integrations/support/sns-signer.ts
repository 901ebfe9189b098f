import { execFileSync } from 'node:child_process';
import { sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SnsEnvelope, stringToSign } from '../../../lib/integrations/kinds/sns-signature.ts';

/**
 * A stand-in for SNS's signing key: an RSA key and a self-signed certificate made by the openssl
 * CLI, and messages signed as SNS signs them (the documented string, SHA1 for SignatureVersion 1,
 * SHA256 for 2). The certificate is what a test serves at the message's SigningCertURL.
 */
export interface SnsSigner {
  certificatePem: string;
  /** An envelope of `type` with `fields`, signed (or, with `tamper`, signed and then changed). */
  envelope(
    fields: Partial<SnsEnvelope> & Pick<SnsEnvelope, 'Type' | 'Message'>,
    version?: '1' | '2',
  ): SnsEnvelope;
}

export const TOPIC_ARN = 'arn:aws:sns:eu-west-1:123456789012:vigil-alarms';
export const CERT_URL = 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-test.pem';

export function createSnsSigner(): SnsSigner {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-sns-'));
  try {
    execFileSync(
      '/usr/bin/openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
        '-days',
        '30',
        '-subj',
        '/CN=sns.amazonaws.com',
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    const key = readFileSync(join(dir, 'key.pem'), 'utf8');
    const certificatePem = readFileSync(join(dir, 'cert.pem'), 'utf8');
    return {
      certificatePem,
      envelope(fields, version = '1') {
        const unsigned: SnsEnvelope = {
          MessageId: 'f1c7a6a2-0a0b-4c51-9f5e-5b1e0f6d3a11',
          TopicArn: TOPIC_ARN,
          Timestamp: '2026-11-28T21:00:00.000Z',
          SignatureVersion: version,
          Signature: '',
          SigningCertURL: CERT_URL,
          ...fields,
        };
        const algorithm = unsigned.SignatureVersion === '1' ? 'sha1' : 'sha256';
        const signature = sign(algorithm, Buffer.from(stringToSign(unsigned), 'utf8'), key).toString(
          'base64',
        );
        return { ...unsigned, Signature: signature };
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
