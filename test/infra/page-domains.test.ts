import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type VigilSettings, VigilStack } from '../../infra/vigil-stack.ts';
import {
  EDGE_SECRET_HEADER,
  VIEWER_ADDRESS_HEADER,
  VIEWER_HOST_HEADER,
} from '../../lib/lambda-http/edge-address.ts';
import { cdkApp, nagFindings, only } from './synth.ts';

/**
 * Status pages on custom domains in the cloud (issue 54 item 4): `-c vigil:pageDomains=` with
 * `-c vigil:pageDomainsCertificateArn=` adds a distribution of their own, the domains as its
 * alternate names on that certificate, every path to the HTTP API with the edge secret and the
 * viewer Host copied to the header the API reads (API Gateway refuses a forwarded Host), cached per
 * domain. The api function learns the list (VIGIL_PAGE_DOMAINS). Without the settings, nothing changes.
 */

const DOMAINS = 'status.example.com,status.other.com';
const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0b1e2f3a-4c5d-6e7f-8a9b-0c1d2e3f4a5b';
const work = mkdtempSync(join(tmpdir(), 'vigil-page-domains-cdk-'));
let consoleDir = '';
let template: Template;
let outdir = '';

const synth = (settings: VigilSettings, dir: string) => {
  const app = cdkApp(dir);
  const stack = new VigilStack(app, 'Vigil', { consoleDir, settings });
  return { app, template: Template.fromStack(stack) };
};

interface DistributionConfig {
  Aliases?: string[];
  ViewerCertificate?: Record<string, unknown>;
  DefaultCacheBehavior: {
    TargetOriginId: string;
    CachePolicyId: { Ref: string };
    OriginRequestPolicyId: { Ref: string };
    FunctionAssociations?: { EventType: string; FunctionARN: { 'Fn::GetAtt': [string, string] } }[];
    AllowedMethods: string[];
    CachedMethods: string[];
    ViewerProtocolPolicy: string;
  };
  Origins: { Id: string; DomainName: unknown; OriginCustomHeaders?: { HeaderName: string }[] }[];
  CacheBehaviors?: (DistributionConfig['DefaultCacheBehavior'] & { PathPattern: string })[];
}
const pageDistribution = () =>
  only(template, 'AWS::CloudFront::Distribution', 'PageDomains')[1].Properties
    .DistributionConfig as DistributionConfig;
const resource = (id: string) => template.toJSON().Resources[id] as { Properties: Record<string, unknown> };

