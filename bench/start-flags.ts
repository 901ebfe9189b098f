import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The node flags a checkout starts its TypeScript with, read from its own `npm start` script (the
 * words between `node` and `bin/serve.ts`): `--import tsx` for a checkout from before Node ran the
 * TypeScript directly (e.g. d6be77bd: `exec node --import tsx bin/serve.ts`), none for one that
 * Node runs as it is. So `--against` starts each checkout, and its bench children, the way that
 * checkout starts; an older one run without its loader fails with ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX.
 */
export function startFlagsOf(root: string): string[] {
  let start: unknown;
  try {
    start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))?.scripts?.start;
  } catch {
    return [];
  }
  if (typeof start !== 'string') return [];
  const words = start.split(/\s+/);
  const node = words.indexOf('node');
  const entry = words.findIndex((w) => w.endsWith('bin/serve.ts'));
  return node >= 0 && entry > node ? words.slice(node + 1, entry) : [];
}
