import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../lib/status-pages/html/markdown.ts';

/** An update's Markdown: the subset (paragraphs, emphasis, lists, links, code), no HTML, safe links. */
describe('page incident Markdown', () => {
  it('renders paragraphs, emphasis, lists and code', () => {
    expect(renderMarkdown('*em* **strong** `x<y`\n\n- a\n- b\n\n1. one')).toBe(
      '<p><em>em</em> <strong>strong</strong> <code>x&lt;y</code></p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<ol>\n<li>one</li>\n</ol>\n',
    );
    expect(renderMarkdown('```\nif (a < b) {}\n```')).toBe('<pre><code>if (a &lt; b) {}\n</code></pre>\n');
  });

  it('gives links rel="nofollow noopener" and keeps any but http(s) and mailto as text', () => {
    expect(renderMarkdown('[status](https://example.com/a?b=1&c=2)')).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener">status</a></p>\n',
    );
    expect(renderMarkdown('[mail](mailto:ops@example.com)')).toContain('rel="nofollow noopener"');
    for (const bad of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      '/relative',
    ]) {
      const html = renderMarkdown(`[x](${bad})`);
      expect(html, bad).not.toContain('<a');
    }
  });

  it('shows raw HTML as text and leaves headings, images and quotes out of the subset', () => {
    const html = renderMarkdown('<script>alert(1)</script> <img src=x onerror=alert(1)>');
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('&lt;script&gt;');
    expect(renderMarkdown('# Title')).toBe('<p># Title</p>\n');
    expect(renderMarkdown('![i](https://example.com/i.png)')).not.toContain('<img');
    expect(renderMarkdown('> quoted')).toBe('<p>&gt; quoted</p>\n');
  });

  it('cannot break out of an attribute through a link', () => {
    const html = renderMarkdown('[a"b](https://example.com/"onmouseover="x)');
    expect(html).not.toMatch(/"\s*onmouseover=/);
  });
});
