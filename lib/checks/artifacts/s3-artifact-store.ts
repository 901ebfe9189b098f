import type { S3Client } from '@aws-sdk/client-s3';
import type { ArtifactStore } from './artifact-store.ts';

/** Keys one DeleteObjects call takes at most (S3's limit). */
const DELETE_BATCH = 1000;

/** The object tag its tenant's retention is written in; the bucket's rule for its value deletes it (infra/artifacts.ts). */
export const RETENTION_TAG = 'vigil-retention-days';

/**
 * The retentions, in days, that objects expire at: one lifecycle rule each (a bucket holds at most
 * 1,000). A tenant's retention_days is rounded up to the next one, so an object never goes before
 * its result (at most a tier later: the artifact route answers 404 past the retention meanwhile);
 * past the last, objects expire at the last, the longest any evidence is kept.
 */
export const LONGEST_RETENTION_DAYS = 400;
export const RETENTION_TIERS: readonly number[] = [
  1,
  2,
  3,
  7,
  14,
  30,
  60,
  90,
  180,
  365,
  LONGEST_RETENTION_DAYS,
];

/** The tier an object of a tenant with `retentionDays` is tagged with. */
function retentionTier(retentionDays: number): number {
  return RETENTION_TIERS.find((tier) => tier >= retentionDays) ?? LONGEST_RETENTION_DAYS;
}

export interface S3ArtifactStoreOptions {
  bucket: string;
  region: string;
  /** A client of the caller's own (a test's fauxqs); default one for `region`, made at the first call. */
  s3?: S3Client | undefined;
  /** How the function wraps its AWS clients (X-Ray on the HTTP functions). */
  traced?: <C extends object>(client: C) => C;
}

/**
 * The cloud's artifact store: each key an object in the artifacts bucket (infra/artifacts.ts:
 * private, encrypted, TLS only), tagged with its tenant's retention, rounded up to a tier, whose
 * lifecycle rule deletes it (RETENTION_TIERS; untagged objects at the longest). A first
 * write only (`If-None-Match: *`): a redelivered job's second write is refused with 412 and
 * ignored, as the local store's `wx` write is. The S3 SDK is imported at the first call, so a
 * function that builds the store and never stores (or never builds it) starts without it.
 */
export function createS3ArtifactStore(options: S3ArtifactStoreOptions): ArtifactStore {
  const { bucket } = options;
  let loaded: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); s3: S3Client }> | undefined;
  const client = () => {
    loaded ??= import('@aws-sdk/client-s3').then((sdk) => {
      const s3 = options.s3 ?? new sdk.S3Client({ region: options.region });
      return { sdk, s3: options.traced ? options.traced(s3) : s3 };
    });
    return loaded;
  };
  return {
    async putIfAbsent(key, bytes, contentType, retentionDays?: number) {
      const { sdk, s3 } = await client();
      try {
        await s3.send(
          new sdk.PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: bytes,
            ContentType: contentType,
            IfNoneMatch: '*',
            ...(retentionDays === undefined
              ? {}
              : { Tagging: `${RETENTION_TAG}=${retentionTier(retentionDays)}` }),
          }),
        );
      } catch (error) {
        // 412: the key holds the first write; 409: a concurrent first write is under way.
        const status = error instanceof sdk.S3ServiceException ? error.$metadata.httpStatusCode : undefined;
        if (status !== 412 && status !== 409) throw error;
      }
    },
    async get(key) {
      const { sdk, s3 } = await client();
      try {
        const answer = await s3.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!answer.Body) return undefined;
        return Buffer.from(await answer.Body.transformToByteArray());
      } catch (error) {
        if (error instanceof sdk.NoSuchKey) return undefined;
        throw error;
      }
    },
    async deletePrefix(prefix) {
      const { sdk, s3 } = await client();
      let deleted = 0;
      let token: string | undefined;
      do {
        const page = await s3.send(
          new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        for (let i = 0; i < keys.length; i += DELETE_BATCH) {
          const batch = keys.slice(i, i + DELETE_BATCH);
          await s3.send(
            new sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch, Quiet: true } }),
          );
          deleted += batch.length;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return deleted;
    },
  };
}

/**
 * The artifacts bucket's store when the function is given one (VIGIL_ARTIFACT_BUCKET: the browser,
 * api and stream functions, which write, read and delete artifacts); none otherwise.
 */
export function artifactBucketStore(
  config: { artifactBucket?: string | undefined; region: string },
  options: Omit<S3ArtifactStoreOptions, 'bucket' | 'region'> = {},
): ArtifactStore | undefined {
  if (!config.artifactBucket) return undefined;
  return createS3ArtifactStore({ ...options, bucket: config.artifactBucket, region: config.region });
}
