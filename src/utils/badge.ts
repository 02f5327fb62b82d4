/**
 * A flat "translated | 87%" badge like the server's own widgets, as SVG text. Every piece of
 * text is XML-escaped: a project name is server data.
 */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[char]};`);
}

// Verdana 11px averages about 6.5px per character; badges need only be roughly sized.
const textWidth = (text: string) => Math.round(text.length * 6.5 + 10);

export function badgeColor(percent: number): string {
  if (percent >= 90) return '#2a7d2a';
  if (percent >= 75) return '#5d7a00';
  if (percent >= 50) return '#9a6a00';
  return '#b02e26';
}

export function formatPercent(percent: number): string {
  return `${Math.floor(percent * 10) / 10}%`;
}

export function badgeSvg(label: string, percent: number, title = `${label}: ${formatPercent(percent)}`): string {
  return flatBadgeSvg(label, formatPercent(percent), badgeColor(percent), title);
}

/** Any flat "label | message" badge: the percentage badges above, the release levels' counts. */
export function flatBadgeSvg(label: string, message: string, color: string, title: string): string {
  const left = textWidth(label);
  const right = textWidth(message);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${left + right}" height="20" role="img" aria-label="${escapeXml(title)}">
<title>${escapeXml(title)}</title>
<rect width="${left}" height="20" fill="#555"/>
<rect x="${left}" width="${right}" height="20" fill="${color}"/>
<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">
<text x="${left / 2}" y="14">${escapeXml(label)}</text>
<text x="${left + right / 2}" y="14">${escapeXml(message)}</text>
</g>
</svg>
`;
}
