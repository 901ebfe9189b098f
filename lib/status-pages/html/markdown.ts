import MarkdownIt from 'markdown-it';

/**
 * An update's Markdown as HTML for the public page, limited to DECISIONS.md's subset: paragraphs,
 * emphasis, lists, links and code. markdown-it starts from its `zero` preset (nothing enabled) with
 * HTML off, so raw HTML in a body is shown as text; links must be http(s) or mailto (anything
 * else, `javascript:` included, stays text) and get rel="nofollow noopener". Headings, images,
 * tables, quotes and autolinks are not in the subset: their Markdown shows as written.
 */

const md = new MarkdownIt('zero', { html: false, linkify: false, typographer: false, breaks: false });
md.enable(['list', 'code', 'fence', 'newline', 'emphasis', 'link', 'backticks', 'escape', 'entity']);
md.validateLink = (url) => /^(https?:\/\/|mailto:)/i.test(url.trim());

const renderToken = md.renderer.renderToken.bind(md.renderer);
md.renderer.rules.link_open = (tokens, idx, options) => {
  const token = tokens[idx];
  token?.attrSet('rel', 'nofollow noopener');
  return renderToken(tokens, idx, options);
};

/** The HTML of one update's body (escaped, no script, no raw HTML). */
export function renderMarkdown(text: string): string {
  return md.render(text);
}
