import { Page } from '../ui/page';

/** (being written) */
export function EntityPage() {
  return <Page title="EntityPage">{null}</Page>;
}
