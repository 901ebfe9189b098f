/**
 * Importers turn another product's configuration into a Vigil configuration document
 * (lib/config-doc), to be planned and applied like any other: `vigil import kuma|gatus|healthchecks`
 * prints it, and the console's Import converts an uploaded Kuma backup or Gatus file through
 * POST /v1/config/convert. One file per source under this folder, registered in ./registry.ts.
 */

/** A converted configuration: the document, and what could not be mapped, one line each. */
export interface Conversion {
  /** `{apiVersion: 'vigil/v1', kind: 'Config', blueprints: [...], ...}` (DECISIONS "Configuration as code"). */
  document: Record<string, unknown>;
  /** One line per thing left out, naming it and why: `monitor "DB" (type mongodb): Vigil has no mongodb check`. */
  unmapped: string[];
}

/** A source that converts an uploaded text (a Kuma JSON backup, a Gatus YAML file) with no I/O of its own. */
export interface TextImporter {
  source: string;
  /** What the console's file picker accepts: `.json`, `.yaml,.yml`. */
  accept: string;
  /** Converts the file's text; throws ImportError (a clear message, the line or path) on a file it cannot read. */
  convert(text: string): Conversion;
}

/** A file the importer cannot read: its message names the problem and where (shown to the user as is). */
export class ImportError extends Error {
  override name = 'ImportError';
}
