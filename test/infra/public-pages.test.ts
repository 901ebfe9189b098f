import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EDGE_SECRET_HEADER,
  VIEWER_ADDRESS_HEADER,
  VIEWER_HOST_HEADER,
} from '../../lib/lambda-http/edge-address.ts';
import { only, synthWithStandInConsole } from './synth.ts';

// The public status pages in the cloud: /p/* goes through the console's CloudFront distribution to
// the HTTP API, cached at the edge for as long as the API's Cache-Control says, shared by every
// viewer (the cache key is the path), and never forwarding a key or a cookie.

const work = mkdtempSync(join(tmpdir(), 'vigil-pages-cdk-'));
let template: Template;

interface Behavior {
  PathPattern: string;
  TargetOriginId: string;
  AllowedMethods: string[];
  CachedMethods?: string[];
  CachePolicyId: unknown;
  OriginRequestPolicyId: unknown;
  ViewerProtocolPolicy: string;
  FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
}

function behaviors(): Behavior[] {
  const [, resource] = only(template, 'AWS::CloudFront::Distribution');
  return (resource.Properties.DistributionConfig as { CacheBehaviors: Behavior[] }).CacheBehaviors;
}
const behaviorOf = (pattern: string) => {
  const found = behaviors().find((b) => b.PathPattern === pattern);
  if (!found) throw new Error(`no behavior for ${pattern}`);
  return found;
};

beforeAll(() => {
  template = synthWithStandInConsole(work);
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('public status pages at the edge', () => {
  it('sends /p/* to the HTTP API origin (with the edge secret) over HTTPS, caching GET and HEAD only', () => {
    const pages = behaviorOf('/p/*');
    expect(pages.TargetOriginId).toBe(behaviorOf('/v1/*').TargetOriginId);
    // The subscribers' forms POST (subscribe, confirm, manage, one-click unsubscribe); nothing else is cached.
    expect(pages.AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']);
    expect(pages.CachedMethods).toEqual(['GET', 'HEAD']);
    expect(pages.ViewerProtocolPolicy).toBe('redirect-to-https');
    const [, resource] = only(template, 'AWS::CloudFront::Distribution');
    const origins = (
      resource.Properties.DistributionConfig as {
        Origins: { Id: string; OriginCustomHeaders?: { HeaderName: string }[] }[];
      }
    ).Origins;
    const origin = origins.find((o) => o.Id === pages.TargetOriginId);
    expect(origin?.OriginCustomHeaders?.map((h) => h.HeaderName)).toEqual([EDGE_SECRET_HEADER]);
  });

  it('proves itself on /p/* with the generated edge secret, which the api function holds (the only way in)', () => {
    // The api function refuses /p/* without this header (test/status-pages/edge-only.test.ts), so
    // the distribution, with its cache, is the only way to a public page.
    const [secretId] = only(template, 'AWS::SecretsManager::Secret', 'EdgeSecret');
    const reference = {
      'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']],
    };
    const [, resource] = only(template, 'AWS::CloudFront::Distribution');
    const origins = (
      resource.Properties.DistributionConfig as {
        Origins: { Id: string; OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[] }[];
      }
    ).Origins;
    const origin = origins.find((o) => o.Id === behaviorOf('/p/*').TargetOriginId);
    expect(origin?.OriginCustomHeaders).toEqual([{ HeaderName: EDGE_SECRET_HEADER, HeaderValue: reference }]);
    const [, api] = only(template, 'AWS::Lambda::Function', 'ApiHandler');
    expect((api.Properties.Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
      VIGIL_EDGE_SECRET: reference,
    });
  });

  it('caches as long as the API says (30 s), at most 60 s, keyed on the path alone', () => {
    const [policyId, policy] = only(template, 'AWS::CloudFront::CachePolicy', 'ConsolePublicPagesCache');
    expect(behaviorOf('/p/*').CachePolicyId).toEqual({ Ref: policyId });
    expect(policy.Properties.CachePolicyConfig).toMatchObject({
      MinTTL: 0,
      DefaultTTL: 30,
      MaxTTL: 60,
      ParametersInCacheKeyAndForwardedToOrigin: {
        HeadersConfig: { HeaderBehavior: 'none' },
        CookiesConfig: { CookieBehavior: 'none' },
        QueryStringsConfig: { QueryStringBehavior: 'none' },
        EnableAcceptEncodingGzip: true,
        EnableAcceptEncodingBrotli: true,
      },
    });
  });

  it('forwards only the viewer address and Host (for the per-address limit), Content-Type and the page access cookie, no Authorization', () => {
    const [policyId, policy] = only(
      template,
      'AWS::CloudFront::OriginRequestPolicy',
      'ConsolePublicPagesOrigin',
    );
    expect(behaviorOf('/p/*').OriginRequestPolicyId).toEqual({ Ref: policyId });
    const config = policy.Properties.OriginRequestPolicyConfig as Record<string, unknown>;
    expect(config.HeadersConfig).toEqual({
      HeaderBehavior: 'whitelist',
      Headers: [VIEWER_ADDRESS_HEADER, VIEWER_HOST_HEADER, 'content-type'],
    });
    // The password pages' cookie only (lib/status-pages/access), outside the cache key: their answers are private, no-store.
    expect(config.CookiesConfig).toEqual({
      CookieBehavior: 'whitelist',
      Cookies: ['vigil_page', 'vigil_session'],
    });
    expect(config.QueryStringsConfig).toEqual({ QueryStringBehavior: 'none' });
    // The viewer-request function that writes the viewer's address runs on /p/* too.
    const [fnId] = only(template, 'AWS::CloudFront::Function', 'ConsoleViewerAddress');
    expect(behaviorOf('/p/*').FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [fnId, 'FunctionARN'] } },
    ]);
  });

  it('sends a password page’s form (POST /p/*/access) to the API uncached, before the cached /p/*', () => {
    const access = behaviorOf('/p/*/access');
    expect(access.TargetOriginId).toBe(behaviorOf('/p/*').TargetOriginId);
    expect(access.AllowedMethods).toContain('POST');
    expect(access.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
  });

  it('sends an SSO page’s hand-off (GET /p/*/sso-pass) to the API uncached, with its query and cookies, before the cached /p/*', () => {
    const handOff = behaviorOf('/p/*/sso-pass');
    expect(handOff.TargetOriginId).toBe(behaviorOf('/p/*').TargetOriginId);
    expect(handOff.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
    // As the other API paths (AllViewerExceptHostHeader): the `to` query and the session cookie reach the API.
    expect(handOff.OriginRequestPolicyId).toEqual(behaviorOf('/p/*/access').OriginRequestPolicyId);
    const order = behaviors().map((b) => b.PathPattern);
    expect(order.indexOf('/p/*/sso-pass')).toBeLessThan(order.indexOf('/p/*'));
  });
});
