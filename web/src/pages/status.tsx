import { Page } from '../ui/page';

/** Fleet status (being written). */
export function StatusPage() {
  return <Page title="Status">{null}</Page>;
}
