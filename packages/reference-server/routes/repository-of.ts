import type { ApiRequest } from '../api.ts';
import type { ComponentRow } from '../model.ts';
import { componentRepository, initialCommit, noPendingUnits } from './repository.ts';

/**
 * A component's `repository/` body at `url`; a translation's is its component's. The last
 * commit is the model's (after a commit on download) or the one the source file was read at.
 */
export function componentRepositoryOf(request: ApiRequest, component: ComponentRow, url: string): Record<string, unknown> {
  const { instance } = request;
  const translations = instance.translationsOf(component.id);
  const source = translations.find((translation) => translation.languageCode === component.sourceLanguage) ?? translations[0];
  const revision = source?.revision ?? '0'.repeat(40);
  if (!request.behaviours.commitObjects) return componentRepository(url, revision);
  const first = instance.model.changeCount() > 0 ? instance.model.changes(0, 1)[0]!.timestamp : '2024-01-01T00:00:00.000000Z';
  const commit = instance.model.lastCommit?.(component.id) ?? initialCommit(revision, first.replace(/\.\d+Z$/, 'Z'));
  const record = componentRepository(url, commit.revision, commit);
  // 2026.10.1: what waits to be committed and how far the branch is from its remote (always clean here).
  return request.behaviours.recentFields ? { ...record, pending_units: noPendingUnits(), outgoing_commits: 0, missing_commits: 0 } : record;
}
