import { useState } from 'react';
import { useWindows } from '../maintenance/queries';
import { WindowForm } from '../maintenance/window-form';
import { WindowTable } from '../maintenance/window-table';
import type { MaintenanceWindow } from '../maintenance/words';
import { useSession } from '../session';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Page, Section } from '../ui/page';

/**
 * Maintenance windows (docs/notifications.md "Maintenance windows"): the tenant's windows, and for
 * members a form to create one, or to edit the one chosen in the table. Read-only keys read only.
 */
export function MaintenancePage() {
  const { canWrite } = useSession();
  const windows = useWindows();
  const [editing, setEditing] = useState<MaintenanceWindow>();
  return (
    <Page title="Maintenance">
      <p className="muted">
        While a window is on, checks keep running but alerts of the entities it covers are skipped (the
        delivery log says <code>maintenance: &lt;name&gt;</code>) and state-change actions do not run. An
        entity still down when the window ends is alerted once.
      </p>
      <Section title="Windows">
        <ErrorNote error={windows.error} title="The maintenance windows could not be loaded." />
        {windows.isPending ? (
          <Loading what="maintenance windows" />
        ) : (windows.data ?? []).length === 0 ? (
          <Empty title="No maintenance windows yet.">
            A window quiets the alerts of some entities for a while, once or on a schedule.
            {canWrite ? ' Plan your next upgrade with the form below.' : ''}
          </Empty>
        ) : (
          <WindowTable windows={windows.data ?? []} canWrite={canWrite} onEdit={setEditing} />
        )}
      </Section>
      {canWrite ? (
        <Section title={editing ? `Edit ${editing.name}` : 'New maintenance window'}>
          <WindowForm
            key={editing?.id ?? 'new'}
            {...(editing ? { editing, onDone: () => setEditing(undefined) } : {})}
          />
        </Section>
      ) : null}
    </Page>
  );
}
