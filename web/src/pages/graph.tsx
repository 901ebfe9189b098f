import { Page } from '../ui/page';

/** (being written) */
export function GraphPage() {
  return <Page title="GraphPage">{null}</Page>;
}
