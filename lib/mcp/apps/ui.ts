/**
 * MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865) as Vigil serves it: an app tool names its view
 * in `_meta.ui.resourceUri`; the view is a `ui://` resource of mime type `text/html;profile=mcp-app`
 * that hosts read with resources/read. Vigil's views are light HTML without any script, from the
 * public status pages' renderer; every app tool's result starts with a text answer, which is all a
 * host without the extension shows.
 */

/** The extension's identifier: the key of the server's `capabilities.extensions` entry. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** The mime type of an MCP Apps HTML view. */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The views: the status board and a blast radius (the whole of one, or that of one entity below it). */
export const UI_URIS = {
  status: 'ui://vigil/status',
  blastRadius: 'ui://vigil/blast-radius',
} as const;

/** The `_meta` of a tool whose view is `uri`. */
export const uiMeta = (uri: string) => ({ ui: { resourceUri: uri } });

/** The `_meta` of a view's contents: no network, no frames (the restrictive default), a border. */
export const VIEW_META = { ui: { prefersBorder: true } } as const;

/** What a view says of an entity: the fields of a status board row. */
export interface ViewEntity {
  name: string;
  blueprint_slug: string;
  slug: string;
  state: 'up' | 'degraded' | 'down' | 'unknown';
  in_maintenance?: boolean;
}
