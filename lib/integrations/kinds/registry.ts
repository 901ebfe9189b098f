import { alertmanagerKind } from './alertmanager.ts';
import { cloudwatchKind } from './cloudwatch.ts';
import type { IntegrationKindDefinition } from './definition.ts';
import { genericKind } from './generic.ts';
import { grafanaKind } from './grafana.ts';
import { pagerdutyKind } from './pagerduty.ts';

/** Every integration kind, by its name (DECISIONS.md "Outside alerts (wave 6)", the API document's order). */
export const INTEGRATION_KINDS = {
  alertmanager: alertmanagerKind,
  pagerduty: pagerdutyKind,
  grafana: grafanaKind,
  cloudwatch: cloudwatchKind,
  generic: genericKind,
} satisfies Record<string, IntegrationKindDefinition>;

export type IntegrationKind = keyof typeof INTEGRATION_KINDS;
