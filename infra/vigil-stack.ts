import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { loadConfig } from '../lib/platform/config.ts';
import { VigilActions } from './actions.ts';
import { VigilAlarms } from './alarms.ts';
import { apiThrottle, VigilApi } from './api.ts';
import { VigilArtifacts } from './artifacts.ts';
import { type CapacitySettings, capacityPlan } from './capacity.ts';
import { VigilChangeFeed } from './change-feed.ts';
import { VigilChecks } from './checks.ts';
import { VigilCognito } from './cognito.ts';
import { VigilConfigDocs } from './config-docs.ts';
import { VigilConsole } from './console.ts';
import { VigilMcp } from './mcp.ts';
import { acknowledgeNagFindings } from './nag.ts';
import { VigilNotifications } from './notifications.ts';
import { type PageDomainSettings, pageDomainsOf, VigilPageDomains } from './page-domains.ts';
import { VigilPing } from './ping.ts';
import { VigilReports } from './reports.ts';
import { VigilStatusStream } from './status-stream.ts';
import { VigilTable } from './table.ts';
import { VigilWaf, wafRateLimitSchema } from './waf.ts';

/** Deployment settings of the notification channels, actions and the HTTP API (docs/aws.md "Deploy options"); each optional. */
export interface VigilSettings extends PageDomainSettings {
  /** VIGIL_NATS_URL: the NATS servers of the nats channel, comma-separated `nats://` URLs. */
  readonly natsUrl?: string;
  /** VIGIL_NATS_PREFIX: the root of every published subject, before the tenant id (default vigil). */
  readonly natsPrefix?: string;
  /** VIGIL_PUBLIC_URL: where users reach Vigil, for console links in alerts and actions' callback URLs. */
  readonly publicUrl?: string;
  /** VIGIL_ALLOWED_HOSTS: more names MCP clients may reach Vigil by (a custom domain), comma-separated. */
  readonly allowedHosts?: string;
  /** VIGIL_EGRESS_ALLOW: private CIDRs channels and actions may reach, comma-separated. */
  readonly egressAllow?: string;
  /** VIGIL_EMAIL_FROM: the sender of email alerts, an SES-verified address or one of a verified domain. */
  readonly emailFrom?: string;
  /** The HTTP API's steady requests per second over all routes (API Gateway throttling; default 500). */
  readonly apiRateLimit?: string | number;
  /** The HTTP API's burst of requests over all routes (default 1000). */
  readonly apiBurstLimit?: string | number;
  /** Subscribed by email to the alarms' SNS topic (infra/alarms.ts). */
  readonly alarmEmail?: string;
  /** `true`: a WAF web ACL in front of CloudFront (infra/waf.ts). */
  readonly waf?: string | boolean;
  /** Requests per address and 5 minutes past which WAF blocks (default 2,000). */
  readonly wafRateLimit?: string | number;
  /** An existing CloudFront web ACL (us-east-1) to attach instead of creating one. */
  readonly wafAclArn?: string;
  /** `true`: a Cognito user pool and app client as the teams' SSO provider (infra/cognito.ts). */
  readonly cognito?: string | boolean;
}

export interface VigilStackProps extends StackProps {
  readonly settings?: VigilSettings;
  /** What the deployment expects to run: sizes the worker, the due shards and reservations (infra/capacity.ts). */
  readonly capacity?: CapacitySettings;
  /** The built web console deployed to the console bucket; default web/dist (`npm run build:web`). */
  readonly consoleDir?: string;
}

/**
 * The environment variables of the settings that are set (the functions' config reads them),
 * validated as the functions will read them, so a bad value fails the synth instead of every cold start.
 */
export function settingsEnvironment(settings: VigilSettings = {}): Record<string, string> {
  const env: Record<string, string> = {};
  if (settings.natsUrl) env.VIGIL_NATS_URL = settings.natsUrl;
  if (settings.natsPrefix) env.VIGIL_NATS_PREFIX = settings.natsPrefix;
  if (settings.publicUrl) env.VIGIL_PUBLIC_URL = settings.publicUrl;
  if (settings.allowedHosts) env.VIGIL_ALLOWED_HOSTS = settings.allowedHosts;
  if (settings.egressAllow) env.VIGIL_EGRESS_ALLOW = settings.egressAllow;
  if (settings.emailFrom) env.VIGIL_EMAIL_FROM = settings.emailFrom;
  if (settings.pageDomains) env.VIGIL_PAGE_DOMAINS = settings.pageDomains;
  loadConfig('cloud', env);
  return env;
}

