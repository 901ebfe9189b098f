import { Page } from '../ui/page';

/** (being written) */
export function ChecksPage() {
  return <Page title="ChecksPage">{null}</Page>;
}

/** (being written) */
export function NewCheckPage() {
  return <Page title="NewCheckPage">{null}</Page>;
}

/** (being written) */
export function CheckPage() {
  return <Page title="CheckPage">{null}</Page>;
}
