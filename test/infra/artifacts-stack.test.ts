import { describe, expect, it } from 'vitest';
import { ARTIFACT_EXPIRY_DAYS } from '../../infra/artifacts.ts';
import { DEFAULT_LIMITS } from '../../lib/auth/tenants/tenant-items.ts';
import { RETENTION_TAG, RETENTION_TIERS } from '../../lib/checks/probing.ts';
import { getAtt, only, PRIVATE_ENCRYPTED_BUCKET, stackTemplateForFile } from './synth.ts';

/**
 * The artifacts bucket (infra/artifacts.ts): browser checks' screenshots, private, encrypted, TLS
 * only, logged, expiring after the longest retention; the browser function may only put objects,
 * the api function only read them, the stream function (a deleted check's purge) only list and
 * delete them, and no other function knows the bucket.
 */
const stack = stackTemplateForFile();

const bucket = () => only(stack.template, 'AWS::S3::Bucket', 'ArtifactsBucket');
const objects = () => ({ 'Fn::Join': ['', [getAtt(bucket()[0]), '/*']] });

/** Every S3 action of a function's role, by the function's construct id prefix. */
function s3Actions(prefix: string): string[] {
  return [
    ...stack.actionsOfRole(prefix, objects()).map((a) => `${a} objects`),
    ...stack.actionsOfRole(prefix, getAtt(bucket()[0])).map((a) => `${a} bucket`),
  ].sort();
}

describe('artifacts bucket', () => {
  it('blocks public access, encrypts, logs to the access-log bucket, is retained and expires objects after the longest retention', () => {
    const [, resource] = bucket();
    const [logsId] = only(stack.template, 'AWS::S3::Bucket', 'ConsoleAccessLogs');

    expect(resource.Properties).toMatchObject({
      ...PRIVATE_ENCRYPTED_BUCKET,
      LoggingConfiguration: { DestinationBucketName: { Ref: logsId }, LogFilePrefix: 'artifacts-bucket/' },
    });
    // One rule per retention tier, by the tag the store puts objects with, and the longest for untagged ones.
    expect((resource.Properties.LifecycleConfiguration as { Rules: unknown }).Rules).toEqual([
      ...RETENTION_TIERS.map((days) => ({
        Id: `retention-${days}d`,
        ExpirationInDays: days,
        Status: 'Enabled',
        TagFilters: [{ Key: RETENTION_TAG, Value: String(days) }],
      })),
      { Id: 'longest', ExpirationInDays: ARTIFACT_EXPIRY_DAYS, Status: 'Enabled' },
    ]);
    expect(ARTIFACT_EXPIRY_DAYS).toBeGreaterThan(DEFAULT_LIMITS.retention_days);
    stack.template.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: { LoggingConfiguration: { LogFilePrefix: 'artifacts-bucket/' } },
    });
  });

  it('refuses every request without TLS', () => {
    const [bucketId] = bucket();
    const [, policy] = only(stack.template, 'AWS::S3::BucketPolicy', 'ArtifactsBucket');

    expect(policy.Properties.Bucket).toEqual({ Ref: bucketId });
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it('lets the browser function put, the api function read and the stream function list and delete, nothing more', () => {
    expect(s3Actions('ChecksBrowserHandler')).toEqual([
      's3:PutObject objects',
      's3:PutObjectTagging objects',
    ]);
    expect(s3Actions('ApiHandler')).toEqual(['s3:GetObject objects', 's3:ListBucket bucket']);
    expect(s3Actions('ChangeFeedHandler')).toEqual(['s3:DeleteObject objects', 's3:ListBucket bucket']);
  });

  it('is named to those three functions only: the worker and the others neither know nor reach it', () => {
    const [bucketId] = bucket();
    const functions = Object.keys(stack.template.findResources('AWS::Lambda::Function')).filter(
      (id) => !id.startsWith('CustomCDKBucketDeployment'),
    );
    const told = functions.filter((id) =>
      JSON.stringify(stack.template.toJSON().Resources[id].Properties.Environment ?? {}).includes(
        `"VIGIL_ARTIFACT_BUCKET":{"Ref":"${bucketId}"}`,
      ),
    );
    const reaching = Object.entries(stack.template.findResources('AWS::IAM::Policy'))
      .filter(([, p]) => JSON.stringify(p.Properties.PolicyDocument).includes(bucketId))
      .map(([id]) => id.replace(/RoleDefaultPolicy.*$/, ''));

    expect(told.map((id) => id.replace(/Function[0-9A-F]{8}$/, '')).sort()).toEqual(
      ['ApiHandler', 'ChangeFeedHandler', 'ChecksBrowserHandler'].sort(),
    );
    expect(reaching.sort()).toEqual(['ApiHandler', 'ChangeFeedHandler', 'ChecksBrowserHandler'].sort());
  });
});
