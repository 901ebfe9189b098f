import { type App, Stack, type StackProps } from 'aws-cdk-lib';
import { VigilChannel, VigilCheck, VigilEntity, VigilProvider } from '../vigil-constructs.ts';

/**
 * The example of docs/cdk-constructs.md: a service's stack declaring its monitoring next to it, an
 * entity, two checks and a shared channel (test/infra/vigil-constructs.test.ts synthesizes it).
 */
export class ServiceStack extends Stack {
  constructor(scope: App, id: string, props: StackProps & { serviceUrl: string }) {
    super(scope, id, props);
    const provider = new VigilProvider(this, 'Vigil', {
      url: 'https://vigil.example.com',
      apiKey: { parameterName: '/vigil/api-key' },
    });
    const api = new VigilEntity(this, 'ApiEntity', {
      provider,
      blueprint: 'service',
      slug: 'api',
      name: 'API',
      fields: { tier: 'critical', owner: 'payments' },
    });
    new VigilChannel(this, 'OpsWebhook', {
      provider,
      channel: {
        name: 'ops-webhook',
        channel_type: 'webhook',
        config: { url: 'https://hooks.example.com/ops' },
      },
    });
    new VigilCheck(this, 'Homepage', {
      provider,
      entity: api,
      check: {
        check_type: 'http',
        name: 'homepage',
        target_url: `${props.serviceUrl}/`,
        interval_seconds: 60,
      },
    });
    new VigilCheck(this, 'Heartbeat', {
      provider,
      entity: api,
      // A heartbeat is down on its first failure; the API's default threshold is 3.
      check: { check_type: 'push', name: 'heartbeat', interval_seconds: 300, failure_threshold: 1 },
    });
  }
}
