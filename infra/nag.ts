import { type CfnElement, type Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * The cdk-nag AwsSolutions findings the stack keeps, each with why (test/infra/nag.test.ts runs
 * the pack; every finding not listed here fails it). Acknowledged on the construct concerned,
 * never on the whole stack, so a new resource's findings still show.
 */
export function acknowledgeNagFindings(stack: Stack): void {
  const at = (path: string): IConstruct => {
    const found = stack.node.tryFindChild(path.split('/')[0] ?? '');
    const construct = path
      .split('/')
      .slice(1)
      .reduce<IConstruct | undefined>((c, id) => c?.node.tryFindChild(id), found);
    if (!construct) throw new Error(`no construct ${path} to acknowledge a cdk-nag finding on`);
    return construct;
  };
  const ack = (construct: IConstruct, id: string, reason: string) =>
    Validations.of(construct).acknowledge({ id, reason });

  ack(
    at('Api/HttpApi'),
    'AwsSolutions-APIG4',
    'Every route reaches the app, which authenticates the Bearer API key itself (lib/auth); ping URLs are keyless by design (the token in the path is the credential).',
  );
  for (const fn of ['Api', 'Ping', 'Mcp', 'StatusStream', 'Config'])
    ack(
      at(`${fn}/Handler/Role`),
      'AwsSolutions-IAM5[Resource::*]',
      'Resource * is X-Ray tracing (xray:PutTraceSegments, PutTelemetryRecords), which has no resource-level permissions.',
    );
  ack(
    at('ChangeFeed/Handler/Role'),
    'AwsSolutions-IAM5[Resource::*]',
    'Resource * is dynamodb:ListStreams, which the DynamoDB event source needs and which has no resource-level permissions.',
  );
  ack(
    at('ChangeFeed/Dlq'),
    'AwsSolutions-SQS3',
    "This queue is a dead-letter destination itself: the stream event source's on-failure destination, not a redrive target.",
  );
  ack(
    at('EdgeSecret'),
    'AwsSolutions-SMG4',
    'The edge secret reaches CloudFront and the functions through deploy-time dynamic references; a rotation would split them until the next deploy. Rotate it by redeploying after changing it.',
  );
  const distribution = at('Console/Distribution');
  ack(distribution, 'AwsSolutions-CFR1', 'A monitoring service serves its users and status pages worldwide.');
  ack(
    distribution,
    'AwsSolutions-CFR2',
    'WAF is optional (-c vigil:waf=true, infra/waf.ts): a web ACL costs a monthly floor not every deployment wants.',
  );
  ack(
    distribution,
    'AwsSolutions-CFR4',
    "The default *.cloudfront.net certificate cannot set a minimum TLS version; CloudFront's own certificate policy applies.",
  );
  // The artifacts bucket's objects: keys are <tnt>/<chk>/<res>/<name>, made at run time.
  const artifactObjects = `Resource::<${stack.getLogicalId(at('Artifacts/Bucket').node.defaultChild as CfnElement)}.Arn>/*`;
  for (const fn of ['Api/Handler', 'Checks/Browser/Handler', 'ChangeFeed/Handler'])
    ack(
      at(`${fn}/Role`),
      `AwsSolutions-IAM5[${artifactObjects}]`,
      "Objects of the artifacts bucket (browser checks' screenshots), keyed by tenant, check and result at run time: the browser function may only put them, the api function only get them, the stream function only delete them (infra/artifacts.ts).",
    );
  // Status pages on custom domains (-c vigil:pageDomains=): only when the deployment has them.
  const pages = stack.node.tryFindChild('PageDomains')?.node.tryFindChild('Distribution');
  if (pages) {
    ack(pages, 'AwsSolutions-CFR1', 'Status pages are read by their customers worldwide.');
    ack(
      pages,
      'AwsSolutions-CFR2',
      'WAF is optional (-c vigil:waf=true, infra/waf.ts), as on the console distribution: a web ACL costs a monthly floor.',
    );
  }
  // The CDK's BucketDeployment handler (a singleton Lambda the console's file upload runs in).
  const deployment = stack.node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
  if (deployment) {
    ack(
      deployment,
      'AwsSolutions-L1',
      "The CDK's BucketDeployment handler: its runtime is aws-cdk-lib's choice.",
    );
    ack(
      deployment,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      "The CDK's BucketDeployment handler role: aws-cdk-lib attaches the basic execution role.",
    );
    // aws-cdk-lib's grants: read the asset bucket, write the console bucket. It runs only during deploys.
    const grants = [
      'Action::s3:Abort*',
      'Action::s3:DeleteObject*',
      'Action::s3:GetBucket*',
      'Action::s3:GetObject*',
      'Action::s3:List*',
      `Resource::<${stack.getLogicalId(at('Console/Files').node.defaultChild as CfnElement)}.Arn>/*`,
      'Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*',
    ];
    for (const finding of grants)
      ack(
        deployment,
        `AwsSolutions-IAM5[${finding}]`,
        "The CDK's BucketDeployment handler copies the built console from the CDK asset bucket into the console bucket with aws-cdk-lib's own grants; it runs only during deploys.",
      );
  }
}
