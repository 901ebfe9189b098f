import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { MCP_FUNCTION_TIMEOUT_MS } from '../lib/cloud/http-composition.ts';
import { StreamingFunction } from './streaming-function.ts';

export interface VigilMcpProps {
  readonly table: ITable;
  /** Runtime settings every function shares, with the egress settings (runbook tools run actions). */
  readonly environment: Record<string, string>;
  /** The cap on its concurrent instances (infra/capacity.ts). */
  readonly concurrency: number;
}

/**
 * /v1/mcp in the cloud: the MCP Lambda (functions/mcp.ts) behind its function URL, streamed,
 * since the legacy SSE transport holds its stream open. The catalog tools read the tenant's items
 * and create_check writes a check; the legacy relay keeps its sessions and messages in the table.
 */
export class VigilMcp extends StreamingFunction {
  constructor(scope: Construct, id: string, props: VigilMcpProps) {
    super(scope, id, {
      ...props,
      entry: 'functions/mcp.ts',
      // A legacy SSE stream ends 30 s before this (MCP_SSE_FUNCTION_MS), so the client reconnects.
      timeout: Duration.millis(MCP_FUNCTION_TIMEOUT_MS),
    });
  }
}
