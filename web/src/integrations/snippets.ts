/**
 * What a sender needs, ready to paste, for an integration just made (its URL and token shown once):
 * an alertmanager.yml receiver, PagerDuty's routing key and URL, a Grafana contact point, the SNS
 * subscription command, a curl line.
 */
export function senderSnippet(kind: string, url: string, token: string): string {
  const origin = url.replace(/\/(in\/[^/]+|v2\/enqueue)$/, '');
  switch (kind) {
    case 'alertmanager':
      return `receivers:
  - name: vigil
    webhook_configs:
      - url: ${url}
        send_resolved: true`;
    case 'pagerduty':
      return `# Any sender of PagerDuty Events API v2 whose URL can be set, e.g. alertmanager.yml:
receivers:
  - name: vigil
    pagerduty_configs:
      - routing_key: ${token}
        url: ${origin}/v2/enqueue
        send_resolved: true`;
    case 'grafana':
      return `# Grafana: Alerting > Contact points > New > Webhook
URL: ${url}
HTTP method: POST`;
    case 'cloudwatch':
      return `aws sns subscribe --topic-arn <your alarm topic ARN> --protocol https \\
  --notification-endpoint ${url}`;
    default:
      return `curl -X POST ${url} -H 'content-type: application/json' \\
  -d '{"id": "disk-full-db1", "status": "firing", "summary": "Disk 95% full"}'`;
  }
}
