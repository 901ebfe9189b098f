import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { artifactKey, checkArtifactsPrefix } from '../../../lib/checks/artifacts/artifact-store.ts';
import { createFileArtifactStore } from '../../../lib/checks/artifacts/file-artifact-store.ts';
import {
  createS3ArtifactStore,
  LONGEST_RETENTION_DAYS,
  RETENTION_TIERS,
} from '../../../lib/checks/artifacts/s3-artifact-store.ts';
import { deterministicId } from '../../../lib/platform/ids.ts';
import { type FauxqsEngine, startFauxqsEngine } from '../../support/fauxqs.ts';

/**
 * The artifact port's two adapters: files under the data dir (first write stands, keys cannot
 * leave the root, expired results' files swept by their tenant's retention) and S3, on fauxqs's S3
 * (tenant-scoped keys, If-None-Match: * on every put, reads, a prefix deleted page by page); the
 * answers fauxqs does not give (it ignores If-None-Match on PutObject: S3's 412 and 409) through
 * aws-sdk-client-mock.
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

  it("sweeps the results older than their tenant's retention, a trace with the screenshots, and deletes a check's prefix", async () => {
    const files = store();
    const old = artifactKey(scope(NOW - 40 * DAY), 'step-1.jpg');
    const oldTrace = artifactKey(scope(NOW - 40 * DAY), 'trace.zip');
    const recent = artifactKey(scope(NOW - DAY), 'step-1.jpg');
    await files.putIfAbsent(old, Buffer.from('old'), 'image/jpeg');
    await files.putIfAbsent(oldTrace, Buffer.from('PK'), 'application/zip');
    await files.putIfAbsent(recent, Buffer.from('recent'), 'image/jpeg');

    expect(await files.sweepExpired(NOW, async () => 30)).toBe(1);
    expect(await files.get(old)).toBeUndefined();
    expect(await files.get(oldTrace)).toBeUndefined();
    expect((await files.get(recent))?.toString()).toBe('recent');

    const s = scope(NOW);
    expect(await files.deletePrefix(checkArtifactsPrefix(s.tenantId, s.checkId))).toBe(1);
    expect(await files.get(recent)).toBeUndefined();
  });
});

describe('the S3 artifact store, on fauxqs S3', () => {
  let engine: FauxqsEngine;
  const bucket = 'vigil-artifacts';
  /** The If-None-Match header of each PutObject sent on the wire (fauxqs stores regardless; S3 answers 412). */
  const conditions: (string | undefined)[] = [];
  /** The tagging header of each PutObject (fauxqs keeps no tags; S3's lifecycle rules read them). */
  const tags: (string | undefined)[] = [];
  beforeAll(async () => {
    engine = await startFauxqsEngine();
    engine.server.createBucket(bucket);
    engine.s3.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'PutObjectCommand') {
          const { headers } = args.request as { headers: Record<string, string> };
          conditions.push(headers['if-none-match']);
          tags.push(headers['x-amz-tagging']);
        }
        return next(args);
      },
      { step: 'finalizeRequest', name: 'recordPutConditions' },
    );
  });
  afterAll(() => engine?.stop());
  const make = () => createS3ArtifactStore({ s3: engine.s3, bucket, region: 'us-east-1' });

  it('puts under the tenant-scoped key, first writes only, and reads it back', async () => {
    const key = artifactKey(scope(NOW), 'step-3.jpg');

    await make().putIfAbsent(key, Buffer.from('jpeg'), 'image/jpeg');

    const s = scope(NOW);
    expect(key).toBe(`${s.tenantId}/${s.checkId}/${s.resultId}/step-3.jpg`);
    expect((await make().get(key))?.toString()).toBe('jpeg');
    const head = await engine.s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    expect(head.ContentType).toBe('image/jpeg');
    expect(conditions).toEqual(['*']);
  });

  it("tags each object with its tenant's retention rounded up to a tier the bucket expires, none when not given", async () => {
    tags.length = 0;
    for (const days of [1, 30, 45, 366, 5000]) {
      await make().putIfAbsent(
        artifactKey(scope(NOW), `step-${days % 30 || 30}.jpg`),
        Buffer.from('j'),
        'image/jpeg',
        days,
      );
    }
    await make().putIfAbsent(artifactKey(scope(NOW), 'step-7.jpg'), Buffer.from('j'), 'image/jpeg');
    expect(tags).toEqual([
      'vigil-retention-days=1',
      'vigil-retention-days=30',
      'vigil-retention-days=60',
      'vigil-retention-days=400',
      'vigil-retention-days=400',
      undefined,
    ]);
    expect(RETENTION_TIERS.at(-1)).toBe(LONGEST_RETENTION_DAYS);
  });

  it('answers undefined for a key it does not hold', async () => {
    expect(await make().get(artifactKey(scope(NOW), 'step-9.jpg'))).toBeUndefined();
  });

  it("deletes a check's objects by its tenant-scoped prefix, page by page, and no other check's", async () => {
    const s = { ...scope(NOW), checkId: 'chk_01JDDDDDDDDDDDDDDDDDDDDDDD' };
    const prefix = checkArtifactsPrefix(s.tenantId, s.checkId);
    const other = artifactKey({ ...s, checkId: 'chk_01JCCCCCCCCCCCCCCCCCCCCCCC' }, 'step-1.jpg');
    // More than one page of ListObjectsV2 (1,000 keys), put 50 at a time.
    const keys = Array.from(
      { length: 1001 },
      (_, i) => `${prefix}res_${String(i).padStart(4, '0')}/step-1.jpg`,
    );
    await engine.s3.send(new PutObjectCommand({ Bucket: bucket, Key: other, Body: 'x' }));
    for (let i = 0; i < keys.length; i += 50)
      await Promise.all(
        keys
          .slice(i, i + 50)
          .map((key) => engine.s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'x' }))),
      );

    expect(await make().deletePrefix(prefix)).toBe(1001);

    const left = await engine.s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    expect(left.KeyCount ?? 0).toBe(0);
    expect((await make().get(other))?.toString()).toBe('x');
  });
});

describe('the S3 artifact store, answers fauxqs cannot give', () => {
  // A mocked client of its own: fauxqs's client above stays real.
  const client = new S3Client({ region: 'us-east-1' });
  const s3 = mockClient(client);
  afterEach(() => s3.reset());
  const make = () => createS3ArtifactStore({ s3: client, bucket: 'vigil-artifacts', region: 'us-east-1' });
  const refused = (status: number) =>
    new S3ServiceException({
      name: 'PreconditionFailed',
      $fault: 'client',
      $metadata: { httpStatusCode: status },
    });

  it("takes S3's 412 (the key holds a first write) and 409 (one under way) as stored, and throws on others", async () => {
    const key = artifactKey(scope(NOW), 'step-3.jpg');
    s3.on(PutObjectCommand).rejectsOnce(refused(412)).rejectsOnce(refused(409)).rejectsOnce(refused(503));

    await make().putIfAbsent(key, Buffer.from('jpeg'), 'image/jpeg');
    await make().putIfAbsent(key, Buffer.from('jpeg'), 'image/jpeg');
    await expect(make().putIfAbsent(key, Buffer.from('jpeg'), 'image/jpeg')).rejects.toThrow();

    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(3);
  });
});
