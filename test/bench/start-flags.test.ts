import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFlagsOf } from '../../bench/start-flags.ts';

/** `--against` starts each checkout the way its own `npm start` does (issue 78 point 5). */
describe('startFlagsOf', () => {
  const dirs: string[] = [];
  const checkout = (start: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-start-flags-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ scripts: { start } }));
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('gives a checkout from before Node ran the TypeScript its loader', () => {
    expect(startFlagsOf(checkout('exec node --import tsx bin/serve.ts'))).toEqual(['--import', 'tsx']);
  });

  it('gives none to a checkout Node runs as it is, this one included', () => {
    expect(startFlagsOf(checkout('exec node bin/serve.ts'))).toEqual([]);
    expect(startFlagsOf(join(import.meta.dirname, '..', '..'))).toEqual([]);
  });

  it('gives none when there is no start script or no package.json', () => {
    expect(startFlagsOf(checkout(undefined))).toEqual([]);
    expect(startFlagsOf(join(tmpdir(), 'vigil-no-such-checkout'))).toEqual([]);
  });
});
