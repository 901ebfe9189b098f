import type { CheckTypeForm } from './form';

const STEPS_EXAMPLE = `[
  {"name": "login", "method": "POST", "url": "https://api.example.com/login",
   "headers": {"content-type": "application/json"},
   "body": "{\\"user\\": \\"ada\\", \\"password\\": \\"{{variables.password}}\\"}",
   "extract": {"token": {"source": "json_body", "path": "$.token"}}},
  {"name": "me", "url": "https://api.example.com/me",
   "headers": {"authorization": "Bearer {{steps.login.token}}"}}
]`;

/** "api.example.com": the first step's host. */
const firstHost = (url: string | undefined) => /^https?:\/\/([^/?#]+)/i.exec(url ?? '')?.[1] ?? '';

export const multistepForm: CheckTypeForm<'multistep'> = {
  label: 'Multistep API',
  kind: 'configured',
  nameExample: 'Multistep api.example.com (2 steps)',
  fields: [
    {
      key: 'variables',
      label: 'Variables (JSON)',
      kind: 'json',
      placeholder: '{"password": {"value": "…", "secret": true}}',
      hint: 'Values the steps use as {{variables.<name>}}. A secret one is written only: it reads ******** and an edit that leaves ******** keeps it.',
    },
    {
      key: 'steps',
      label: 'Steps (JSON)',
      kind: 'json',
      required: true,
      placeholder: STEPS_EXAMPLE,
      hint: 'Up to 10 requests in order: name, method, url, headers, body, expected_status, assertions, extract, timeout_ms, degraded_latency_ms (docs/scripted-checks.md).',
    },
  ],
  tls: true,
  target: (check) =>
    `multistep ${firstHost(check.config.steps[0]?.url)} (${check.config.steps.length} steps)`,
  rows: (check) => [
    ['Steps', check.config.steps.map((s) => `${s.method ?? 'GET'} ${s.name}`).join(' → ')],
    ...(check.config.variables && Object.keys(check.config.variables).length > 0
      ? [['Variables', Object.keys(check.config.variables).join(', ')] as [string, string]]
      : []),
  ],
};
