import { Stack, Token } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { z } from 'zod';

/** Requests one address may make in 5 minutes through CloudFront before WAF blocks it (`vigil:wafRateLimit`). */
const DEFAULT_WAF_RATE_LIMIT = 2_000;

export const wafRateLimitSchema = z.coerce
  .number()
  .int()
  .min(10)
  .max(2_000_000_000)
  .default(DEFAULT_WAF_RATE_LIMIT);

/**
 * The optional web ACL (`-c vigil:waf=true`) in front of the console's CloudFront distribution,
 * which carries the console, /v1, /p/*, /ping/* and /healthz. A rate-based rule per viewer address
 * and AWS's managed common rule set (its body-size and no-User-Agent rules only count: API bodies
 * and cron pings legitimately trip them). WAF cannot protect an API Gateway HTTP API, and a
 * CloudFront web ACL must live in us-east-1: the stack must be deployed there, or be given the ARN
 * of an ACL made there (`vigil:wafAclArn`, e.g. by a small us-east-1 stack).
 */
export class VigilWaf extends Construct {
  readonly webAclArn: string;

  constructor(scope: Construct, id: string, props: { rateLimit: number }) {
    super(scope, id);
    const region = Stack.of(this).region;
    if (Token.isUnresolved(region) || region !== 'us-east-1')
      throw new Error(
        'invalid deployment settings:\n  vigil:waf: a CloudFront web ACL must be created in us-east-1; deploy the stack there ' +
          '(CDK_DEFAULT_REGION or --region, resolved at synth), or create the ACL in us-east-1 and pass -c vigil:wafAclArn=<arn>',
      );
    const visibility = (metricName: string) => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName,
    });
    const acl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('vigil-edge'),
      rules: [
        {
          name: 'rate-per-address',
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { limit: props.rateLimit, aggregateKeyType: 'IP' } },
          visibilityConfig: visibility('vigil-rate'),
        },
        {
          name: 'aws-common',
          priority: 1,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: ['SizeRestrictions_BODY', 'NoUserAgent_HEADER'].map((name) => ({
                name,
                actionToUse: { count: {} },
              })),
            },
          },
          visibilityConfig: visibility('vigil-common'),
        },
      ],
    });
    this.webAclArn = acl.attrArn;
  }
}
