import { Page } from '../ui/page';

/** (being written) */
export function SettingsPage() {
  return <Page title="SettingsPage">{null}</Page>;
}
