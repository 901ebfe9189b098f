import { Page } from '../ui/page';

/** (being written) */
export function SkillsPage() {
  return <Page title="SkillsPage">{null}</Page>;
}
