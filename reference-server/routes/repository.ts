/**
 * What the `repository/` endpoints answer: the reference server's repositories are always
 * clean. `url` is the endpoint itself (wlc builds its repository object from it).
 */
export function projectRepository(url: string): Record<string, unknown> {
  return { needs_commit: false, needs_merge: false, needs_push: false, url };
}

export function componentRepository(url: string, revision: string): Record<string, unknown> {
  return {
    ...projectRepository(url),
    merge_failure: null,
    remote_commit: `${revision.slice(0, 7)} (Translated using Weblate)`,
    weblate_commit: `${revision.slice(0, 7)} (Translated using Weblate)`,
    status: 'On branch main\nYour branch is up to date with \'origin/main\'.\n\nnothing to commit, working tree clean\n',
  };
}
