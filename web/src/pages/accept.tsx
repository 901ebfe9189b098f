import { Page } from '../ui/page';

/** (being written) */
export function AcceptPage() {
  return <Page title="AcceptPage">{null}</Page>;
}
