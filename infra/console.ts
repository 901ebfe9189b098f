import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  type BehaviorOptions,
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
  HeadersFrameOption,
  HeadersReferrerPolicy,
  type IOrigin,
  OriginProtocolPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IFunctionUrl } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { CONSOLE_CSP } from '../lib/http/policies.ts';
import {
  EDGE_SECRET_HEADER,
  VIEWER_ADDRESS_HEADER,
  VIEWER_HOST_HEADER,
} from '../lib/lambda-http/edge-address.ts';

/** `npm run build:web`'s output in this checkout. */
const DEFAULT_CONSOLE_DIR = resolve(import.meta.dirname, '..', 'web', 'dist');

export interface VigilConsoleProps {
  /** The HTTP API serving every /v1 route but the streamed ones. */
  readonly httpApi: HttpApi;
  /** The status-stream function URL: GET /v1/status/stream, streamed. */
  readonly statusStreamUrl: IFunctionUrl;
  /** The MCP function URL: /v1/mcp, streamed. */
  readonly mcpUrl: IFunctionUrl;
  /** The configuration function URL: /v1/config/* (plan, apply, export), streamed and not cut at 29 s. */
  readonly configUrl: IFunctionUrl;
  /** The ping function URL: /ping/* (infra/ping.ts), so a ping through the console's domain pays no API Gateway request. */
  readonly pingUrl: IFunctionUrl;
  /** The built console (index.html and assets/); default web/dist. */
  readonly consoleDir?: string;
  /**
   * Sent to every API origin as EDGE_SECRET_HEADER; the functions behind them get the same value
   * as VIGIL_EDGE_SECRET and only then believe VIEWER_ADDRESS_HEADER (lib/lambda-http/edge-address.ts).
   */
  readonly edgeSecret: ISecret;
  /** A CloudFront web ACL (us-east-1) for the distribution: infra/waf.ts. */
  readonly webAclArn?: string | undefined;
}

/**
 * Viewer requests for a client route (/status, /entities/a/b, /accept?token=…: no extension in the
 * last segment) get index.html; files keep their path. Only the console's default behavior runs
 * it, so the API's own 404s are never turned into index.html (as distribution-wide error
 * responses would).
 */
