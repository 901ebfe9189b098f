import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VigilStack } from '../../infra/vigil-stack.ts';
import { CONSOLE_CSP } from '../../lib/http/policies/console-policy.ts';
import { ALL_VIEWER_EXCEPT_HOST_HEADER, API_PATHS } from './console-paths.ts';
import { cdkApp, only, PRIVATE_ENCRYPTED_BUCKET } from './synth.ts';

// The console's bucket, distribution and same-origin API routing, synthesized from a stand-in
// build (so this test needs no `npm run build:web`).

const work = mkdtempSync(join(tmpdir(), 'vigil-console-cdk-'));
const consoleDir = join(work, 'dist');
let template: Template;

/** Managed policy ids (CloudFront's documented constants). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';

/** A VigilStack's template with the feature flags of cdk.json, reading the console from `dir`. */
function synth(dir: string): Template {
  const app = cdkApp(join(work, `cdk-${Math.random().toString(36).slice(2)}`));
  return Template.fromStack(new VigilStack(app, 'Vigil', { consoleDir: dir }));
}

interface Behavior {
  PathPattern?: string;
  TargetOriginId: string;
  AllowedMethods: string[];
  CachePolicyId: string;
  OriginRequestPolicyId?: string;
  ViewerProtocolPolicy: string;
  ResponseHeadersPolicyId?: unknown;
  FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
}
interface Origin {
  Id: string;
  DomainName: unknown;
  S3OriginConfig?: unknown;
  OriginAccessControlId?: unknown;
  CustomOriginConfig?: { OriginProtocolPolicy: string };
}

function distribution(): {
  id: string;
  origins: Origin[];
  defaultBehavior: Behavior;
  behaviors: Behavior[];
  config: Record<string, unknown>;
} {
  const [id, resource] = only(template, 'AWS::CloudFront::Distribution');
  const config = resource.Properties.DistributionConfig as Record<string, unknown>;
  return {
    id,
    config,
    origins: config.Origins as Origin[],
    defaultBehavior: config.DefaultCacheBehavior as Behavior,
    behaviors: config.CacheBehaviors as Behavior[],
  };
}

/** The origin a path pattern's behavior sends requests to. */
function originOf(pattern: string): Origin {
  const { behaviors, origins } = distribution();
  const behavior = behaviors.find((b) => b.PathPattern === pattern);
  expect(behavior, pattern).toBeDefined();
  const origin = origins.find((o) => o.Id === behavior?.TargetOriginId);
  if (!origin) throw new Error(`no origin for ${pattern}`);
  return origin;
}

beforeAll(() => {
  mkdirSync(join(consoleDir, 'assets'), { recursive: true });
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Vigil</title>');
  writeFileSync(join(consoleDir, 'assets', 'index-abc123.js'), 'console.log(1)');
  template = synth(consoleDir);
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('console bucket', () => {
  it('is private, encrypted and refuses plain HTTP', () => {
    const [bucketId, bucket] = only(template, 'AWS::S3::Bucket', 'ConsoleFiles');
    expect(bucket.Properties).toMatchObject(PRIVATE_ENCRYPTED_BUCKET);
    expect(bucket.Properties.WebsiteConfiguration).toBeUndefined();
    const [, policy] = only(template, 'AWS::S3::BucketPolicy', 'ConsoleFiles');
    expect(policy.Properties.Bucket).toEqual({ Ref: bucketId });
    const { Statement } = policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] };
    expect(Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
  });

  it('lets only this distribution read objects, through origin access control', () => {
    const [, policy] = only(template, 'AWS::S3::BucketPolicy', 'ConsoleFiles');
    const { Statement } = policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] };
    const allows = Statement.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({
      Action: 's3:GetObject',
      Principal: { Service: 'cloudfront.amazonaws.com' },
    });
    expect(JSON.stringify(allows[0]?.Condition)).toContain(distribution().id);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always' },
    });
    expect(template.findResources('AWS::CloudFront::CloudFrontOriginAccessIdentity')).toEqual({});
    const s3 = distribution().origins.find((o) => o.S3OriginConfig !== undefined);
    expect(s3?.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^Console/), 'Id'] });
  });

  it('is filled by two deployments: pages revalidated, hashed assets immutable and kept', () => {
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')).map(
      (r) => r.Properties as Record<string, unknown>,
    );
    expect(deployments).toHaveLength(2);
    expect(deployments).toContainEqual(
      expect.objectContaining({
        Exclude: ['assets/*'],
        Prune: true,
        SystemMetadata: { 'cache-control': 'no-cache' },
      }),
    );
    expect(deployments).toContainEqual(
      expect.objectContaining({
        Exclude: ['*'],
        Include: ['assets/*'],
        Prune: false,
        SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
      }),
    );
  });

  it('fails the synth, naming the build command, when the console is not built', () => {
    expect(() => synth(join(work, 'missing'))).toThrow(/npm run build:web/);
  });
});

