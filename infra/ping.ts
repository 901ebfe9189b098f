import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type FunctionUrl, FunctionUrlAuthType, InvokeMode } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { VigilFunction } from './node-function.ts';
import { grantTable } from './table.ts';

export interface VigilPingProps {
  readonly table: ITable;
  /** Runtime settings every function shares (table name, due index shards). */
  readonly environment: Record<string, string>;
  /** Its reserved concurrency (infra/capacity.ts): the most pings handled at once. */
  readonly concurrency: number;
}

/**
 * The cheap ingress of the Pinging API (docs/aws.md "Ping URLs"): the ping function
 * (functions/ping.ts, `/ping/*` only, every other path 404) behind a Lambda function URL, buffered,
 * with no IAM auth (the token in the path is the credential) and no CORS (cron jobs and CLIs, not
 * web pages, ping). A ping through it costs no API Gateway request ($1.00 per million); the API's
 * own `/ping/*` routes keep answering the ping URLs users already have. In place of the stage's
 * throttle, the function's reserved concurrency bounds it (and keeps it from starving the other
 * functions), and the app's limits hold as on every path: each check's ping bucket, the failed
 * authentications per address, the ping body's cut (docs/heartbeats.md "Limits"). It reads and
 * writes the table, and nothing else: a ping sends no email and enqueues nothing.
 */
export class VigilPing extends Construct {
  readonly handler: NodejsFunction;
  readonly url: FunctionUrl;

  constructor(scope: Construct, id: string, props: VigilPingProps) {
    super(scope, id);
    this.handler = new VigilFunction(this, 'Handler', {
      entry: 'functions/ping.ts',
      environment: props.environment,
      reservedConcurrency: props.concurrency,
      tracing: true,
    }).function;
    grantTable(props.table, this.handler);
    this.url = this.handler.addFunctionUrl({
      authType: FunctionUrlAuthType.NONE,
      invokeMode: InvokeMode.BUFFERED,
    });
  }
}
