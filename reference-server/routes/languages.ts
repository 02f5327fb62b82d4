import { type ApiRequest, type Route, DETAIL_EDIT, LIST_CREATE, READ_ONLY, notFound, ok, paginateArray, visibleTranslations } from '../api.ts';
import type { LanguageRow } from '../model.ts';
import { decodeSegment, languageRecord } from '../render.ts';

function findLanguage(request: ApiRequest, code: string | undefined): LanguageRow {
  const language = request.catalog.languages.get(decodeSegment(code ?? ''));
  if (!language) throw notFound();
  return language;
}

export const routes: Route[] = [
  {
    pattern: ['languages'],
    allow: LIST_CREATE,
    handle: (request) =>
      paginateArray(request, [...request.catalog.languages.values()].sort((a, b) => a.code.localeCompare(b.code)), (language) => languageRecord(request.links, language)),
  },
  {
    pattern: ['languages', ':code'],
    allow: DETAIL_EDIT,
    handle: (request, params) => ok(languageRecord(request.links, findLanguage(request, params.code))),
  },
  {
    pattern: ['languages', ':code', 'statistics'],
    allow: READ_ONLY,
    handle(request, params) {
      const language = findLanguage(request, params.code);
      const translations = visibleTranslations(request).filter((translation) => translation.languageCode === language.code);
      const { catalog } = request;
      return ok({
        ...catalog.statistics(translations),
        name: language.name,
        code: language.code,
        url: request.links.web(`languages/${params.code}/`),
      });
    },
  },
];
