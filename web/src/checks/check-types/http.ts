import type { CheckTypeForm } from './form';

/** http keeps its rich inputs (URL, method, headers, body, assertions) in ../check-form.tsx. */
export const httpForm: CheckTypeForm<'http'> = {
  label: 'HTTP',
  kind: 'http',
  nameExample: 'HTTP GET example.com/healthz',
  fields: [],
  tls: true,
  target: (check) => `${check.method} ${check.target_url}`,
  rows: (check) => {
    const rows: [string, string][] = [
      ['Target', `${check.method} ${check.target_url}`],
      [
        'Expected status',
        check.expected_statuses ? check.expected_statuses.join(', ') : String(check.expected_status),
      ],
    ];
    if (check.body_contains) rows.push(['Body contains', check.body_contains]);
    check.assertions.forEach((a, i) => {
      const value = a.value === undefined ? '' : ` ${JSON.stringify(a.value)}`;
      rows.push([`Assertion ${i + 1}`, `${a.source}${a.path ? ` ${a.path}` : ''} ${a.op}${value}`]);
    });
    const names = Object.keys(check.headers);
    if (names.length) rows.push(['Headers', names.map((n) => `${n}: ********`).join(', ')]);
    return rows;
  },
};
