/**
 * HTML built as strings, for the two lists that hold every unit (translation pages, unit
 * pages): Astro renders element by element through promises, about ten times slower than
 * joining strings, which matters at a million units. Every interpolated value is escaped
 * unless it is itself `Html` built by this template, so server text stays text.
 */
export class Html {
  readonly value: string;

  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** `html\`<td>${text}</td>\``: values are escaped (attributes must be double-quoted); arrays are joined. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  for (let index = 0; index < values.length; index += 1) out += render(values[index]) + (strings[index + 1] ?? '');
  return new Html(out);
}
