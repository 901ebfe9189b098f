import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { BlueprintsSection } from '../catalog/blueprints-section';
import { EntitiesSection } from '../catalog/entities-section';
import { blueprintQueries } from '../catalog/queries';
import { RelationsSection } from '../catalog/relations-section';
import { ErrorNote, Loading } from '../ui/feedback';
import { Page } from '../ui/page';

export { BlueprintPage } from '../catalog/blueprint-page';

/** The catalog: blueprints, the entities of one blueprint (?blueprint=), and relations. */
export function CatalogPage() {
  const [params, setParams] = useSearchParams();
  const blueprints = useQuery(blueprintQueries.list());
  const list = blueprints.data ?? [];
  const asked = params.get('blueprint');
  const selected =
    list.find((b) => b.slug === asked)?.slug ?? list.find((b) => b.is_default)?.slug ?? list[0]?.slug ?? '';
  return (
    <Page title="Catalog" actions={<Link to="/catalog/graph">Open the graph</Link>}>
      {blueprints.isLoading ? <Loading what="blueprints" /> : null}
      <ErrorNote error={blueprints.error} title="The blueprints could not be loaded." />
      {blueprints.data ? (
        <>
          <BlueprintsSection blueprints={list} />
          {list.length > 0 ? (
            <EntitiesSection
              blueprints={list}
              selected={selected}
              onSelect={(slug) => setParams({ blueprint: slug }, { replace: true })}
            />
          ) : null}
          <RelationsSection />
        </>
      ) : null}
    </Page>
  );
}
