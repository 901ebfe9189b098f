import type { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type FunctionUrl, FunctionUrlAuthType, InvokeMode } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { VigilFunction } from './node-function.ts';
import { grantTable } from './table.ts';

export interface StreamingFunctionProps {
  readonly table: ITable;
  readonly environment: Record<string, string>;
  /** The function's module (functions/<name>.ts), built with lib/cloud/edge/function-url-stream.ts. */
  readonly entry: string;
  /**
   * Longer than the longest stream, which ends on its own first so the client reconnects (status
   * stream, MCP), or than the longest request it serves (a configuration apply).
   */
  readonly timeout: Duration;
  /** The most streams open at once (reserved concurrency): past it a request is refused, the others keep theirs. */
  readonly concurrency: number;
}

/**
 * A Lambda behind a function URL in RESPONSE_STREAM mode, since API Gateway can only buffer a
 * response. The URL has no IAM auth: the app checks the Bearer key like every API route. It has
 * no CORS either: the console reaches it through its own CloudFront origin (same-origin), and no
 * other web page is meant to call it (MCP refuses a foreign Origin: lib/http/origin-policy.ts).
 * It reads and writes the table (what every authenticated request writes, and what its routes store).
 */
export class StreamingFunction extends Construct {
  readonly handler: NodejsFunction;
  readonly url: FunctionUrl;

  constructor(scope: Construct, id: string, props: StreamingFunctionProps) {
    super(scope, id);
    this.handler = new VigilFunction(this, 'Handler', {
      entry: props.entry,
      timeout: props.timeout,
      reservedConcurrency: props.concurrency,
      environment: props.environment,
      // The streaming edges (mcp, status-stream, config) carry the HTTP functions' Tracer.
      tracing: true,
    }).function;
    grantTable(props.table, this.handler);
    this.url = this.handler.addFunctionUrl({
      authType: FunctionUrlAuthType.NONE,
      invokeMode: InvokeMode.RESPONSE_STREAM,
    });
  }
}
