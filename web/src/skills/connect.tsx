import { CopyBlock } from '../ui/bits';
import { Section } from '../ui/page';

/**
 * How to connect an MCP client: the endpoint on this origin (in the cloud the console's origin
 * routes /v1/mcp to the MCP function) and ready config snippets. The signed-in key is never put
 * in them: the reader creates a key for the client and substitutes it.
 */

/** The snippets for an endpoint URL (exported for the tests of the page's text). */
function mcpSnippets(url: string) {
  const desktop = {
    mcpServers: {
      vigil: {
        command: 'npx',
        args: [
          '-y',
          'mcp-remote',
          url,
          '--header',
          // mcp-remote expands ${VIGIL_KEY} from env itself: the text must stay literal.
          // biome-ignore lint/suspicious/noTemplateCurlyInString: literal placeholder for mcp-remote
          'Authorization: Bearer ${VIGIL_KEY}',
        ],
        env: { VIGIL_KEY: '<your API key>' },
      },
    },
  };
  const http = {
    mcpServers: {
      vigil: { url, headers: { Authorization: 'Bearer <your API key>' } },
    },
  };
  const inspector = [
    'npx @modelcontextprotocol/inspector --cli --transport http \\',
    `  --server-url ${url} \\`,
    '  --header "Authorization: Bearer $VIGIL_KEY" --method tools/list',
  ].join('\n');
  const claudeCode = `claude mcp add --transport http vigil ${url} \\\n  --header "Authorization: Bearer $VIGIL_KEY"`;
  return {
    desktop: JSON.stringify(desktop, null, 2),
    http: JSON.stringify(http, null, 2),
    inspector,
    claudeCode,
  };
}

/** The "Connect an MCP client" section. */
export function ConnectMcp() {
  const url = `${window.location.origin}/v1/mcp`;
  const s = mcpSnippets(url);
  return (
    <Section title="Connect an MCP client">
      <p>
        Vigil speaks the Model Context Protocol at this endpoint (Streamable HTTP; the older SSE transport
        works too). Enabled skills’ tools are what a client sees.
      </p>
      <CopyBlock text={url} label="MCP endpoint URL" />
      <p>
        Use an API key made for the client (Settings → API keys) in place of <code>&lt;your API key&gt;</code>{' '}
        or <code>$VIGIL_KEY</code>. A read-only key only sees the tools marked read-only — the right choice
        for an agent that should only look.
      </p>
      <h3>Claude Desktop (through mcp-remote)</h3>
      <CopyBlock text={s.desktop} label="Claude Desktop config" />
      <h3>Cursor and other clients with Streamable HTTP</h3>
      <CopyBlock text={s.http} label="Streamable HTTP config" />
      <h3>Claude Code</h3>
      <CopyBlock text={s.claudeCode} label="Claude Code command" />
      <h3>MCP Inspector (CLI)</h3>
      <CopyBlock text={s.inspector} label="MCP Inspector command" />
    </Section>
  );
}