beforeAll(() => {
  consoleDir = join(work, 'dist');
  mkdirSync(consoleDir, { recursive: true });
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Vigil</title>');
  outdir = join(work, 'with');
  const built = synth({ pageDomains: DOMAINS, pageDomainsCertificateArn: CERT }, outdir);
  template = built.template;
  Validations.of(built.app).addPlugins(new AwsSolutionsChecks(built.app));
  built.app.synth();
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('status page domains in the cloud', () => {
  it('adds a distribution with the domains as alternate names on the us-east-1 certificate', () => {
    const config = pageDistribution();
    expect(config.Aliases).toEqual(['status.example.com', 'status.other.com']);
    expect(config.ViewerCertificate).toMatchObject({
      AcmCertificateArn: CERT,
      SslSupportMethod: 'sni-only',
      MinimumProtocolVersion: 'TLSv1.2_2021',
    });
    // Everything is the API's (the default and an SSO page's uncached hand-off); nothing of the
    // console's bucket or streamed functions.
    expect((config.CacheBehaviors ?? []).map((b) => b.PathPattern)).toEqual(['/sso-pass']);
    expect(config.CacheBehaviors?.[0]?.TargetOriginId).toBe(config.DefaultCacheBehavior.TargetOriginId);
    expect(config.Origins).toHaveLength(1);
    expect(JSON.stringify(config.Origins[0]?.DomainName)).toContain('execute-api');
    expect(config.Origins[0]?.OriginCustomHeaders?.map((h) => h.HeaderName)).toEqual([EDGE_SECRET_HEADER]);
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      CachedMethods: ['GET', 'HEAD'],
    });
    expect(config.DefaultCacheBehavior.AllowedMethods).toContain('POST');
  });

  it('copies the viewer Host to the header the API reads, keys the cache on it, and never forwards Host', () => {
    const behavior = pageDistribution().DefaultCacheBehavior;
    const [association] = behavior.FunctionAssociations ?? [];
    expect(association?.EventType).toBe('viewer-request');
    const fn = resource(association?.FunctionARN['Fn::GetAtt'][0] ?? '');
    const request = {
      uri: '/',
      headers: { host: { value: 'status.other.com' }, [VIEWER_HOST_HEADER]: { value: 'forged.example' } },
    };
    const out = runInNewContext(`${fn.Properties.FunctionCode}; handler(event)`, {
      event: { request, viewer: { ip: '203.0.113.9' } },
    }) as { headers: Record<string, { value: string }> };
    expect(out.headers[VIEWER_HOST_HEADER]?.value).toBe('status.other.com');
    expect(out.headers[VIEWER_ADDRESS_HEADER]?.value).toBe('203.0.113.9');

    const cache = resource(behavior.CachePolicyId.Ref).Properties.CachePolicyConfig as {
      ParametersInCacheKeyAndForwardedToOrigin: {
        HeadersConfig: { HeaderBehavior: string; Headers?: string[] };
        CookiesConfig: { CookieBehavior: string };
        QueryStringsConfig: { QueryStringBehavior: string; QueryStrings?: string[] };
      };
      MaxTTL: number;
    };
    const key = cache.ParametersInCacheKeyAndForwardedToOrigin;
    expect(key.HeadersConfig).toEqual({ HeaderBehavior: 'whitelist', Headers: [VIEWER_HOST_HEADER] });
    expect(key.CookiesConfig.CookieBehavior).toBe('none');
    expect(key.QueryStringsConfig).toEqual({ QueryStringBehavior: 'whitelist', QueryStrings: ['before'] });
    expect(cache.MaxTTL).toBe(60);
    const origin = resource(behavior.OriginRequestPolicyId.Ref).Properties.OriginRequestPolicyConfig as {
      HeadersConfig: { HeaderBehavior: string; Headers: string[] };
      CookiesConfig: { CookieBehavior: string; Cookies: string[] };
    };
    expect(origin.HeadersConfig.HeaderBehavior).toBe('whitelist');
    expect(origin.HeadersConfig.Headers.map((h) => h.toLowerCase())).not.toContain('host');
    expect(origin.HeadersConfig.Headers.map((h) => h.toLowerCase())).not.toContain('authorization');
    expect(origin.CookiesConfig).toEqual({
      CookieBehavior: 'whitelist',
      Cookies: ['vigil_page', 'vigil_page_sso'],
    });
  });

  it('sends an SSO page’s hand-off (/sso-pass) to the API uncached, with its token, target path and viewer Host', () => {
    const handOff = pageDistribution().CacheBehaviors?.find((b) => b.PathPattern === '/sso-pass');
    expect(handOff?.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
    expect(handOff?.AllowedMethods).toEqual(['GET', 'HEAD']);
    expect(handOff?.FunctionAssociations).toEqual(
      pageDistribution().DefaultCacheBehavior.FunctionAssociations,
    );
    const origin = resource(handOff?.OriginRequestPolicyId.Ref ?? '').Properties
      .OriginRequestPolicyConfig as {
      HeadersConfig: { HeaderBehavior: string; Headers: string[] };
      CookiesConfig: { CookieBehavior: string };
      QueryStringsConfig: { QueryStringBehavior: string; QueryStrings: string[] };
    };
    expect(origin.HeadersConfig).toEqual({
      HeaderBehavior: 'whitelist',
      Headers: [VIEWER_ADDRESS_HEADER, VIEWER_HOST_HEADER],
    });
    expect(origin.CookiesConfig).toEqual({ CookieBehavior: 'none' });
    expect(origin.QueryStringsConfig).toEqual({
      QueryStringBehavior: 'whitelist',
      QueryStrings: ['token', 'to'],
    });
  });

  it('tells the api function the domains, and outputs the name their DNS points to', () => {
    const [, api] = only(template, 'AWS::Lambda::Function', 'ApiHandler');
    const env = (api.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(env.VIGIL_PAGE_DOMAINS).toBe(DOMAINS);
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    const [id] = only(template, 'AWS::CloudFront::Distribution', 'PageDomains');
    expect(outputs.PageDomainsTarget?.Value).toEqual({ 'Fn::GetAtt': [id, 'DomainName'] });
  });

  it('passes cdk-nag with its findings acknowledged', () => {
    expect(nagFindings(outdir)).toEqual([]);
  });

  it('changes nothing without the settings, and refuses domains without a us-east-1 certificate', () => {
    const plain = synth({}, join(work, 'without')).template;
    expect(Object.keys(plain.findResources('AWS::CloudFront::Distribution'))).toHaveLength(1);
    expect(JSON.stringify(plain.toJSON())).not.toContain('VIGIL_PAGE_DOMAINS');
    expect(plain.toJSON().Outputs.PageDomainsTarget).toBeUndefined();
    expect(() => synth({ pageDomains: DOMAINS }, join(work, 'nocert'))).toThrow(/pageDomainsCertificateArn/);
    expect(() =>
      synth(
        { pageDomains: DOMAINS, pageDomainsCertificateArn: CERT.replace('us-east-1', 'eu-west-1') },
        join(work, 'region'),
      ),
    ).toThrow(/us-east-1/);
    expect(() =>
      synth(
        { pageDomains: 'https://status.example.com', pageDomainsCertificateArn: CERT },
        join(work, 'bad'),
      ),
    ).toThrow(/VIGIL_PAGE_DOMAINS/);
  });
});