const SPA_REWRITE = `function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

/**
 * The viewer's address for the API's per-address limits (failed authentications), which would
 * otherwise see the edge's address, shared by everyone it serves. CloudFront-Viewer-Address cannot
 * be used: an origin request policy that adds a CloudFront header (allViewerAndWhitelistCloudFront)
 * also forwards the viewer's Host, which API Gateway and function URLs answer with 403, and the
 * one that drops Host (allExcept, AllViewerExceptHostHeader) adds no CloudFront header. A header
 * set here is a viewer header to the origin request policy, so it is forwarded; set (not added)
 * on every request, a value the viewer sent never gets through. The same policy drops the viewer's
 * Host, which the API's Origin policy needs (lib/http/origin-policy.ts: the console's own origin),
 * so the function passes it on under a name of its own as well.
 */
export const VIEWER_ADDRESS = `function handler(event) {
  var request = event.request;
  request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  if (request.headers.host) request.headers['${VIEWER_HOST_HEADER}'] = { value: request.headers.host.value };
  else delete request.headers['${VIEWER_HOST_HEADER}'];
  return request;
}`;

/**
 * The web console in the cloud: the built files in a private bucket that only this distribution
 * reads (origin access control), and the API on the same origin: /v1/status/stream, /v1/mcp and
 * /v1/config/* to their streaming function URLs, the ping URLs /ping/* to the ping function's URL, every other /v1 path (and /healthz, the calendar feeds /ical/* and the public status pages /p/*, cached) to the HTTP API. The browser
 * calls one origin, so no CORS; the API's own URLs keep working as before.
 */
export class VigilConsole extends Construct {
  readonly bucket: Bucket;
  /** The console bucket's server access logs and the distribution's access logs, kept 90 days. */
  readonly accessLogs: Bucket;
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: VigilConsoleProps) {
    super(scope, id);
    const dir = props.consoleDir ?? DEFAULT_CONSOLE_DIR;
    if (!existsSync(join(dir, 'index.html')))
      throw new Error(
        `The web console is not built: ${join(dir, 'index.html')} is missing. Run \`npm run build:web\` before \`cdk synth\` or \`cdk deploy\`.`,
      );

    // Retained on `cdk destroy` (it is not empty); its objects expire on their own.
    this.accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      // CloudFront's standard logs are written with an ACL.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'console-bucket/',
    });

    const rewrite = new EdgeFunction(this, 'SpaRewrite', {
      code: FunctionCode.fromInline(SPA_REWRITE),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Vigil console: client routes answer index.html',
    });
    const securityHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Vigil console: same-origin CSP, nosniff, no referrer',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: CONSOLE_CSP, override: true },
        contentTypeOptions: { override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), override: true },
      },
    });

    const viewerAddress = new EdgeFunction(this, 'ViewerAddress', {
      code: FunctionCode.fromInline(VIEWER_ADDRESS),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Vigil API: the viewer address for per-address limits, the viewer Host for the Origin policy',
    });

    // CloudFormation resolves the dynamic reference at deploy time (a secretsmanager reference is
    // allowed in any resource property), so the template carries only the secret's ARN and the
    // synth needs no AWS call. CloudFront replaces a viewer header of the same name with it.
    const customHeaders = { [EDGE_SECRET_HEADER]: props.edgeSecret.secretValue.unsafeUnwrap() };
    const stack = Stack.of(this);
    const api = new HttpOrigin(`${props.httpApi.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      customHeaders,
    });
    // A stream's heartbeat (15 s) keeps well inside the read timeout between two chunks.
    const streamed = { readTimeout: Duration.seconds(60), customHeaders };
    const statusStream = new FunctionUrlOrigin(props.statusStreamUrl, streamed);
    const mcp = new FunctionUrlOrigin(props.mcpUrl, streamed);
    // An NDJSON apply writes a line per object as it lands, well inside the read timeout; a JSON
    // answer (a plan, an export, an apply without NDJSON) must start within it, twice API Gateway's 29 s.
    const config = new FunctionUrlOrigin(props.configUrl, streamed);
    const ping = new FunctionUrlOrigin(props.pingUrl, { customHeaders });
    const apiBehavior = (origin: IOrigin) => apiPath(origin, viewerAddress);
    const publicPages = publicPagesPath(this, api, viewerAddress);

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Vigil console and API',
      defaultRootObject: 'index.html',
      enableLogging: true,
      logBucket: this.accessLogs,
      logFilePrefix: 'cloudfront/',
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        functionAssociations: [{ function: rewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      // First match wins: the streamed paths before /v1/*.
      additionalBehaviors: {
        '/v1/status/stream': apiBehavior(statusStream),
        '/v1/mcp': apiBehavior(mcp),
        '/v1/mcp*': apiBehavior(mcp),
        '/v1/config/*': apiBehavior(config),
        '/v1/*': apiBehavior(api),
        '/healthz': apiBehavior(api),
        // OAuth for MCP clients (docs/auth.md): the authorization server and its metadata.
        '/oauth/*': apiBehavior(api),
        '/.well-known/oauth-*': apiBehavior(api),
        // Ping URLs, GET ones included, are the API's, never the console's index.html. HTTPS only:
        // a redirect would turn a cron's plain-http ping into a silent 301 (curl -f passes it)
        // instead of a failed request, and would have sent the token in the clear.
        '/ping/*': { ...apiBehavior(ping), viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY },
        // On-call calendar feeds (/ical/<token>.ics): the API's, uncached here (the API answers
        // `private`), HTTPS only for the same reason: the path is the credential.
        '/ical/*': { ...apiBehavior(api), viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY },
        // Acknowledgement links (/a/<token>): the API's, uncached, HTTPS only (the path is the credential).
        '/a/*': { ...apiBehavior(api), viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY },
        // A password page's form (POST, uncached, to the API), before the cached pages.
        '/p/*/access': apiBehavior(api),
        // An SSO page's hand-off to its custom domain: its `to` query and the session cookie, uncached.
        '/p/*/sso-pass': apiBehavior(api),
        // Public status pages: the API's, cached at the edge as long as the API says (30 s).
        '/p/*': publicPages,
      },
    });

    // index.html and the other unhashed files are revalidated; hashed assets are cached for good,
    // and old ones stay (no prune) so a tab opened before a deploy still loads its chunks.
    const source = Source.asset(dir);
    new BucketDeployment(this, 'Pages', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ['assets/*'],
      cacheControl: [CacheControl.noCache()],
      memoryLimit: 512,
    });
    new BucketDeployment(this, 'Assets', {
      sources: [source],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: ['assets/*'],
      prune: false,
      cacheControl: [
        CacheControl.setPublic(),
        CacheControl.maxAge(Duration.days(365)),
        CacheControl.immutable(),
      ],
      memoryLimit: 512,
    });
  }

  /** The console's address: https://<distribution domain>/. */
  get url(): string {
    return `https://${this.distribution.distributionDomainName}/`;
  }
}

