/**
 * The tenant partition: most items a tenant owns (its catalog, checks, keys, skills, actions) live
 * under `TENANT#<tnt>`, each owner module prefixing its own sort keys, so a tenant id from the API
 * key is part of every lookup. The one partition several owners share; each builds only its items.
 */
export const tenantPk = (tenantId: string) => `TENANT#${tenantId}`;
