import { open, readFile } from 'node:fs/promises';
import type { Conversion } from './importer.ts';
import { convertKuma, kumaImporter } from './kuma-convert.ts';
import { readKumaDatabase } from './kuma-db.ts';

export { convertKuma, kumaImporter, parseKumaBackup } from './kuma-convert.ts';

/**
 * The Uptime Kuma importer's file entry (docs/importers.md "Uptime Kuma"). It lives apart from the
 * conversion (./kuma-convert.ts), which the text-importer registry loads, so that what the
 * console's Import and the cloud bundle reach never pulls in the SQLite driver.
 */

const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * `vigil import kuma <backup.json | kuma.db>`: a SQLite file (by its first bytes) is read as Kuma's
 * database, anything else as its backup JSON.
 */
export async function importKuma(path: string): Promise<Conversion> {
  const handle = await open(path, 'r');
  const head = Buffer.alloc(SQLITE_HEADER.length);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  if (head.toString('latin1') === SQLITE_HEADER) return convertKuma(readKumaDatabase(path));
  return kumaImporter.convert(await readFile(path, 'utf8'));
}
