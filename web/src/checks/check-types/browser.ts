import type { CheckTypeForm } from './form';

const STEPS_EXAMPLE = `[
  {"action": "goto", "url": "https://app.example.com/login"},
  {"action": "fill", "selector": "#email", "value": "monitor@example.com"},
  {"action": "fill", "selector": "#password", "value": "{{variables.password}}"},
  {"action": "click", "selector": "button[type=submit]"},
  {"action": "wait_for", "url": "/dashboard"},
  {"action": "assert", "subject": "text", "text": "Welcome"}
]`;

/** "app.example.com": the first goto's host. */
const firstHost = (url: string | undefined) => /^https?:\/\/([^/?#]+)/i.exec(url ?? '')?.[1] ?? '';

export const browserForm: CheckTypeForm<'browser'> = {
  label: 'Browser',
  kind: 'configured',
  nameExample: 'Browser app.example.com (6 steps)',
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
      hint: 'Up to 30 steps, the first a goto: goto, click, fill, press, select, wait_for (selector, text or url), assert (subject text, title, url or count), screenshot (docs/scripted-checks.md).',
    },
    {
      key: 'trace',
      label: 'Playwright trace',
      kind: 'select',
      options: ['off', 'on_failure', 'always'],
      hint: 'Record a Playwright trace of each run and keep it with the result: on_failure when a step failed, always for every run. Secret variables are masked in it.',
    },
  ],
  tls: false,
  vitals: true,
  target: (check) =>
    `browser ${firstHost(check.config.steps.find((s) => s.action === 'goto')?.url)} (${check.config.steps.length} steps)`,
  rows: (check) => [
    ['Steps', check.config.steps.map((s) => s.action).join(' → ')],
    ...(check.config.variables && Object.keys(check.config.variables).length > 0
      ? [['Variables', Object.keys(check.config.variables).join(', ')] as [string, string]]
      : []),
    ...(check.config.trace && check.config.trace !== 'off'
      ? [['Playwright trace', check.config.trace] as [string, string]]
      : []),
  ],
};
