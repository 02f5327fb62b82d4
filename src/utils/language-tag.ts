/**
 * Weblate's language codes as BCP 47 tags, alone in this module: the search page's script imports
 * it, and format.ts would bring zod (through api/) into that bundle.
 */

// Weblate's gettext-style variants that have a BCP 47 script subtag.
const variantScripts: Record<string, string> = { latin: 'Latn', cyrillic: 'Cyrl' };

/** A Weblate language code as a BCP 47 tag for `lang` (`pt_BR` → `pt-BR`, `sr@latin` → `sr-Latn`). */
export function languageTag(code: string): string {
  const [base = '', variant] = code.split('@');
  const script = variant === undefined ? undefined : variantScripts[variant];
  const tag = base.replace(/_/g, '-') + (script ? `-${script}` : '');
  return /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(tag) ? tag : 'und';
}
