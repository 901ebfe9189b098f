/**
 * What a sender needs, ready to paste, for an integration just made (its URL and token shown once),
 * by kind: an alertmanager.yml receiver, PagerDuty's routing key and URL, a Grafana contact point,
 * the SNS subscription command; any other kind a curl line.
 */
const SNIPPETS: Record<string, (url: string, token: string, origin: string) => string> = {
  alertmanager: (url) => `receivers:
  - name: vigil
    webhook_configs:
      - url: ${url}
        send_resolved: true`,
  pagerduty: (
    _url,
    token,
    origin,
  ) => `# Any sender of PagerDuty Events API v2 whose URL can be set, e.g. alertmanager.yml:
receivers:
  - name: vigil
    pagerduty_configs:
      - routing_key: ${token}
        url: ${origin}/v2/enqueue
        send_resolved: true`,
  grafana: (url) => `# Grafana: Alerting > Contact points > New > Webhook
URL: ${url}
HTTP method: POST`,
  cloudwatch: (url) => `aws sns subscribe --topic-arn <your alarm topic ARN> --protocol https \\
  --notification-endpoint ${url}`,
};

const curl = (url: string) => `curl -X POST ${url} -H 'content-type: application/json' \\
  -d '{"id": "disk-full-db1", "status": "firing", "summary": "Disk 95% full"}'`;

export function senderSnippet(kind: string, url: string, token: string): string {
  const origin = url.replace(/\/(in\/[^/]+|v2\/enqueue)$/, '');
  return (SNIPPETS[kind] ?? curl)(url, token, origin);
}
