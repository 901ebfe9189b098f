import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/**
 * Days an artifact is kept at most: past the longest retention a tenant is given. Tenants' limits
 * (retention_days, lib/auth) have no upper bound in code, so this is the bound the deployment sets;
 * a shorter retention is enforced by the artifact route (a result past it is a 404) and its objects
 * wait for this rule, as a deleted check's are deleted by its purge (lib/checks/artifacts).
 */
export const ARTIFACT_EXPIRY_DAYS = 400;

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
      lifecycleRules: [{ expiration: Duration.days(ARTIFACT_EXPIRY_DAYS) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** Lets `fn` put objects (the browser function's screenshots), nothing else. */
  writeFrom(fn: NodejsFunction): void {
    this.allow(fn, ['s3:PutObject'], this.bucket.arnForObjects('*'));
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
