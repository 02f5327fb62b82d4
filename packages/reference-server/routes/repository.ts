import type { CommitRow } from '../model.ts';

/**
 * What the `repository/` endpoints answer: the reference server's repositories are always
 * clean and pushed. `url` is the endpoint itself (wlc builds its repository object from it).
 *
 * The description's server wrote the commits as `"<short> (<summary>)"` strings; a real 5.4
 * server writes objects (README.md, "Profiles"), and a translation's `repository/` shows its
 * component's repository, so a commit in any translation changes it for all of them.
 */
export function projectRepository(url: string): Record<string, unknown> {
  return { needs_commit: false, needs_merge: false, needs_push: false, url };
}

/** 2026.10.1's `pending_units` of a repository the reference server keeps committed. */
export function noPendingUnits(): Record<string, number> {
  return { total: 0, errors_skipped: 0, commit_policy_skipped: 0, eligible_for_commit: 0 };
}

/**
 * A project's `repository/` as 2026.10.1 writes it (measured): its components by `project/component`
 * path, none skipped or blocked, no commit or status of its own.
 */
export function projectRepository2026(url: string, components: readonly string[]): Record<string, unknown> {
  return {
    ...projectRepository(url),
    included_components: [...components],
    skipped_components: [],
    permission_blockers: [],
    remote_commit: null,
    weblate_commit: null,
    status: null,
    merge_failure: null,
    pending_units: noPendingUnits(),
    outgoing_commits: null,
    missing_commits: null,
  };
}

/** A commit as 5.4 writes `weblate_commit` and `remote_commit`. */
export function commitRecord(commit: CommitRow): Record<string, unknown> {
  const summary = commit.message.split('\n')[0] ?? '';
  return {
    revision: commit.revision,
    shortrevision: commit.revision.slice(0, 7),
    author: `${commit.author_name} <${commit.author_email}>`,
    author_email: commit.author_email,
    author_name: commit.author_name,
    authordate: commit.authordate,
    commit: `${commit.commit_name} <${commit.commit_email}>`,
    commit_email: commit.commit_email,
    commit_name: commit.commit_name,
    commitdate: commit.commitdate,
    message: commit.message,
    summary,
  };
}

/** The commit a component's repository starts at, for models that record no commits: the source file's revision. */
export function initialCommit(revision: string, date: string): CommitRow {
  return {
    revision,
    author_name: 'Weblate',
    author_email: 'noreply@weblate.org',
    authordate: date,
    commit_name: 'Weblate',
    commit_email: 'noreply@weblate.org',
    commitdate: date,
    message: 'Translated using Weblate\n',
  };
}

/** `commit`: the last commit as an object (5.4), or null to write the description's strings from `revision`. */
export function componentRepository(url: string, revision: string, commit: CommitRow | null = null): Record<string, unknown> {
  const described = `${revision.slice(0, 7)} (Translated using Weblate)`;
  const written = commit ? commitRecord(commit) : described;
  return {
    ...projectRepository(url),
    merge_failure: null,
    remote_commit: written,
    weblate_commit: written,
    status: "On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit, working tree clean\n",
  };
}
