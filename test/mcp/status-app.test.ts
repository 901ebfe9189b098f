import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useIncidentApi } from '../incidents/use-incident-api.ts';
import { runtimes } from '../support/api-harness.ts';
import { connectSdkClient } from './sdk-client.ts';

/**
 * The inline status app (issue 56 part 6, MCP Apps `io.modelcontextprotocol/ui`) through the SDK
 * client: show_status and show_blast_radius declare their ui:// view, answer text first and the
 * view as script-free HTML with every text escaped; resources/read serves the views of the
 * caller's app tools only.
 */

const APP_MIME = 'text/html;profile=mcp-app';
const NASTY = '<script>alert(1)</script> & "db"';

describe.each(runtimes)('the MCP status app ($runtime)', ({ start }) => {
  const { api, call, fx } = useIncidentApi(start);
  let client: Client;

  const html = (result: CallToolResult) => {
    const block = result.content[1];
    if (block?.type !== 'resource' || !('text' in block.resource)) throw new Error('no embedded view');
    return { uri: block.resource.uri, mimeType: block.resource.mimeType, text: block.resource.text };
  };
  const firstText = (result: CallToolResult) =>
    result.content[0]?.type === 'text' ? result.content[0].text : '';
  const readView = async (uri: string) => {
    const { contents } = await client.readResource({ uri });
    const [content] = contents;
    if (!content || !('text' in content)) throw new Error(`no text in ${uri}`);
    return content;
  };
  const scriptFree = (page: string) => {
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).not.toMatch(/<script|<svg|<iframe|<form|<a |javascript:|\son\w+=/i);
    expect(page).not.toContain(NASTY);
  };

  beforeAll(async () => {
    // web -> api -> db (depends_on); db is down, and its name is HTML.
    const db = await fx.entityWithCheck(NASTY);
    const apiEntity = await fx.entityWithCheck('API');
    const web = await fx.entityWithCheck('Web');
    for (const [from, to] of [
      [apiEntity.entityId, db.entityId],
      [web.entityId, apiEntity.entityId],
    ])
      await call(
        'POST',
        '/v1/relations',
        { from_entity_id: from, to_entity_id: to, relation_type: 'depends_on' },
        201,
      );
    await fx.result(db.checkId, false);
    await fx.result(apiEntity.checkId, true);
    client = await connectSdkClient(api(), api().adminKey);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('declares the extension and each app tool’s view in _meta.ui.resourceUri', async () => {
    expect(client.getServerCapabilities()).toMatchObject({
      prompts: {},
      resources: {},
      extensions: { 'io.modelcontextprotocol/ui': {} },
    });
    const { tools } = await client.listTools();
    const meta = (name: string) => tools.find((t) => t.name === name)?._meta;
    expect(meta('show_status')).toEqual({ ui: { resourceUri: 'ui://vigil/status' } });
    expect(meta('show_blast_radius')).toEqual({ ui: { resourceUri: 'ui://vigil/blast-radius' } });
    expect(meta('get_blast_radius')).toBeUndefined();
    const { resources } = await client.listResources();
    // The views lead the list; the tenant's vigil:// resources follow (test/mcp/resources.test.ts).
    const views = resources.filter((r) => r.uri.startsWith('ui://'));
    expect(resources.slice(0, views.length)).toEqual(views);
    expect(views.map((r) => [r.uri, r.mimeType])).toEqual([
      ['ui://vigil/status', APP_MIME],
      ['ui://vigil/blast-radius', APP_MIME],
    ]);
  });

  it('show_status answers the board as text first, then as the escaped, script-free view', async () => {
    const result = (await client.callTool({ name: 'show_status', arguments: {} })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const text = firstText(result);
    expect(text.split('\n')[0]).toBe('3 entities: 1 up, 0 degraded, 1 down, 1 unknown.');
    expect(text.split('\n')[1]).toBe(`- ${NASTY} (svc/e1): down`);
    const view = html(result);
    expect(view).toMatchObject({ uri: 'ui://vigil/status', mimeType: APP_MIME });
    scriptFree(view.text);
    expect(view.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;db&quot;');
    expect(view.text).toContain('<span class="state t-down">Down</span>');
    expect(result.structuredContent).toMatchObject({ total: 3, down: 1 });
    // The view read by URI is the same board.
    const read = await readView('ui://vigil/status');
    expect(read.mimeType).toBe(APP_MIME);
    expect(read.text).toContain('1 down');
  });

  it('show_blast_radius lists the dependents by distance, as text and as a view (no graph)', async () => {
    const result = (await client.callTool({
      name: 'show_blast_radius',
      arguments: { blueprint_slug: 'svc', entity_slug: 'e1' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    // The lines, then the data as compact JSON (as every tool's text block: docs/mcp.md).
    expect(firstText(result).split('\n')).toEqual([
      `2 entities depend on ${NASTY} (svc/e1), which is down, directly or transitively; 1 of them are not up.`,
      '- API (svc/e2): up (directly)',
      '- Web (svc/e3): unknown (2 steps away)',
      JSON.stringify(result.structuredContent),
    ]);
    const view = html(result);
    expect(view.uri).toBe('ui://vigil/blast-radius/svc/e1');
    scriptFree(view.text);
    expect(view.text).toMatch(/<h2>Directly<\/h2><ul>.*API.*<\/ul><h2>2 steps away<\/h2><ul>.*Web/);
    expect((await readView('ui://vigil/blast-radius/svc/e1')).text).toContain('2 steps away');
    // The bare view: what each entity down or degraded now reaches.
    const problems = (await readView('ui://vigil/blast-radius')).text;
    scriptFree(problems);
    expect(problems).toContain('Blast radius of current problems');
    expect(problems).toContain('&lt;script&gt;');
    const missing = (await client.callTool({
      name: 'show_blast_radius',
      arguments: { blueprint_slug: 'svc', entity_slug: 'gone' },
    })) as CallToolResult;
    expect(missing.isError).toBe(true);
  });

  it('serves the views only to callers with the app tools: another tenant or a tenant without catalog-ops gets not found', async () => {
    const notFound = async (reader: Client, uri: string) => {
      const error = await reader.readResource({ uri }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, uri).toBeInstanceOf(ProtocolError);
      // The SDK's ResourceNotFoundError: -32602 with the URI in its data.
      expect((error as ProtocolError).code).toBe(-32602);
    };
    await notFound(client, 'ui://vigil/blast-radius/svc/gone');
    await notFound(client, 'ui://vigil/nothing');
    const { key } = await api().createTenant('Other');
    const stranger = await connectSdkClient(api(), key);
    try {
      await notFound(stranger, 'ui://vigil/blast-radius/svc/e1');
      await call('DELETE', '/v1/skills/catalog-ops', undefined, 204);
      const left = (await client.listResources()).resources;
      expect(left.filter((r) => r.uri.startsWith('ui://'))).toEqual([]);
      await notFound(client, 'ui://vigil/status');
    } finally {
      await stranger.close();
    }
  });
});
