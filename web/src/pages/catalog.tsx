import { Page } from '../ui/page';

/** (being written) */
export function CatalogPage() {
  return <Page title="CatalogPage">{null}</Page>;
}

/** (being written) */
export function BlueprintPage() {
  return <Page title="BlueprintPage">{null}</Page>;
}
