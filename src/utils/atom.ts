import { escapeXml } from './badge.ts';

export interface FeedEntry {
  id: string;
  title: string;
  updated: string;
  href: string | undefined;
  author: string;
  summary: string;
}

export interface Feed {
  id: string;
  title: string;
  updated: string;
  /** Where the feed itself lives, absolute when the site URL is known, else relative. */
  self: string;
  entries: FeedEntry[];
}

/** An Atom 1.0 document; every value is escaped (change targets are server text). */
export function atomFeed(feed: Feed): string {
  const entries = feed.entries.map(
    (entry) => `  <entry>
    <id>${escapeXml(entry.id)}</id>
    <title>${escapeXml(entry.title)}</title>
    <updated>${escapeXml(entry.updated)}</updated>
    <author><name>${escapeXml(entry.author)}</name></author>
${entry.href ? `    <link rel="alternate" href="${escapeXml(entry.href)}"/>\n` : ''}    <summary type="text">${escapeXml(entry.summary)}</summary>
  </entry>
`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${escapeXml(feed.id)}</id>
  <title>${escapeXml(feed.title)}</title>
  <updated>${escapeXml(feed.updated)}</updated>
  <link rel="self" href="${escapeXml(feed.self)}"/>
${entries.join('')}</feed>
`;
}
