import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type IBucket,
  type LifecycleRule,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { LONGEST_RETENTION_DAYS, RETENTION_TAG, RETENTION_TIERS } from '../lib/checks/probing.ts';

/**
 * Days an artifact is kept at most: the longest retention tier (lib/checks/artifacts). Tenants'
 * limits (retention_days, lib/auth) have no upper bound in code, so this is the bound the
 * deployment sets. Each object is tagged with its tenant's retention rounded up to a tier, and the
 * tier's rule deletes it then; an untagged object (put before tags) waits for this one.
 */
export const ARTIFACT_EXPIRY_DAYS = LONGEST_RETENTION_DAYS;

/** One expiry rule per retention tier, by the object's tag, and the longest for untagged objects. */
function lifecycleRules(): LifecycleRule[] {
  return [
    ...RETENTION_TIERS.map((days) => ({
      id: `retention-${days}d`,
      tagFilters: { [RETENTION_TAG]: String(days) },
      expiration: Duration.days(days),
    })),
    { id: 'longest', expiration: Duration.days(ARTIFACT_EXPIRY_DAYS) },
  ];
}

export interface VigilArtifactsProps {
  /** Where the bucket's server access logs go (the console's access-log bucket). */
  readonly accessLogs: IBucket;
}

/**
 * Browser checks' evidence in the cloud (issue 57, docs/scripted-checks.md "Evidence"): a private,
 * encrypted, TLS-only bucket, each object `<tnt>/<chk>/<res>/step-<n>.jpg`, expiring after
 * ARTIFACT_EXPIRY_DAYS. Each function gets the bucket's name and only the actions it takes: the
 * browser function puts, the api function reads, the stream function (a deleted check's purge)
 * lists and deletes.
 */
export class VigilArtifacts extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: VigilArtifactsProps) {
    super(scope, id);
    // Retained on `cdk destroy` (it is not empty); its objects expire on their own.
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: props.accessLogs,
      serverAccessLogsPrefix: 'artifacts-bucket/',
      lifecycleRules: lifecycleRules(),
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** Lets `fn` put objects with their retention tag (the browser function's screenshots and traces), nothing else. */
  writeFrom(fn: NodejsFunction): void {
    this.allow(fn, ['s3:PutObject', 's3:PutObjectTagging'], this.bucket.arnForObjects('*'));
  }

  /**
   * Lets `fn` read objects (the api function's artifact route). s3:ListBucket too: without it S3
   * answers a missing key with 403 instead of 404 (NoSuchKey), and the route's 404 for a name a
   * result has not would be a 500.
   */
  readFrom(fn: NodejsFunction): void {
    this.allow(fn, ['s3:GetObject'], this.bucket.arnForObjects('*'));
    this.allow(fn, ['s3:ListBucket'], this.bucket.bucketArn);
  }

  /** Lets `fn` list and delete objects (the stream function's purge of a deleted check's prefix). */
  purgeFrom(fn: NodejsFunction): void {
    this.allow(fn, ['s3:DeleteObject'], this.bucket.arnForObjects('*'));
    this.allow(fn, ['s3:ListBucket'], this.bucket.bucketArn);
  }

  private allow(fn: NodejsFunction, actions: string[], resource: string): void {
    fn.addToRolePolicy(new PolicyStatement({ actions, resources: [resource] }));
    fn.addEnvironment('VIGIL_ARTIFACT_BUCKET', this.bucket.bucketName);
  }
}
