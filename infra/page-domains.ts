import { Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CacheCookieBehavior,
  CachedMethods,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  OriginProtocolPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import {
  EDGE_SECRET_HEADER,
  VIEWER_ADDRESS_HEADER,
  VIEWER_HOST_HEADER,
} from '../lib/lambda-http/edge-address.ts';
import { VIEWER_ADDRESS } from './console.ts';

/** An ACM certificate's ARN in us-east-1, the only region CloudFront takes certificates from. */
const CLOUDFRONT_CERTIFICATE = /^arn:aws[a-z-]*:acm:us-east-1:[0-9]{12}:certificate\/[0-9a-f-]{36}$/;

/** The deployment settings of status pages' custom domains (docs/status-pages.md "Custom domains"). */
export interface PageDomainSettings {
  /** `-c vigil:pageDomains=status.example.com,status.other.com` (VIGIL_PAGE_DOMAINS). */
  readonly pageDomains?: string;
  /** `-c vigil:pageDomainsCertificateArn=arn:aws:acm:us-east-1:…`: a certificate covering every one of them. */
  readonly pageDomainsCertificateArn?: string;
}

/** The domains and certificate of the settings, none without domains; throws for domains without a us-east-1 certificate. */
export function pageDomainsOf(
  settings: PageDomainSettings,
): { domains: string[]; certificateArn: string } | undefined {
  const domains = (settings.pageDomains ?? '').split(',').flatMap((d) => (d.trim() === '' ? [] : [d.trim()]));
  if (domains.length === 0) return undefined;
  const arn = settings.pageDomainsCertificateArn ?? '';
  if (!CLOUDFRONT_CERTIFICATE.test(arn))
    throw new Error(
      'invalid deployment settings:\n  vigil:pageDomainsCertificateArn: vigil:pageDomains needs the ARN of an ACM certificate in us-east-1 (arn:aws:acm:us-east-1:<account>:certificate/<id>) covering every domain',
    );
  return { domains, certificateArn: arn };
}

export interface VigilPageDomainsProps {
  /** The HTTP API: every page domain request goes to it. */
  readonly httpApi: HttpApi;
  /** The console edge's secret: the API believes the viewer Host (the domain) only with it. */
  readonly edgeSecret: ISecret;
  readonly domains: string[];
  readonly certificateArn: string;
  /** The console's access-log bucket: this distribution logs there under page-domains/. */
  readonly logBucket: IBucket;
  /** A CloudFront web ACL (us-east-1), as the console's: infra/waf.ts. */
  readonly webAclArn?: string | undefined;
}

/**
 * Status pages on their custom domains: a distribution of their own, with the operator's domains
 * as alternate names and their certificate, whose every path goes to the HTTP API. A second
 * distribution rather than more names on the console's: there the default behaviour is the console
 * bucket and /v1, MCP and the configuration function sit beside it, none of which a customer's
 * domain may reach (here the edge has no way to them, besides the API's own 404 on a page domain);
 * its public pages are cached by path alone, while here one path (`/`, `/feed.rss`) is a different
 * page per domain; and a change of the domain list never touches the console's distribution.
 *
 * API Gateway routes by its own host name, so the viewer's Host cannot be forwarded (a 403): as on
 * the console's API paths, the viewer-request function (console.ts VIEWER_ADDRESS) copies it to
 * VIEWER_HOST_HEADER, which the API believes with the edge secret (lib/lambda-http/edge-address.ts)
 * and matches against the claimed domains (lib/status-pages/domains). That header is in the cache
 * key (CloudFront computes it after viewer-request functions), so each domain has its own copies;
 * with the `before` query of the history pages. GET and HEAD are cached as long as the API says
 * (30 s; at most 60 s); a password page's `vigil_page` cookie and an SSO page's `vigil_page_sso`
 * reach the API, never the cache key: a private page answers `private, no-store`, which CloudFront
 * does not store. An SSO page's hand-off (`/sso-pass`) is never cached and takes its query along.
 */
export class VigilPageDomains extends Construct {
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: VigilPageDomainsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const api = new HttpOrigin(`${props.httpApi.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      customHeaders: { [EDGE_SECRET_HEADER]: props.edgeSecret.secretValue.unsafeUnwrap() },
    });
    const viewer = new EdgeFunction(this, 'ViewerHost', {
      code: FunctionCode.fromInline(VIEWER_ADDRESS),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Vigil page domains: the viewer Host (which page) and address (per-address limits)',
    });
    const cachePolicy = new CachePolicy(this, 'Cache', {
      comment: 'Vigil page domains: as long as the API says, keyed on the domain, path and history cursor',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(30),
      maxTtl: Duration.seconds(60),
      headerBehavior: CacheHeaderBehavior.allowList(VIEWER_HOST_HEADER),
      cookieBehavior: CacheCookieBehavior.none(),
      queryStringBehavior: CacheQueryStringBehavior.allowList('before'),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const originRequestPolicy = new OriginRequestPolicy(this, 'Origin', {
      comment: 'Vigil page domains: the viewer address, Content-Type, the page access cookie',
      headerBehavior: OriginRequestHeaderBehavior.allowList(VIEWER_ADDRESS_HEADER, 'content-type'),
      cookieBehavior: OriginRequestCookieBehavior.allowList('vigil_page', 'vigil_page_sso'),
      queryStringBehavior: OriginRequestQueryStringBehavior.none(),
    });
    // An SSO page's hand-off (`/sso-pass?token=&to=`): never cached, its query and the viewer's Host
    // and address to the API (with caching off, the Host header is forwarded only when named).
    const handOff = new OriginRequestPolicy(this, 'HandOff', {
      comment: 'Vigil page domains: an SSO page hand-off, its token and target path, uncached',
      headerBehavior: OriginRequestHeaderBehavior.allowList(VIEWER_ADDRESS_HEADER, VIEWER_HOST_HEADER),
      cookieBehavior: OriginRequestCookieBehavior.none(),
      queryStringBehavior: OriginRequestQueryStringBehavior.allowList('token', 'to'),
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Vigil status pages on custom domains',
      domainNames: props.domains,
      certificate: Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
      minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: 'page-domains/',
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      defaultBehavior: {
        origin: api,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        // The subscribers' forms and the password form POST; only GET and HEAD are cached.
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachedMethods: CachedMethods.CACHE_GET_HEAD,
        cachePolicy,
        originRequestPolicy,
        functionAssociations: [{ function: viewer, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/sso-pass': {
          origin: api,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: handOff,
          functionAssociations: [{ function: viewer, eventType: FunctionEventType.VIEWER_REQUEST }],
        },
      },
    });
  }

  /** What each domain's DNS names (a CNAME, or an alias record in Route 53). */
  get target(): string {
    return this.distribution.distributionDomainName;
  }
}