describe('console distribution', () => {
  it('serves index.html at the root, redirects viewers to HTTPS and caches the files', () => {
    const { config, defaultBehavior } = distribution();
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.CustomErrorResponses).toBeUndefined();
    expect(defaultBehavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      AllowedMethods: ['GET', 'HEAD'],
      CachePolicyId: CACHING_OPTIMIZED,
    });
  });

  it('rewrites client routes to /index.html with a viewer-request function on the default behavior only', () => {
    const [fnId, fn] = only(template, 'AWS::CloudFront::Function', 'ConsoleSpaRewrite');
    expect(fn.Properties.FunctionConfig).toMatchObject({ Runtime: 'cloudfront-js-2.0' });
    expect(distribution().defaultBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [fnId, 'FunctionARN'] } },
    ]);
    for (const behavior of distribution().behaviors)
      expect(JSON.stringify(behavior.FunctionAssociations ?? [])).not.toContain(fnId);

    // The function's own code, run as CloudFront would run it.
    const code = String(fn.Properties.FunctionCode);
    const rewrite = (uri: string) =>
      (
        runInNewContext(`${code}\nhandler({ request: { uri: ${JSON.stringify(uri)} } })`) as {
          uri: string;
        }
      ).uri;
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/status')).toBe('/index.html');
    expect(rewrite('/entities/service/api-gateway')).toBe('/index.html');
    expect(rewrite('/accept')).toBe('/index.html');
    expect(rewrite('/assets/index-abc123.js')).toBe('/assets/index-abc123.js');
    expect(rewrite('/favicon.svg')).toBe('/favicon.svg');
  });

  it('sends the same-origin CSP, nosniff and no-referrer with the console', () => {
    const [policyId, policy] = only(template, 'AWS::CloudFront::ResponseHeadersPolicy');
    expect(policy.Properties.ResponseHeadersPolicyConfig).toMatchObject({
      SecurityHeadersConfig: {
        ContentSecurityPolicy: { ContentSecurityPolicy: CONSOLE_CSP, Override: true },
        ContentTypeOptions: { Override: true },
        ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
      },
    });
    expect(distribution().defaultBehavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
  });

  it('routes the API on the same origin: streamed paths first, then every other /v1 path and the ping URLs', () => {
    expect(distribution().behaviors.map((b) => b.PathPattern)).toEqual([
      ...API_PATHS,
      '/p/*/access',
      '/p/*/sso-pass',
      '/p/*',
    ]);
    // The public status pages are cached and a password page's form has its own behaviour
    // (test/infra/public-pages.test.ts); every other API path is not cached.
    for (const behavior of distribution().behaviors.filter((b) => !b.PathPattern?.startsWith('/p/'))) {
      expect(behavior, behavior.PathPattern).toMatchObject({
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        // No caching, and every viewer header (Authorization included) and query string but Host.
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        // A plain-http ping is refused, not redirected: curl -f would pass a 301 by silently.
        ViewerProtocolPolicy: ['/ping/*', '/ical/*', '/a/*'].includes(behavior.PathPattern ?? '')
          ? 'https-only'
          : 'redirect-to-https',
      });
    }
  });

  it('sends each API path to its origin: the function URLs and the HTTP API', () => {
    const [streamUrlId] = only(template, 'AWS::Lambda::Url', 'StatusStream');
    const [mcpUrlId] = only(template, 'AWS::Lambda::Url', 'Mcp');
    const [configUrlId] = only(template, 'AWS::Lambda::Url', 'Config');
    const [pingUrlId] = only(template, 'AWS::Lambda::Url', 'Ping');
    const [apiId] = only(template, 'AWS::ApiGatewayV2::Api');
    const urlHost = (urlId: string) => ({
      'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [urlId, 'FunctionUrl'] }] }],
    });
    expect(originOf('/v1/status/stream').DomainName).toEqual(urlHost(streamUrlId));
    expect(originOf('/v1/mcp').DomainName).toEqual(urlHost(mcpUrlId));
    expect(originOf('/v1/mcp*').DomainName).toEqual(urlHost(mcpUrlId));
    // A configuration apply streams its progress and is not cut at API Gateway's 29 s.
    expect(originOf('/v1/config/*').DomainName).toEqual(urlHost(configUrlId));
    const api = originOf('/v1/*');
    expect(JSON.stringify(api.DomainName)).toContain(`{"Ref":"${apiId}"}`);
    expect(JSON.stringify(api.DomainName)).toContain('.execute-api.');
    expect(api.CustomOriginConfig?.OriginProtocolPolicy).toBe('https-only');
    expect(originOf('/healthz').Id).toBe(api.Id);
    // The OAuth authorization server and its metadata (docs/auth.md) are the API's, not the console's.
    expect(originOf('/oauth/*').Id).toBe(api.Id);
    expect(originOf('/.well-known/oauth-*').Id).toBe(api.Id);
    // GET /ping/<token> reaches the ping function's URL (no API Gateway request), not the bucket's index.html.
    expect(originOf('/ping/*').DomainName).toEqual(urlHost(pingUrlId));
    // So does GET /ical/<token>.ics, a calendar's fetch of an on-call feed.
    expect(originOf('/ical/*').Id).toBe(api.Id);
    // And a GET or POST of an acknowledgement link (/a/<token>).
    expect(originOf('/a/*').Id).toBe(api.Id);
  });

  it('keeps the function URLs open to direct callers (auth by the Bearer key) without CORS: the console is same-origin', () => {
    for (const prefix of ['StatusStream', 'Mcp', 'Config']) {
      const [, url] = only(template, 'AWS::Lambda::Url', prefix);
      expect(url.Properties).toMatchObject({ AuthType: 'NONE' });
      expect(url.Properties.Cors).toBeUndefined();
    }
  });

  it('outputs ConsoleUrl: https://<distribution domain>/', () => {
    template.hasOutput('ConsoleUrl', {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distribution().id, 'DomainName'] }, '/']] },
    });
    template.hasOutput('ApiUrl', {});
  });
});
