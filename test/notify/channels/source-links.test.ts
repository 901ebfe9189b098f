import { describe, expect, it } from 'vitest';
import { describeAlert } from '../../../lib/notify/channels/message.ts';
import { eventPayload } from '../../../lib/notify/channels/payload.ts';
import { sampleAlert } from './alert-fixture.ts';

/**
 * An outside alert's links back to its sender (issue 77 point 3): the human messages show each as
 * a line, the webhook and NATS body carries them as `links`; an alert without any shows neither.
 */

const links = [
  { href: 'http://prometheus.internal:9090/graph?g0.expr=up', text: 'Source' },
  { href: 'https://grafana.internal/d/db?viewPanel=2', text: 'Panel' },
];

describe('an outside alert’s source links', () => {
  it('are lines of the message and `links` of the webhook body', () => {
    const alert = sampleAlert({ sourceLinks: links, reason: 'orders-db primary is down' });
    const facts = describeAlert(alert, 'https://vigil.example.com').facts;
    expect(facts).toEqual(
      expect.arrayContaining([
        { label: 'Source', value: links[0]?.href },
        { label: 'Panel', value: links[1]?.href },
      ]),
    );
    expect(JSON.parse(eventPayload(alert).toString('utf8')).links).toEqual(links);
  });

  it('are absent from an alert without them', () => {
    const alert = sampleAlert();
    const labels = describeAlert(alert, 'https://vigil.example.com').facts.map((f) => f.label);
    expect(labels).not.toContain('Source');
    expect(JSON.parse(eventPayload(alert).toString('utf8'))).not.toHaveProperty('links');
  });
});
