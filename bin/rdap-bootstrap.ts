import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rdapBootstrapSchema } from '../lib/check-types/rdap-bootstrap.ts';
import { httpRequest } from '../lib/egress/egress.ts';
import { http1Request } from '../lib/egress/http1-client.ts';

/**
 * `npm run rdap:bootstrap`: refreshes the RDAP bootstrap that domain checks ship with
 * (lib/check-types/domain/rdap-bootstrap.json) from IANA's copy (RFC 9224), through the SSRF
 * guard, and formats it as biome does so the diff shows only what IANA changed. Review and commit
 * the change; a running Vigil uses the copy it was built with.
 */

const SOURCE = 'https://data.iana.org/rdap/dns.json';
const TARGET = fileURLToPath(new URL('../lib/check-types/domain/rdap-bootstrap.json', import.meta.url));
/** dns.json is about 90 KB; a much larger answer is not the bootstrap. */
const MAX_BYTES = 4 * 1024 * 1024;

const response = await httpRequest({
  url: SOURCE,
  headers: { accept: 'application/json' },
  timeoutMs: 30_000,
  maxBodyBytes: MAX_BYTES,
  allowPrivate: false,
  transport: http1Request,
});
if (response.status !== 200) throw new Error(`${SOURCE} answered HTTP ${response.status}`);
const bootstrap = rdapBootstrapSchema.parse(JSON.parse(response.bodyPrefix.toString('utf8')));
// A truncated or emptied file would leave every domain check without a server.
if (bootstrap.services.length < 100) {
  throw new Error(`${SOURCE} lists only ${bootstrap.services.length} services: not written`);
}
writeFileSync(TARGET, `${JSON.stringify(bootstrap, null, 2)}\n`);
execFileSync(
  fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url)),
  ['format', '--write', TARGET],
  {
    stdio: 'inherit',
  },
);
console.log(
  `${TARGET}: ${bootstrap.services.length} services, published ${bootstrap.publication ?? '(no date)'}`,
);
