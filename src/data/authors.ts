import { lastSegment } from '../../site-model/paths.ts';
import { ui } from '../i18n/page.ts';

/** The name shown for a user link (`api/users/jane/`) or a last-author name; `--hide-authors` hides it (in the interface language). */
export function authorLabel(user: string | null | undefined, hideAuthors: boolean, isLink: boolean): string {
  const { t } = ui();
  if (user === null || user === undefined || user === '') return t(isLink ? 'author.system' : 'author.unknown');
  if (hideAuthors) return t('author.hidden');
  if (!isLink) return user;
  return decodeURIComponent(lastSegment(user.replace(/^tmsnap-raw:/, '')));
}
