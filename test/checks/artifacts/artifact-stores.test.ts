import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { artifactKey, checkArtifactsPrefix } from '../../../lib/checks/artifacts/artifact-store.ts';
import { createFileArtifactStore } from '../../../lib/checks/artifacts/file-artifact-store.ts';
import { createS3ArtifactStore } from '../../../lib/checks/artifacts/s3-artifact-store.ts';
import { deterministicId } from '../../../lib/platform/ids.ts';

/**
 * The artifact port's two adapters: files under the data dir (first write stands, keys cannot
 * leave the root, expired results' files swept by their tenant's retention) and S3 (calls shaped
 * with tenant-scoped keys, If-None-Match on put, a 412 taken as "already stored").
 */

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T12:00:00Z');
const scope = (resultMs: number) => ({
  tenantId: 'tnt_01JAAAAAAAAAAAAAAAAAAAAAAA',
  checkId: 'chk_01JBBBBBBBBBBBBBBBBBBBBBBB',
  resultId: deterministicId('res', resultMs, 'seed'),
});

describe('the file artifact store', () => {
  const dirs: string[] = [];
  const store = () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-artifacts-'));
    dirs.push(dir);
    return createFileArtifactStore(dir);
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the first write of a key and reads it back', async () => {
    const files = store();
    const key = artifactKey(scope(NOW), 'step-1.jpg');

    await files.putIfAbsent(key, Buffer.from('first'), 'image/jpeg');
    await files.putIfAbsent(key, Buffer.from('second'), 'image/jpeg');

    expect((await files.get(key))?.toString()).toBe('first');
    expect(await files.get(artifactKey(scope(NOW), 'step-2.jpg'))).toBeUndefined();
  });

  it('refuses a key that would leave its root', async () => {
    const files = store();

    await expect(files.putIfAbsent('../escape/x.jpg', Buffer.from('x'), 'image/jpeg')).rejects.toThrow(
      'not an artifact key',
    );
  });

  it("sweeps the results older than their tenant's retention and deletes a check's prefix", async () => {
    const files = store();
    const old = artifactKey(scope(NOW - 40 * DAY), 'step-1.jpg');
    const recent = artifactKey(scope(NOW - DAY), 'step-1.jpg');
    await files.putIfAbsent(old, Buffer.from('old'), 'image/jpeg');
    await files.putIfAbsent(recent, Buffer.from('recent'), 'image/jpeg');

    expect(await files.sweepExpired(NOW, async () => 30)).toBe(1);
    expect(await files.get(old)).toBeUndefined();
    expect((await files.get(recent))?.toString()).toBe('recent');

    const s = scope(NOW);
    expect(await files.deletePrefix(checkArtifactsPrefix(s.tenantId, s.checkId))).toBe(1);
    expect(await files.get(recent)).toBeUndefined();
  });
});

describe('the S3 artifact store', () => {
  const s3 = mockClient(S3Client);
  afterEach(() => s3.reset());
  const bucket = 'vigil-artifacts';
  const make = () => createS3ArtifactStore({ s3: new S3Client({ region: 'us-east-1' }), bucket });

  it('puts with If-None-Match under the tenant-scoped key and takes a 412 as stored', async () => {
    const key = artifactKey(scope(NOW), 'step-3.jpg');
    s3.on(PutObjectCommand)
      .resolvesOnce({})
      .rejectsOnce(
        new S3ServiceException({
          name: 'PreconditionFailed',
          $fault: 'client',
          $metadata: { httpStatusCode: 412 },
        }),
      );

    await make().putIfAbsent(key, Buffer.from('jpeg'), 'image/jpeg');
    await make().putIfAbsent(key, Buffer.from('jpeg'), 'image/jpeg');

    const calls = s3.commandCalls(PutObjectCommand);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.args[0].input).toMatchObject({
      Bucket: bucket,
      Key: `${scope(NOW).tenantId}/${scope(NOW).checkId}/${scope(NOW).resultId}/step-3.jpg`,
      ContentType: 'image/jpeg',
      IfNoneMatch: '*',
    });
  });

  it('reads an object, and answers undefined for a missing one', async () => {
    const key = artifactKey(scope(NOW), 'step-1.jpg');
    s3.on(GetObjectCommand, { Key: key }).resolves({
      // The SDK's body stream: only the method the adapter reads.
      Body: { transformToByteArray: async () => new Uint8Array(Buffer.from('jpeg bytes')) } as never,
    });
    s3.on(GetObjectCommand, { Key: `${key}x` }).rejects(new NoSuchKey({ message: 'no', $metadata: {} }));

    expect((await make().get(key))?.toString()).toBe('jpeg bytes');
    expect(await make().get(`${key}x`)).toBeUndefined();
    expect(s3.commandCalls(GetObjectCommand)[0]?.args[0].input).toEqual({ Bucket: bucket, Key: key });
  });

  it("deletes a check's objects by its tenant-scoped prefix, page by page", async () => {
    const s = scope(NOW);
    const prefix = checkArtifactsPrefix(s.tenantId, s.checkId);
    s3.on(ListObjectsV2Command)
      .resolvesOnce({
        Contents: [{ Key: `${prefix}a/step-1.jpg` }],
        IsTruncated: true,
        NextContinuationToken: 't',
      })
      .resolvesOnce({ Contents: [{ Key: `${prefix}b/step-1.jpg` }], IsTruncated: false });
    s3.on(DeleteObjectsCommand).resolves({});

    expect(await make().deletePrefix(prefix)).toBe(2);

    expect(s3.commandCalls(ListObjectsV2Command).map((c) => c.args[0].input)).toEqual([
      { Bucket: bucket, Prefix: prefix, ContinuationToken: undefined },
      { Bucket: bucket, Prefix: prefix, ContinuationToken: 't' },
    ]);
    expect(s3.commandCalls(DeleteObjectsCommand).map((c) => c.args[0].input.Delete?.Objects)).toEqual([
      [{ Key: `${prefix}a/step-1.jpg` }],
      [{ Key: `${prefix}b/step-1.jpg` }],
    ]);
  });
});
