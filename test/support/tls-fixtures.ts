import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A PEM key and certificate, ready for tls.createServer. */
export interface KeyPair {
  key: string;
  cert: string;
}

/** Certificates made by the openssl CLI for one test run. */
export interface TlsFixtures {
  /** The test CA's certificate, to pass as `tlsCa`. */
  caCert: string;
  /** localhost + 127.0.0.1, valid for 30 more days (and an hour). */
  valid: KeyPair;
  /** localhost + 127.0.0.1, expiring in 3 days (and an hour). */
  expiringIn3Days: KeyPair;
  /** localhost + 127.0.0.1, expired 10 days (and an hour) ago. */
  expired10DaysAgo: KeyPair;
  /** Issued by the CA for wrong.example only. */
  wrongHost: KeyPair;
  /** Self-signed for localhost + 127.0.0.1, trusted by nobody. */
  selfSigned: KeyPair;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const LOCAL_SAN = 'DNS:localhost,IP:127.0.0.1';

const caConfig = `[ca]
default_ca = test_ca
[test_ca]
database = ./index.txt
new_certs_dir = .
serial = ./serial
default_md = sha256
policy = any
unique_subject = no
copy_extensions = none
[any]
commonName = supplied
`;

/** openssl's YYYYMMDDHHMMSSZ form. */
function asn1Time(ms: number): string {
  return `${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

/** Makes a CA and the leaf certificates the TLS tests need, in a temp dir removed afterwards. */
export function createTlsFixtures(nowMs = Date.now()): TlsFixtures {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-tls-'));
  const openssl = (...args: string[]) => execFileSync('/usr/bin/openssl', args, { cwd: dir, stdio: 'pipe' });
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    writeFileSync(join(dir, 'ca.cnf'), caConfig);
    writeFileSync(join(dir, 'index.txt'), '');
    writeFileSync(join(dir, 'serial'), '1000\n');
    openssl(
      ...[
        'req',
        '-x509',
        ...ec,
        '-keyout',
        'ca.key',
        '-out',
        'ca.crt',
        '-days',
        '60',
        '-subj',
        '/CN=Vigil Test CA',
      ],
      ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
    );
    openssl(
      ...[
        'req',
        '-x509',
        ...ec,
        '-keyout',
        'self.key',
        '-out',
        'self.crt',
        '-days',
        '30',
        '-subj',
        '/CN=localhost',
      ],
      ...['-addext', `subjectAltName=${LOCAL_SAN}`],
    );

    const issue = (name: string, san: string, notBefore: number, notAfter: number): KeyPair => {
      writeFileSync(
        join(dir, `${name}.ext`),
        `[leaf]\nsubjectAltName = ${san}\nbasicConstraints = CA:FALSE\n`,
      );
      openssl('req', '-new', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
      openssl(
        ...['ca', '-batch', '-config', 'ca.cnf', '-cert', 'ca.crt', '-keyfile', 'ca.key', '-notext'],
        ...['-in', `${name}.csr`, '-out', `${name}.crt`, '-extfile', `${name}.ext`, '-extensions', 'leaf'],
        ...['-startdate', asn1Time(notBefore), '-enddate', asn1Time(notAfter)],
      );
      return { key: read(`${name}.key`), cert: read(`${name}.crt`) };
    };

    return {
      caCert: read('ca.crt'),
      valid: issue('valid', LOCAL_SAN, nowMs - DAY_MS, nowMs + 30 * DAY_MS + HOUR_MS),
      expiringIn3Days: issue('soon', LOCAL_SAN, nowMs - DAY_MS, nowMs + 3 * DAY_MS + HOUR_MS),
      expired10DaysAgo: issue('expired', LOCAL_SAN, nowMs - 40 * DAY_MS, nowMs - 10 * DAY_MS - HOUR_MS),
      wrongHost: issue('wrong', 'DNS:wrong.example', nowMs - DAY_MS, nowMs + 30 * DAY_MS + HOUR_MS),
      selfSigned: { key: read('self.key'), cert: read('self.crt') },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
