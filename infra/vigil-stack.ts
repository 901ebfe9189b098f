import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { loadConfig } from '../lib/platform/config.ts';
import { VigilActions } from './actions.ts';
import { VigilApi } from './api.ts';
import { VigilChangeFeed } from './change-feed.ts';
import { VigilChecks } from './checks.ts';
import { VigilConsole } from './console.ts';
import { VigilMcp } from './mcp.ts';
import { VigilNotifications } from './notifications.ts';
import { VigilStatusStream } from './status-stream.ts';
import { VigilTable } from './table.ts';

/**
 * Shards of the due index. Every function that writes a check's due-index key (api, worker) and
 * the generator that reads it must agree, so it is set once here.
 */
export const DUE_SHARDS = 4;

/** Deployment settings of the notification channels and actions (README.md "Deploying to AWS"); each optional. */
export interface VigilSettings {
  /** VIGIL_NATS_URL: the NATS servers of the nats channel, comma-separated `nats://` URLs. */
  readonly natsUrl?: string;
  /** VIGIL_PUBLIC_URL: where users reach Vigil, for console links in alerts and actions' callback URLs. */
  readonly publicUrl?: string;
  /** VIGIL_EGRESS_ALLOW: private CIDRs channels and actions may reach, comma-separated. */
  readonly egressAllow?: string;
}

export interface VigilStackProps extends StackProps {
  readonly settings?: VigilSettings;
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
  if (settings.publicUrl) env.VIGIL_PUBLIC_URL = settings.publicUrl;
  if (settings.egressAllow) env.VIGIL_EGRESS_ALLOW = settings.egressAllow;
  loadConfig('cloud', env);
  return env;
}

/**
 * The whole cloud runtime in one stack. Each concern is its own construct (table, API, checks
 * engine, change feed, notifications, actions, MCP); this class only wires them together.
 */
export class VigilStack extends Stack {
  readonly table: VigilTable;
  readonly api: VigilApi;
  readonly checks: VigilChecks;
  readonly changeFeed: VigilChangeFeed;
  readonly statusStream: VigilStatusStream;
  readonly notifications: VigilNotifications;
  readonly actions: VigilActions;
  readonly mcp: VigilMcp;
  readonly console: VigilConsole;

  constructor(scope: Construct, id: string, props?: VigilStackProps) {
    super(scope, id, props);
    this.table = new VigilTable(this, 'Store');
    const table = this.table.table;
    const environment = { VIGIL_TABLE_NAME: table.tableName, VIGIL_DUE_SHARDS: String(DUE_SHARDS) };
    // The api function validates channel URLs, sends test messages and runs actions by hand; the
    // notifier sends alerts; the action worker runs triggered and scheduled actions.
    const channelSettings = settingsEnvironment(props?.settings);
    this.api = new VigilApi(this, 'Api', { table, environment: { ...environment, ...channelSettings } });
    this.checks = new VigilChecks(this, 'Checks', { table, environment });
    this.changeFeed = new VigilChangeFeed(this, 'ChangeFeed', { table, environment });
    this.statusStream = new VigilStatusStream(this, 'StatusStream', { table, environment });
    this.notifications = new VigilNotifications(this, 'Notify', {
      table,
      environment: { ...environment, ...channelSettings },
    });
    // The stream function enqueues an event job per transition and publishes it to the bus; the
    // api function enqueues the deliveries a retry asks for.
    this.notifications.enqueueFrom(this.changeFeed.handler);
    this.notifications.publishFrom(this.changeFeed.handler);
    this.notifications.enqueueFrom(this.api.handler);
    this.actions = new VigilActions(this, 'Actions', {
      table,
      environment: { ...environment, ...channelSettings },
    });
    // The stream function enqueues a state_change job per transition, the generator the runs of
    // due schedule actions, the api function the deadline of a pipeline it dispatched by hand.
    this.actions.enqueueFrom(this.changeFeed.handler);
    this.actions.enqueueFrom(this.checks.generator);
    this.actions.enqueueFrom(this.api.handler);
    // MCP clients connect to the function URL; runbook tools run actions (and schedule the
    // deadline of a pipeline they dispatch), create_check probes its target once.
    this.mcp = new VigilMcp(this, 'Mcp', { table, environment: { ...environment, ...channelSettings } });
    this.actions.enqueueFrom(this.mcp.handler);
    // The web console, with the API on its own origin: the browser never makes a cross-origin call.
    this.console = new VigilConsole(this, 'Console', {
      httpApi: this.api.httpApi,
      statusStreamUrl: this.statusStream.url,
      mcpUrl: this.mcp.url,
      ...(props?.consoleDir ? { consoleDir: props.consoleDir } : {}),
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.httpApi.apiEndpoint, description: 'Vigil API base URL' });
    new CfnOutput(this, 'StreamUrl', {
      value: this.statusStream.url.url,
      description: 'Function URL serving GET /v1/status/stream (Server-Sent Events, streamed)',
    });
    new CfnOutput(this, 'McpUrl', {
      value: `${this.mcp.url.url}v1/mcp`,
      description:
        'The MCP endpoint for clients (a function URL: Streamable HTTP on POST, the legacy SSE stream on GET)',
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
