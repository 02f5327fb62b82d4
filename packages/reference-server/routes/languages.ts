import { type ApiRequest, type Route, READ_ONLY, collectionRoutes, findNamed, ok, statisticsStyle, visibleTranslations } from '../api.ts';
import type { LanguageRow } from '../model.ts';
import { languageRecord } from '../render.ts';

/**
 * The languages a client is shown: with a token every language the server knows; anonymous
 * clients of a real server only those with a translation they can see (7 against 652 on a
 * real 5.4; README.md, "Profiles").
 */
function listedLanguages(request: ApiRequest): LanguageRow[] {
  const all = [...request.instance.languages.values()];
  if (!request.behaviours.anonymousLimits || request.authenticated) return all;
  const used = new Set(visibleTranslations(request).map((translation) => translation.languageCode));
  return all.filter((language) => used.has(language.code));
}

function findLanguage(request: ApiRequest, code: string | undefined): LanguageRow {
  return findNamed(request.instance.languages, code);
}

export const routes: Route[] = [
  ...collectionRoutes('languages', 'code', {
    // 5.14 orders by code as bytes (`ca@valencia` before `ca_AD`); 5.4, as the reference server had it, by locale.
    list: (request) =>
      listedLanguages(request).sort((a, b) => (request.behaviours.fields514 ? (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) : a.code.localeCompare(b.code))),
    find: findLanguage,
    render: (request, language) => languageRecord(request.links, language),
  }),
  {
    pattern: ['languages', ':code', 'statistics'],
    allow: READ_ONLY,
    handle(request, params) {
      const language = findLanguage(request, params.code);
      const translations = visibleTranslations(request).filter((translation) => translation.languageCode === language.code);
      const { instance } = request;
      return ok({
        ...instance.statistics(translations, request.links.weblateFields, statisticsStyle(request, false)),
        name: language.name,
        // 5.14 leaves the code out (the URL names it).
        ...(request.behaviours.statistics514 ? {} : { code: language.code }),
        url: request.links.web(`languages/${params.code}/`),
      });
    },
  },
];
