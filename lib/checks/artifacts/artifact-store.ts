import { decodeTime } from 'ulid';
import { isId } from '../../platform/ids.ts';

/**
 * Owner of a result's stored evidence (issue 57: a browser check's screenshots and trace): the port
 * its two adapters implement (local: files under the data dir, ./file-artifact-store.ts; cloud: S3,
 * ./s3-artifact-store.ts), the keys, scoped by tenant, check and result, and the bounded names. A
 * result's details list its artifacts (`artifacts`), never their bytes. Nothing else builds a key.
 */

/** The bytes a key holds, kept apart from the results table. */
export interface ArtifactStore {
  /**
   * Writes `bytes` under `key` unless the key holds something already: a redelivered job's second
   * probe leaves the first one's evidence, which its stored result names, as it was.
   * `retentionDays`: its tenant's retention, which the cloud's store tags the object with for its
   * bucket's expiry (the local store's sweep reads the result's time instead).
   */
  putIfAbsent(key: string, bytes: Buffer, contentType: string, retentionDays?: number): Promise<void>;
  /** The bytes under `key`; undefined when there are none. */
  get(key: string): Promise<Buffer | undefined>;
  /** Deletes every key under `prefix` (ending in `/`); answers how many it deleted. */
  deletePrefix(prefix: string): Promise<number>;
}

/** A screenshot's content type. */
export const SCREENSHOT_TYPE = 'image/jpeg';

/** A trace's name (one per result) and content type: a Playwright trace, a zip. */
export const TRACE_NAME = 'trace.zip';
export const TRACE_TYPE = 'application/zip';

/**
 * An artifact's name: a screenshot's is its step's number, one-based (a browser check has at most
 * 30 steps); a trace's is trace.zip. The route refuses any other.
 */
export const ARTIFACT_NAME = /^(?:step-[1-9]\d?\.jpg|trace\.zip)$/;

/** The name a step's screenshot is stored under (`index` zero-based, as the runner counts). */
export function screenshotName(index: number): string {
  return `step-${index + 1}.jpg`;
}

/** What a result's details say of one artifact: its step (one-based; a screenshot's), kind, name and where to GET it. */
export type ArtifactRef =
  | { step: number; kind: 'screenshot'; name: string; url: string }
  | { kind: 'trace'; name: string; url: string };

/** Whose result an artifact belongs to. */
export interface ArtifactScope {
  tenantId: string;
  checkId: string;
  resultId: string;
}

/** The key of one artifact: `<tnt>/<chk>/<res>/<name>`. */
export function artifactKey(scope: ArtifactScope, name: string): string {
  return `${resultPrefix(scope)}${name}`;
}

/** Every artifact of one result. */
function resultPrefix(scope: ArtifactScope): string {
  return `${checkArtifactsPrefix(scope.tenantId, scope.checkId)}${scope.resultId}/`;
}

/** Every artifact of one check (what its purge deletes). */
export function checkArtifactsPrefix(tenantId: string, checkId: string): string {
  return `${tenantId}/${checkId}/`;
}

/** The route an artifact is read at (the tenant's key decides whose it is). */
export function artifactPath(scope: Omit<ArtifactScope, 'tenantId'>, name: string): string {
  return `/v1/checks/${scope.checkId}/results/${scope.resultId}/artifacts/${name}`;
}

/** When a result id's result was recorded (its ULID's time, ms); undefined for anything else. */
export function resultTimeMs(resultId: string): number | undefined {
  if (!isId('res', resultId)) return undefined;
  try {
    return decodeTime(resultId.slice('res_'.length));
  } catch {
    return undefined;
  }
}
