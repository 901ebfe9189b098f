import { PageTabs } from '../ui/page-tabs';

/** Channels and routes, and the delivery log: one concern (how alerts reach people), two pages. */
export function NotifyTabs() {
  return (
    <PageTabs
      label="Alerting"
      tabs={[
        { to: '/channels', label: 'Channels & routes' },
        { to: '/notifications', label: 'Delivery log' },
      ]}
    />
  );
}
