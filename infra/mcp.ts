import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type FunctionUrl, FunctionUrlAuthType, HttpMethod, InvokeMode } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { MCP_FUNCTION_TIMEOUT_MS } from '../lib/cloud/composition.ts';
import { VigilFunction } from './node-function.ts';

export interface VigilMcpProps {
  readonly table: ITable;
  /** Runtime settings every function shares, with the egress settings (runbook tools run actions). */
  readonly environment: Record<string, string>;
}

/**
 * /v1/mcp in the cloud: the MCP Lambda (functions/mcp.ts) behind a function URL in RESPONSE_STREAM
 * mode, since API Gateway can only buffer a response and the legacy SSE transport holds its
 * stream open. The URL has no IAM auth: the app checks the Bearer key like every API route.
 */
export class VigilMcp extends Construct {
  readonly handler: NodejsFunction;
  readonly url: FunctionUrl;

  constructor(scope: Construct, id: string, props: VigilMcpProps) {
    super(scope, id);
    this.handler = new VigilFunction(this, 'Handler', {
      entry: 'functions/mcp.ts',
      // A legacy SSE stream ends 30 s before this (MCP_SSE_FUNCTION_MS), so the client reconnects.
      timeout: Duration.millis(MCP_FUNCTION_TIMEOUT_MS),
      environment: props.environment,
    }).function;
    // The catalog tools read the tenant's items and create_check writes a check; the legacy relay
    // keeps its sessions and pending messages in the table.
    props.table.grantReadWriteData(this.handler);
    this.url = this.handler.addFunctionUrl({
      authType: FunctionUrlAuthType.NONE,
      invokeMode: InvokeMode.RESPONSE_STREAM,
      // A Bearer key is no ambient credential, so any origin (a browser-based MCP client) may call it.
      cors: {
        allowedOrigins: ['*'],
        allowedMethods: [HttpMethod.GET, HttpMethod.POST],
        allowedHeaders: ['authorization', 'content-type', 'accept', 'mcp-protocol-version', 'last-event-id'],
      },
    });
  }
}