/** The longest a public status page stays at the edge, whatever the API says (it says 30 s). */
const PUBLIC_PAGE_MAX_TTL = Duration.seconds(60);

/**
 * The public status pages (/p/{slug}, its status.json and badge.svg) on the console's origin:
 * GET and HEAD cached by the API's Cache-Control (max-age=30; at most PUBLIC_PAGE_MAX_TTL),
 * keyed on the path alone (no query string, header or cookie), so every viewer shares one copy.
 * Only the viewer's address and Host (the viewer-request function's) reach the API, for its
 * per-address limit, Content-Type (a subscription is a form or JSON), the `vigil_page` cookie
 * that opens a password page and the console's `vigil_session`, which opens an SSO page: never
 * Authorization or another cookie. Neither cookie is in the cache key: a private page answers
 * `private, no-store` (the form, the sign-in link or the page), which CloudFront never stores, so
 * only public pages are shared. The subscribers' forms POST (subscribe, confirm, manage,
 * RFC 8058 one-click unsubscribe): every method passes, only GET and HEAD are cached.
 */
function publicPagesPath(scope: Construct, origin: IOrigin, viewerAddress: EdgeFunction): BehaviorOptions {
  const cachePolicy = new CachePolicy(scope, 'PublicPagesCache', {
    comment: 'Vigil public status pages: as long as the API says, keyed on the path',
    minTtl: Duration.seconds(0),
    defaultTtl: Duration.seconds(30),
    maxTtl: PUBLIC_PAGE_MAX_TTL,
    headerBehavior: CacheHeaderBehavior.none(),
    cookieBehavior: CacheCookieBehavior.none(),
    queryStringBehavior: CacheQueryStringBehavior.none(),
    enableAcceptEncodingGzip: true,
    enableAcceptEncodingBrotli: true,
  });
  const originRequestPolicy = new OriginRequestPolicy(scope, 'PublicPagesOrigin', {
    comment: 'Vigil public status pages: the viewer address, Host, Content-Type, the page access cookie',
    headerBehavior: OriginRequestHeaderBehavior.allowList(
      VIEWER_ADDRESS_HEADER,
      VIEWER_HOST_HEADER,
      'content-type',
    ),
    cookieBehavior: OriginRequestCookieBehavior.allowList('vigil_page', 'vigil_session'),
    queryStringBehavior: OriginRequestQueryStringBehavior.none(),
  });
  return {
    origin,
    viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
    allowedMethods: AllowedMethods.ALLOW_ALL,
    cachedMethods: CachedMethods.CACHE_GET_HEAD,
    cachePolicy,
    originRequestPolicy,
    functionAssociations: [{ function: viewerAddress, eventType: FunctionEventType.VIEWER_REQUEST }],
  };
}

/**
 * An API path on the console's origin: nothing cached, every method, every viewer header and
 * query string but Host (API Gateway and function URLs route on their own host name). With
 * caching disabled, the AllViewerExceptHostHeader policy forwards Authorization too, so the
 * Bearer key reaches the origin (an origin request policy may name Authorization only then).
 * The viewer-request function adds the viewer's address and Host, which that policy forwards with the rest.
 */
function apiPath(origin: IOrigin, viewerAddress: EdgeFunction): BehaviorOptions {
  return {
    origin,
    viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
    allowedMethods: AllowedMethods.ALLOW_ALL,
    cachePolicy: CachePolicy.CACHING_DISABLED,
    originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    functionAssociations: [{ function: viewerAddress, eventType: FunctionEventType.VIEWER_REQUEST }],
    // Compression would hold back a streamed body until a block fills.
    compress: false,
  };
}
