import { Page } from '../ui/page';

/** (being written) */
export function ActionsPage() {
  return <Page title="ActionsPage">{null}</Page>;
}

/** (being written) */
export function ActionPage() {
  return <Page title="ActionPage">{null}</Page>;
}
