import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { ArtifactStore } from './artifact-store.ts';

/** Keys one DeleteObjects call takes at most (S3's limit). */
const DELETE_BATCH = 1000;

/**
 * The cloud's artifact store: each key an object in the artifacts bucket (infra/artifacts.ts:
 * private, encrypted, TLS only, expiring by a lifecycle rule at the longest retention). A first
 * write only (`If-None-Match: *`): a redelivered job's second write is refused with 412 and
 * ignored, as the local store's `wx` write is.
 */
export function createS3ArtifactStore(deps: { s3: S3Client; bucket: string }): ArtifactStore {
  const { s3, bucket } = deps;
  return {
    async putIfAbsent(key, bytes, contentType) {
      try {
        await s3.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: bytes,
            ContentType: contentType,
            IfNoneMatch: '*',
          }),
        );
      } catch (error) {
        // 412: the key holds the first write; 409: a concurrent first write is under way.
        const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
        if (status !== 412 && status !== 409) throw error;
      }
    },
    async get(key) {
      try {
        const answer = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        if (!answer.Body) return undefined;
        return Buffer.from(await answer.Body.transformToByteArray());
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        throw error;
      }
    },
    async deletePrefix(prefix) {
      let deleted = 0;
      let token: string | undefined;
      do {
        const page = await s3.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        for (let i = 0; i < keys.length; i += DELETE_BATCH) {
          const batch = keys.slice(i, i + DELETE_BATCH);
          await s3.send(
            new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch, Quiet: true } }),
          );
          deleted += batch.length;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return deleted;
    },
  };
}
