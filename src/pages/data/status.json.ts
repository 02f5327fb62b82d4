import type { APIRoute } from 'astro';
import { sitePaths } from '../../../site-model/paths.ts';
import { releasePaths } from '../../../site-model/release-paths.ts';
import { statusVersion, type StatusDocument, type StatusRelease, type StatusStatistics } from '../../../site-model/status-schema.ts';
import { releases } from '../../data/releases.ts';
import { addTotals, emptyTotals, type Totals } from '../../../site-model/totals.ts';
import { siteTree } from '../../data/tree.ts';
import { translatedPercent } from '../../utils/progress.ts';
import { statusLevels } from '../../data/levels.ts';

/** `data/status.json`: the snapshot's figures for machines (docs/status-json.md). */
export const GET: APIRoute = async () => {
  const { snapshot, projects, languages, totals, siteUrl } = await siteTree();
  const { manifest } = snapshot;
  const statistics = (t: Totals): StatusStatistics => ({
    total: t.total,
    translated: t.translated,
    fuzzy: t.fuzzy,
    untranslated: Math.max(t.total - t.translated - t.fuzzy, 0),
    total_words: t.total_words,
    translated_words: t.translated_words,
    fuzzy_words: t.fuzzy_words,
    translated_percent: translatedPercent(t),
  });
  const levels = statusLevels();
  const released = (await releases()).map(({ tag, date }): StatusRelease => ({
    name: tag.name,
    snapshot: tag.snapshot,
    date,
    page: releasePaths.release(tag.name),
  }));
  const document: StatusDocument = {
    version: statusVersion,
    generator: 'tmsnap',
    site_url: siteUrl ?? null,
    snapshot: { id: manifest.id, started: manifest.started, finished: manifest.finished, complete: manifest.complete },
    instance: { url: manifest.server.base_url, weblate_version: manifest.server.version ?? null, statistics: statistics(totals) },
    ...levels?.document,
    ...(released.length > 0 ? { releases: released } : {}),
    projects: projects.map((project) => ({
      slug: project.slug,
      name: project.record.name,
      page: sitePaths.project(project.slug),
      badge: sitePaths.projectBadge(project.slug),
      feed: sitePaths.projectFeed(project.slug),
      statistics: statistics(project.totals),
      ...levels?.project(project),
      components: project.components.map((component) => ({
        slug: component.slug,
        name: component.record.name,
        page: sitePaths.component(project.slug, component.slug),
        badge: sitePaths.componentBadge(project.slug, component.slug),
        source_language: component.sourceLanguage,
        statistics: statistics(component.totals),
        ...levels?.component(component),
        translations: component.translations.map((translation) => ({
          language: translation.language.code,
          page: sitePaths.translation(translation.key),
          badge: sitePaths.translationBadge(translation.key),
          last_change: translation.record.last_change ?? null,
          statistics: statistics(translation.record),
        })),
      })),
    })),
    languages: languages.map((language) => {
      const sum = emptyTotals(true);
      for (const translation of language.translations) addTotals(sum, translation.record);
      return {
        code: language.code,
        name: language.name,
        direction: language.direction,
        page: sitePaths.language(language.code),
        feed: sitePaths.languageFeed(language.code),
        translations: language.translations.length,
        statistics: statistics(sum),
      };
    }),
  };
  return new Response(`${JSON.stringify(document)}\n`, { headers: { 'Content-Type': 'application/json' } });
};
