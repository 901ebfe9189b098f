import { Page } from '../ui/page';

/** (being written) */
export function NotificationsPage() {
  return <Page title="NotificationsPage">{null}</Page>;
}
