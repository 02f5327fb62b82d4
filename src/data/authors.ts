import { lastSegment } from '../../site/paths.ts';

const neutralAuthor = 'a contributor';

/** The name shown for a user link (`api/users/jane/`) or a last-author name; `--hide-authors` hides it. */
export function authorLabel(user: string | null | undefined, hideAuthors: boolean, isLink: boolean): string {
  if (user === null || user === undefined || user === '') return isLink ? 'system' : 'unknown';
  if (hideAuthors) return neutralAuthor;
  if (!isLink) return user;
  return decodeURIComponent(lastSegment(user.replace(/^tmsnap-raw:/, '')));
}
