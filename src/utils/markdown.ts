import MarkdownIt from 'markdown-it';

// Project instructions are Markdown written by whoever administers the project on the
// server: raw HTML stays text, images are not loaded from third-party hosts, and only
// links a reader can safely follow become links.
const markdown = new MarkdownIt({ html: false, linkify: true, breaks: false });
markdown.disable('image');
markdown.validateLink = isSafeLink;

const defaultLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]?.attrSet('rel', 'nofollow noopener noreferrer');
  return defaultLinkOpen(tokens, index, options, env, self);
};

// The page has its own h1 and h2 around the instructions: their headings start at h3.
markdown.core.ruler.push('demote_headings', (state) => {
  for (const token of state.tokens) {
    if (token.type === 'heading_open' || token.type === 'heading_close') token.tag = `h${Math.min(Number(token.tag.slice(1)) + 2, 6)}`;
  }
});

/** An absolute http(s) or mailto URL; anything else (javascript:, data:, relative paths) is refused. */
export function isSafeLink(href: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(href.trim());
  } catch {
    return false;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' || parsed.protocol === 'mailto:';
}

export function renderInstructions(text: string): string {
  return markdown.render(text.replace(/\r\n?/g, '\n'));
}
