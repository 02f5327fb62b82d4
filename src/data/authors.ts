import { publicName } from '../../archive/credits.ts';
import type { StoredUser } from '../../snapshot/index.ts';
import { redactEmails } from '../../site-model/privacy.ts';
import { ui } from '../i18n/page.ts';
import { perBuild } from './build-input.ts';
import { siteTree } from './tree.ts';

/** The built snapshot's users by stored path (`api/users/<username>/`), as it publishes them; read once per build. */
export const siteUsers: () => Promise<ReadonlyMap<string, StoredUser>> = perBuild(async () => {
  const { snapshot } = await siteTree();
  return new Map((await snapshot.users()).map(({ path, record }) => [path, record]));
});

/**
 * The name shown for a user link (`api/users/jane/`) or a last-author name; `--hide-authors`
 * hides it (in the interface language). A link is named as the credits name a contributor
 * (archive/credits.ts `publicName`): the full name, else the username, never an e-mail address,
 * so that history, changes, the last author and credits name one person one way (docs/site.md,
 * "Names of people").
 */
export function authorLabel(
  user: string | null | undefined,
  hideAuthors: boolean,
  isLink: boolean,
  users: ReadonlyMap<string, StoredUser> = new Map(),
): string {
  const { t } = ui();
  if (user === null || user === undefined || user === '') return t(isLink ? 'author.system' : 'author.unknown');
  if (hideAuthors) return t('author.hidden');
  if (!isLink) return user;
  return publicName(user.replace(/^tmsnap-raw:/, ''), users, redactEmails);
}
