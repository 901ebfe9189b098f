import { useQuery } from '@tanstack/react-query';
import { IntegrationForm } from '../integrations/integration-form';
import { IntegrationTable } from '../integrations/integration-table';
import { integrationQueries } from '../integrations/queries';
import { useSession } from '../session';
import { ErrorNote, Loading } from '../ui/feedback';
import { Page, Section } from '../ui/page';

/**
 * Integrations (docs/integrations.md): Alertmanager, PagerDuty Events v2, Grafana, CloudWatch and
 * any JSON webhook sending their alerts in, each onto the catalog entity it is about. Everyone
 * reads them and their payload logs; admins make them (the URL shown once) and delete them.
 */
export function IntegrationsPage() {
  const { isAdmin, canWrite } = useSession();
  const integrations = useQuery(integrationQueries.list());
  const admin = isAdmin && canWrite;
  return (
    <Page title="Integrations">
      <p className="muted">
        Alerts your other tools raise land on the entity they are about, as an outside check: the worst open
        alert is its state, so incidents, on-call, dependencies and status pages treat them as Vigil’s own.
      </p>
      <Section title="Integrations">
        <ErrorNote error={integrations.error} title="The integrations could not be loaded." />
        {integrations.isPending ? (
          <Loading what="integrations" />
        ) : (
          <IntegrationTable integrations={integrations.data ?? []} isAdmin={admin} />
        )}
      </Section>
      {admin ? (
        <Section title="New integration">
          <IntegrationForm />
        </Section>
      ) : null}
    </Page>
  );
}
