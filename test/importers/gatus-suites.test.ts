import { describe, expect, it } from 'vitest';
import { gatusImporter } from '../../lib/importers/gatus.ts';
import { PASSWORD, TOKEN } from '../check-types/support/login-api.ts';
import { useLoginApp } from '../check-types/support/login-app.ts';
import { runtimes } from '../support/api-harness.ts';
import { requestSchemaProblems } from './convert-validation.ts';

/** A Gatus suite (README "Suites") against `origin`: log in, store the token, read /me with it, clean up. */
const suiteYaml = (origin: string, extra = '') => `
suites:
  - name: login-flow
    group: accounts
    interval: 5m
    timeout: 30s
    context:
      user: ada
      password: ${PASSWORD}
    endpoints:
      - name: log-in
        url: ${origin}/login
        method: POST
        headers:
          Content-Type: application/json
        body: '{"user": "[CONTEXT].user", "password": "[CONTEXT].password"}'
        conditions:
          - "[STATUS] == 200"
          - "[BODY].token == pat(tok-*)"
        store:
          token: "[BODY].token"
          session: "[HEADER].Set-Cookie"
          took: "[RESPONSE_TIME]"
      - name: me
        url: ${origin}/me
        headers:
          Authorization: "Bearer [CONTEXT].token"
        conditions:
          - "[STATUS] == 200"
          - "[BODY].name == ada"
      - name: clean-up
        url: ${origin}/me
        always-run: true
        conditions:
          - "[STATUS] == 401"
${extra}`;

const convert = (text: string) => {
  const converted = gatusImporter.convert(text);
  const checks = (converted.document as { checks?: Record<string, unknown>[] }).checks ?? [];
  return { checks, unmapped: converted.unmapped };
};

describe('Gatus suites as multistep checks', () => {
  const origin = 'https://api.example.com';
  const { checks, unmapped } = convert(suiteYaml(origin));

  it('makes one multistep check of the suite: context as variables, endpoints as steps, store as extractions', () => {
    expect(checks).toEqual([
      {
        entity: 'gatus/accounts',
        name: 'login-flow',
        check_type: 'multistep',
        interval_seconds: 300,
        timeout_ms: 30_000,
        config: {
          variables: {
            user: { value: 'ada' },
            password: { value: '${GATUS_LOGIN_FLOW_PASSWORD}', secret: true },
          },
          steps: [
            {
              name: 'log_in',
              url: `${origin}/login`,
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: '{"user": "{{variables.user}}", "password": "{{variables.password}}"}',
              expected_status: 200,
              assertions: [{ source: 'json', path: '$.token', op: 'matches', value: '^tok-[\\s\\S]*$' }],
              extract: {
                token: { source: 'json_body', path: '$.token' },
                session: { source: 'header', name: 'Set-Cookie' },
              },
            },
            {
              name: 'me',
              url: `${origin}/me`,
              headers: { Authorization: 'Bearer {{steps.log_in.token}}' },
              expected_status: 200,
              assertions: [{ source: 'json', path: '$.name', op: 'eq', value: 'ada' }],
            },
            { name: 'clean_up', url: `${origin}/me`, expected_status: 401 },
          ],
        },
      },
    ]);
    expect(
      requestSchemaProblems(
        { ...gatusImporter.convert(suiteYaml(origin)).document },
        {
          GATUS_LOGIN_FLOW_PASSWORD: PASSWORD,
        },
      ),
    ).toEqual([]);
  });

  it('says what it left out or changed, by YAML path, and never copies a secret', () => {
    expect(unmapped).toEqual([
      'suites[0].context.password: a secret, not copied; set GATUS_LOGIN_FLOW_PASSWORD in the environment of plan and apply',
      'suites[0].endpoints[0].store.took: Vigil extracts [BODY].<json path> and [HEADER].<name> only (not [RESPONSE_TIME]), left out',
      'suites[0].endpoints[2].always-run: a multistep check stops at its first failing step, so this one runs only when the steps before it pass',
    ]);
    expect(JSON.stringify(checks)).not.toContain(PASSWORD);
  });

  it('leaves out a suite it cannot run as Gatus does, with the reason', () => {
    const eleven = Array.from(
      { length: 11 },
      (_, i) => `      - name: s${i}\n        url: ${origin}/${i}`,
    ).join('\n');
    const cases: [string, string][] = [
      [
        `suites:\n  - name: too-long\n    endpoints:\n${eleven}`,
        'suites[0].endpoints: 11 endpoints; a multistep check runs at most 10, suite left out',
      ],
      [
        `suites:\n  - name: tcp\n    endpoints:\n      - name: db\n        url: tcp://db:5432`,
        'suites[0].endpoints[0]: "tcp://db:5432" is not an http(s) url, which a multistep step needs, suite left out',
      ],
      [
        `suites:\n  - name: unknown-key\n    endpoints:\n      - name: a\n        url: ${origin}/[CONTEXT].id`,
        'suites[0].endpoints[0]: suites[0].endpoints[0].url uses [CONTEXT].id, which no context value or earlier store holds, suite left out',
      ],
    ];
    for (const [yaml, line] of cases) {
      const { checks: none, unmapped: lines } = convert(yaml);
      expect(none).toEqual([]);
      expect(lines).toContain(line);
    }
  });
});

/** The converted suite runs: its check, drafted against a login API on 127.0.0.1, passes every step. */
describe.each(runtimes)('an imported Gatus suite, run ($runtime runtime)', ({ start }) => {
  const app = useLoginApp(start);

  it('logs in with the context, carries the stored token to the next step, and passes', async () => {
    const [check] = convert(suiteYaml(app.server.origin)).checks;
    const { entity: _entity, ...body } = JSON.parse(
      JSON.stringify(check).replaceAll('${GATUS_LOGIN_FLOW_PASSWORD}', PASSWORD),
    ) as Record<string, unknown>;

    const run = await app.api.request('POST', '/v1/checks/run-draft', {
      key: app.api.adminKey,
      body: { ...body, entity_id: app.entityId },
    });

    expect(run.status, run.text).toBe(200);
    expect(run.body, run.text).toMatchObject({
      outcome: 'up',
      details: {
        steps: [
          { name: 'log_in', outcome: 'passed' },
          { name: 'me', outcome: 'passed' },
          { name: 'clean_up', outcome: 'passed', status_code: 401 },
        ],
      },
    });
    expect(app.server.requests.filter((r) => r.url === '/me').map((r) => r.headers.authorization)).toEqual([
      `Bearer ${TOKEN}`,
      undefined,
    ]);
  });
});