/**
 * The whole cloud runtime in one stack. Each concern is its own construct (table, API, checks
 * engine, change feed, notifications, actions, MCP, configuration); this class only wires them together.
 */
export class VigilStack extends Stack {
  readonly table: VigilTable;
  readonly api: VigilApi;
  /** The Pinging API's own ingress: a function URL (infra/ping.ts). */
  readonly ping: VigilPing;
  readonly checks: VigilChecks;
  readonly changeFeed: VigilChangeFeed;
  readonly statusStream: VigilStatusStream;
  readonly notifications: VigilNotifications;
  readonly actions: VigilActions;
  readonly reports: VigilReports;
  readonly mcp: VigilMcp;
  readonly configDocs: VigilConfigDocs;
  readonly console: VigilConsole;
  /** Browser checks' screenshots (infra/artifacts.ts). */
  readonly artifacts: VigilArtifacts;
  readonly alarms: VigilAlarms;
  /** The console edge's proof to the API (VIGIL_EDGE_SECRET). */
  readonly edgeSecret: Secret;

  constructor(scope: Construct, id: string, props?: VigilStackProps) {
    super(scope, id, props);
    this.table = new VigilTable(this, 'Store');
    const table = this.table.table;
    // Every function that writes a check's due-index key (api, worker) and the generator that reads
    // it must agree on the shard count, so it is set once here.
    const plan = capacityPlan(props?.capacity);
    const { reserved } = plan;
    const environment = { VIGIL_TABLE_NAME: table.tableName, VIGIL_DUE_SHARDS: String(plan.dueShards) };
    // The api function validates channel URLs, sends test messages and runs actions by hand; the
    // notifier sends alerts; the action worker runs triggered and scheduled actions.
    const channelSettings = settingsEnvironment(props?.settings);
    // What the console's CloudFront edge sends to the functions behind /v1 so that they believe its
    // viewer address (lib/lambda-http/edge-address.ts). Generated by Secrets Manager at deploy time; the
    // functions' environment and the origin header get it through a dynamic reference, resolved by
    // CloudFormation, so neither the template nor the synth ever holds the value.
    this.edgeSecret = new Secret(this, 'EdgeSecret', {
      description: 'Vigil: the header the console CloudFront edge proves itself with to the API',
      generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
    });
    const edge = { VIGIL_EDGE_SECRET: this.edgeSecret.secretValue.unsafeUnwrap() };
    // Pings through their own function URL: no API Gateway request each (docs/aws.md "Ping URLs").
    // Behind the console's CloudFront too (/ping/*): it believes the edge's viewer address as the api does.
    this.ping = new VigilPing(this, 'Ping', {
      table,
      environment: { ...environment, ...edge },
      concurrency: reserved.ping,
    });
    // The ping URLs the API shows (a new token's ping_url, the slug URL pattern) are on it.
    const pingUrl = { VIGIL_PING_URL: this.ping.url.url };
    this.api = new VigilApi(this, 'Api', {
      table,
      environment: { ...environment, ...channelSettings, ...edge, ...pingUrl },
      throttle: apiThrottle(props?.settings ?? {}),
    });
    this.checks = new VigilChecks(this, 'Checks', {
      table,
      environment,
      workerConcurrency: reserved.worker,
      browserConcurrency: reserved.browser,
      draftBrowserConcurrency: reserved.draftBrowser,
      shardGroups: plan.shardGroups,
    });
    this.changeFeed = new VigilChangeFeed(this, 'ChangeFeed', {
      table,
      environment,
      concurrency: reserved.stream,
    });
    this.statusStream = new VigilStatusStream(this, 'StatusStream', {
      table,
      environment: { ...environment, ...edge },
      concurrency: reserved.statusStream,
    });
    this.notifications = new VigilNotifications(this, 'Notify', {
      table,
      environment: { ...environment, ...channelSettings },
      concurrency: reserved.notifier,
    });
    // The stream function enqueues an event job per transition and publishes it to the bus; the
    // api function enqueues the deliveries a retry asks for.
    this.notifications.enqueueFrom(this.changeFeed.handler);
    this.notifications.publishFrom(this.changeFeed.handler);
    this.notifications.enqueueFrom(this.api.handler);
    // Email alerts leave through SES: the notifier's alerts and the api function's test sends.
    const emailFrom = props?.settings?.emailFrom;
    if (emailFrom) {
      this.notifications.sendEmailFrom(this.notifications.notifier, emailFrom);
      this.notifications.sendEmailFrom(this.api.handler, emailFrom);
    }
    // The report e-mails (lib/reports) leave through SES too.
    this.reports = new VigilReports(this, 'Reports', {
      table,
      environment: { ...environment, ...channelSettings },
    });
    if (emailFrom) this.notifications.sendEmailFrom(this.reports.sender, emailFrom);
    // SMS channels with provider sns: the notifier's alerts and the api function's test sends.
    this.notifications.sendSmsFrom(this.notifications.notifier);
    this.notifications.sendSmsFrom(this.api.handler);
    this.actions = new VigilActions(this, 'Actions', {
      table,
      environment: { ...environment, ...channelSettings },
      concurrency: reserved.actions,
    });
    // The stream function enqueues a state_change job per transition, the generator the runs of
    // due schedule actions, the api function the deadline of a pipeline it dispatched by hand.
    this.actions.enqueueFrom(this.changeFeed.handler);
    this.actions.enqueueFrom(this.checks.generator);
    this.actions.enqueueFrom(this.api.handler);
    // MCP clients connect to the function URL; runbook tools run actions (and schedule the
    // deadline of a pipeline they dispatch), create_check probes its target once.
    this.mcp = new VigilMcp(this, 'Mcp', {
      table,
      environment: { ...environment, ...channelSettings, ...edge },
      concurrency: reserved.mcp,
    });
    this.actions.enqueueFrom(this.mcp.handler);
    // acknowledge_incident tells the providers that track incidents through a notify job.
    this.notifications.enqueueFrom(this.mcp.handler);
    // A check created or re-targeted through the api or MCP is probed at once (its one-off job).
    this.checks.enqueueFrom(this.api.handler);
    // The console's Run now of a browser check's draft runs in the draft browser function.
    this.checks.browser.draftsFrom(this.api.handler);
    this.checks.enqueueFrom(this.mcp.handler);
    // /v1/config/* through the console's origin: an apply of thousands of objects outlasts API
    // Gateway's 29 s. Its objects are written through the tenant's own routes, which use the table
    // and check channel URLs against the egress settings. The checks it creates or re-targets get
    // their first probe at once, so it may send to the probe queue; it publishes no event and
    // sends no email or SMS, so it gets no other queue, bus, SES or SNS right (the api function's
    // rights beyond the table serve retries, manual runs and test sends, which an apply never makes).
    this.configDocs = new VigilConfigDocs(this, 'Config', {
      table,
      environment: { ...environment, ...channelSettings, ...edge },
      concurrency: reserved.config,
    });
    this.checks.enqueueFrom(this.configDocs.handler);
    const aclArn = webAclArn(this, props?.settings ?? {});
    // The web console, with the API on its own origin: the browser never makes a cross-origin call.
    this.console = new VigilConsole(this, 'Console', {
      httpApi: this.api.httpApi,
      statusStreamUrl: this.statusStream.url,
      mcpUrl: this.mcp.url,
      configUrl: this.configDocs.url,
      pingUrl: this.ping.url,
      edgeSecret: this.edgeSecret,
      ...(props?.consoleDir ? { consoleDir: props.consoleDir } : {}),
      webAclArn: aclArn,
    });
    // Browser checks' screenshots: the browser function writes them, the api function serves them,
    // the stream function deletes a deleted check's with its partition purge.
    this.artifacts = new VigilArtifacts(this, 'Artifacts', { accessLogs: this.console.accessLogs });
    this.artifacts.writeFrom(this.checks.browser.handler);
    this.artifacts.readFrom(this.api.handler);
    this.artifacts.purgeFrom(this.changeFeed.handler);
    // Status pages on their custom domains (-c vigil:pageDomains=, with their certificate): a distribution of their own.
    const pageDomains = pageDomainsOf(props?.settings ?? {});
    if (pageDomains) {
      const pages = new VigilPageDomains(this, 'PageDomains', {
        ...pageDomains,
        httpApi: this.api.httpApi,
        edgeSecret: this.edgeSecret,
        logBucket: this.console.accessLogs,
        webAclArn: aclArn,
      });
      new CfnOutput(this, 'PageDomainsTarget', {
        value: pages.target,
        description: 'Point each status page domain here (a CNAME, or a Route 53 alias)',
      });
    }
    this.alarms = new VigilAlarms(this, 'Alarms', {
      table,
      functions: {
        Api: this.api.handler,
        Generator: this.checks.generator,
        Worker: this.checks.worker,
        Browser: this.checks.browser.handler,
        DraftBrowser: this.checks.browser.draft,
        Stream: this.changeFeed.handler,
        StatusStream: this.statusStream.handler,
        Notifier: this.notifications.notifier,
        Actions: this.actions.worker,
        Mcp: this.mcp.handler,
        Config: this.configDocs.handler,
      },
      deadLetterQueues: {
        Probe: this.checks.probeDlq,
        Browser: this.checks.browser.dlq,
        Notify: this.notifications.dlq,
        Action: this.actions.dlq,
        Stream: this.changeFeed.dlq,
      },
      probeQueue: this.checks.probeQueue,
      generator: this.checks.generator,
      generatorInvocationsPerMinute: plan.shardGroups.length,
      streamFunction: this.changeFeed.handler,
      alarmEmail: props?.settings?.alarmEmail,
    });

    const cognito = props?.settings?.cognito;
    if (cognito === true || cognito === 'true')
      new VigilCognito(this, 'Cognito', {
        consoleUrl: this.console.url,
        publicUrl: props?.settings?.publicUrl,
      });

    acknowledgeNagFindings(this);

    new CfnOutput(this, 'TableName', {
      value: table.tableName,
      description: 'The DynamoDB table: VIGIL_TABLE_NAME of the operator CLI (`npm run vigil`)',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.alarms.topic.topicArn,
      description:
        'SNS topic of every alarm and its recovery: subscribe to it (or deploy with -c vigil:alarmEmail=)',
    });
    new CfnOutput(this, 'ApiUrl', { value: this.api.httpApi.apiEndpoint, description: 'Vigil API base URL' });
    new CfnOutput(this, 'PingUrl', {
      value: this.ping.url.url,
      description:
        'Function URL of the Pinging API (/ping/*): the ping URLs the API shows are on it; ApiUrl/ping/* answers them too',
    });
    new CfnOutput(this, 'StreamUrl', {
      value: this.statusStream.url.url,
      description: 'Function URL serving GET /v1/status/stream (Server-Sent Events, streamed)',
    });
    new CfnOutput(this, 'McpUrl', {
      value: `${this.mcp.url.url}v1/mcp`,
      description:
        'The MCP endpoint for clients (a function URL: Streamable HTTP on POST, the legacy SSE stream on GET)',
    });
    new CfnOutput(this, 'ConfigUrl', {
      value: this.configDocs.url.url,
      description:
        'Function URL serving /v1/config/* (plan, apply with streamed NDJSON progress, export), up to 15 minutes; ConsoleUrl reaches it too',
    });
    new CfnOutput(this, 'ConsoleUrl', {
      value: this.console.url,
      description: 'The web console; its /v1 paths reach the API on the same origin (same Bearer key)',
    });
    new CfnOutput(this, 'ProbeDlqUrl', {
      value: this.checks.probeDlq.queueUrl,
      description: 'Probe jobs that failed every attempt',
    });
    new CfnOutput(this, 'NotifyDlqUrl', {
      value: this.notifications.dlq.queueUrl,
      description: 'Notification jobs whose handler failed every attempt',
    });
    new CfnOutput(this, 'ActionDlqUrl', {
      value: this.actions.dlq.queueUrl,
      description: 'Action jobs whose handler failed every attempt',
    });
    new CfnOutput(this, 'EventBusName', {
      value: this.notifications.eventBus.eventBusName,
      description: 'EventBridge bus receiving every state-change event (detail-type "Vigil State Change")',
    });
  }
}

/** The web ACL for the distribution: one given (`vigil:wafAclArn`), one made here (`vigil:waf=true`), or none. */
function webAclArn(scope: Construct, settings: VigilSettings): string | undefined {
  if (settings.wafAclArn) return settings.wafAclArn;
  if (settings.waf !== true && settings.waf !== 'true') return undefined;
  const rateLimit = wafRateLimitSchema.safeParse(settings.wafRateLimit);
  if (!rateLimit.success)
    throw new Error(
      'invalid deployment settings:\n  vigil:wafRateLimit: a whole number of requests per 5 minutes, at least 10',
    );
  return new VigilWaf(scope, 'Waf', { rateLimit: rateLimit.data }).webAclArn;
}
