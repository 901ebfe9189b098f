import { useQuery } from '@tanstack/react-query';
import { LocationForm } from '../locations/location-form';
import { LocationTable } from '../locations/location-table';
import { locationQueries } from '../locations/queries';
import { useSession } from '../session';
import { ErrorNote, Loading } from '../ui/feedback';
import { Page, Section } from '../ui/page';

/**
 * Probe locations (docs/locations.md): where checks can probe from, each online or offline by its
 * agent's heartbeats. Everyone reads; admins create locations (the key shown once), rotate and
 * revoke their keys, and delete them.
 */
export function LocationsPage() {
  const { isAdmin, canWrite } = useSession();
  const locations = useQuery(locationQueries.list());
  const admin = isAdmin && canWrite;
  return (
    <Page title="Locations">
      <p className="muted">
        <code>default</code> is this runtime’s own workers. A private agent probes from wherever you run it
        (inside your network, say); an AWS region from that region. A location is online while its agent’s
        heartbeats arrive, and offline 90 seconds after the last one.
      </p>
      <Section title="Locations">
        <ErrorNote error={locations.error} title="The locations could not be loaded." />
        {locations.isPending ? (
          <Loading what="locations" />
        ) : (
          <LocationTable locations={locations.data ?? []} isAdmin={admin} />
        )}
      </Section>
      {admin ? (
        <Section title="New location">
          <LocationForm />
        </Section>
      ) : null}
    </Page>
  );
}
