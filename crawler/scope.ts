/**
 * The crawl's scope, built once from the options and shared by the plan, the run and the
 * incremental crawl: the project slugs asked for (as the manifest records them) and their
 * path segments (as the server writes them in URLs, which later links are compared in).
 */
import { parseApiPath } from '../api/paths.ts';
import type { Scope } from '../snapshot/index.ts';
import type { LinkScope } from './plan.ts';

export class CrawlScope implements LinkScope {
  /** Project slugs asked for, sorted and unique; undefined: the whole instance. */
  readonly slugs: readonly string[] | undefined;
  /** Path segments of the projects in scope; undefined: the whole instance. Grows as the server's own spelling is learnt. */
  readonly projects: Set<string> | undefined;
  /** What the manifest records, and what resume and incremental crawls match on. */
  readonly manifest: Scope;

  constructor(projects: readonly string[], changesSince: string | undefined) {
    this.slugs = projects.length > 0 ? [...new Set(projects)].sort() : undefined;
    this.projects = this.slugs && new Set(this.slugs.map((slug) => encodeURIComponent(slug)));
    this.manifest = { ...(this.slugs ? { projects: [...this.slugs] } : {}), ...(changesSince ? { changes_since: changesSince } : {}) };
  }

  get whole(): boolean {
    return this.slugs === undefined;
  }

  /** Whether a project slug (as the server's records give it) is one asked for. */
  hasSlug(slug: string): boolean {
    return this.slugs?.includes(slug) ?? true;
  }

  /** Whether a project path segment is in scope. */
  hasProject(segment: string): boolean {
    return this.projects?.has(segment) ?? true;
  }

  /**
   * Whether the object at an API path (relative to the root) lies in scope: the projects asked
   * for and their components and translations. Other objects (languages, users) belong to no
   * project and are in every scope. The writer asks it of objects embedded in other records: a
   * user's notification subscriptions embed projects of the whole server, and those outside
   * the scope must not become projects of the snapshot (docs/crawl.md, "Scope").
   */
  holds(path: string): boolean {
    if (this.whole) return true;
    const parsed = parseApiPath(path);
    if (parsed === undefined) return true;
    const owned = parsed.kind === 'project' || parsed.kind === 'component' || parsed.kind === 'translation';
    return !owned || (parsed.project !== undefined && this.hasProject(parsed.project));
  }

  /** Learns how the server spells an in-scope project's slug in paths. */
  addSegment(segment: string): void {
    this.projects?.add(segment);
  }
}
