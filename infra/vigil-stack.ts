import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { VigilApi } from './api.ts';
import { VigilChangeFeed } from './change-feed.ts';
import { VigilChecks } from './checks.ts';
import { VigilStatusStream } from './status-stream.ts';
import { VigilTable } from './table.ts';

/**
 * Shards of the due index. Every function that writes a check's due-index key (api, worker) and
 * the generator that reads it must agree, so it is set once here.
 */
export const DUE_SHARDS = 4;

/**
 * The whole cloud runtime in one stack. Each concern is its own construct (table, API, checks
 * engine, change feed); this class only wires them together.
 */
export class VigilStack extends Stack {
  readonly table: VigilTable;
  readonly api: VigilApi;
  readonly checks: VigilChecks;
  readonly changeFeed: VigilChangeFeed;
  readonly statusStream: VigilStatusStream;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    this.table = new VigilTable(this, 'Store');
    const table = this.table.table;
    const environment = { VIGIL_TABLE_NAME: table.tableName, VIGIL_DUE_SHARDS: String(DUE_SHARDS) };
    this.api = new VigilApi(this, 'Api', { table, environment });
    this.checks = new VigilChecks(this, 'Checks', { table, environment });
    this.changeFeed = new VigilChangeFeed(this, 'ChangeFeed', { table, environment });
    this.statusStream = new VigilStatusStream(this, 'StatusStream', { table, environment });

    new CfnOutput(this, 'ApiUrl', { value: this.api.httpApi.apiEndpoint, description: 'Vigil API base URL' });
    new CfnOutput(this, 'StreamUrl', {
      value: this.statusStream.url.url,
      description: 'Function URL serving GET /v1/status/stream (Server-Sent Events, streamed)',
    });
    new CfnOutput(this, 'ProbeDlqUrl', {
      value: this.checks.probeDlq.queueUrl,
      description: 'Probe jobs that failed every attempt',
    });
  }
}
