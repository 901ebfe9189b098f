/** The actions' fixed vocabularies and SPEC.md's limits of actions and executions (pure). */

export const ACTION_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const TRIGGER_TYPES = ['manual', 'state_change', 'schedule'] as const;
export const TRIGGER_STATES = ['down', 'degraded', 'up'] as const;

/** SPEC.md "Limits". */
export const ACTION_LIMITS = {
  actionsPerTenant: 50,
  headers: 20,
  bodyTemplateBytes: 16 * 1024,
  minIntervalSeconds: 60,
  timeoutMs: { min: 100, max: 15_000, default: 10_000 },
  responseSnippetBytes: 4 * 1024,
  logLinesPerRequest: 100,
  logLinesPerExecution: 1000,
  logLineBytes: 2 * 1024,
  executionsPage: { default: 50, max: 200 },
  pipelineTimeoutSeconds: { default: 3600 },
  callbackTokenSeconds: 24 * 3600,
} as const;
