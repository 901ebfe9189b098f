import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { type ArtifactStore, resultTimeMs } from './artifact-store.ts';

/** A key's segments: ids and bounded names only (artifact-store.ts builds them), never `..` or a separator. */
const SEGMENT = /^[A-Za-z0-9_.-]{1,64}$/;

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

/**
 * The local runtime's artifact store: each key a file under `root` (the data dir's `artifacts/`,
 * beside vigil.db), `<tnt>/<chk>/<res>/<name>`. A key that is not made of plain segments is refused,
 * so no key reaches outside `root`.
 */
export function createFileArtifactStore(root: string) {
  const pathOf = (key: string): string => {
    const segments = key.split('/');
    if (segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..'))
      throw new Error(`not an artifact key: ${key}`);
    return join(root, ...segments);
  };
  const prefixPath = (prefix: string) => pathOf(prefix.replace(/\/$/, ''));

  /** Files under `dir`, recursively (none when it is absent). */
  const countFiles = async (dir: string): Promise<number> => {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch((error: unknown) => {
      if (codeOf(error) === 'ENOENT') return [];
      throw error;
    });
    return entries.filter((e) => e.isFile()).length;
  };

  const store: ArtifactStore = {
    async putIfAbsent(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // `wx`: the first write of a key stands (a redelivered job's second probe writes nothing).
      await writeFile(path, bytes, { flag: 'wx' }).catch((error: unknown) => {
        if (codeOf(error) !== 'EEXIST') throw error;
      });
    },
    async get(key) {
      return readFile(pathOf(key)).catch((error: unknown) => {
        if (codeOf(error) === 'ENOENT' || codeOf(error) === 'EISDIR') return undefined;
        throw error;
      });
    },
    async deletePrefix(prefix) {
      const dir = prefixPath(prefix);
      const count = await countFiles(dir);
      await rm(dir, { recursive: true, force: true });
      return count;
    },
  };

  return {
    ...store,
    /**
     * Deletes the artifacts of results older than their tenant's retention (the time in the result
     * id), as the retention sweep deletes the results (lib/local/retention-sweep.ts). Answers how
     * many results' artifacts it deleted.
     */
    async sweepExpired(nowMs: number, retentionDays: (tenantId: string) => Promise<number>): Promise<number> {
      let swept = 0;
      for (const tenantId of await dirs(root)) {
        const cutoff = nowMs - (await retentionDays(tenantId)) * 86_400_000;
        for (const checkId of await dirs(join(root, tenantId))) {
          for (const resultId of await dirs(join(root, tenantId, checkId))) {
            const at = resultTimeMs(resultId);
            if (at === undefined || at >= cutoff) continue;
            await rm(join(root, tenantId, checkId, resultId), { recursive: true, force: true });
            swept += 1;
          }
        }
      }
      return swept;
    },
  };
}

/** The names of the directories in `dir` (none when it is absent). */
async function dirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    if (codeOf(error) === 'ENOENT') return [];
    throw error;
  });
  return entries.filter((e) => e.isDirectory() && !e.name.includes(sep)).map((e) => e.name);
}
