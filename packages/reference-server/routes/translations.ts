import {
  type ApiRequest,
  type ApiResult,
  type Route,
  ApiError,
  LIST_CREATE,
  READ_ONLY,
  findTranslation,
  ok,
  paginate,
  paginateArray,
  paginateStream,
  requirePermission,
  translationContext,
  visibleTranslations,
} from '../api.ts';
import { instanceOf } from '../instance.ts';
import { isActivityModel } from '../memory-model.ts';
import type { TranslationRow, UnitRow } from '../model.ts';
import type { TranslationContext } from '../render.ts';
import { standardSizes, unitSizes } from '../pagination.ts';
import { tbxFile } from '../tbx-file.ts';
import { poFile } from '../po-file.ts';
import { parseTimestamp } from '../query.ts';
import { translationPath, translationRecord } from '../render.ts';
import { changesList } from './changes.ts';
import { translationStatistics } from './components.ts';
import { componentRepository } from './repository.ts';
import { componentRepositoryOf } from './repository-of.ts';
import { parseSearch, renderUnit } from './units.ts';

/** A translation's units page like a standard list on a real server (50, at most 1000); only `/api/units/` goes to 10000. */
function unitsList(request: ApiRequest, translation: TranslationRow): ApiResult {
  const { instance } = request;
  const sizes = request.behaviours.standardUnitPages ? standardSizes : unitSizes;
  const q = request.url.searchParams.get('q');
  if (q) {
    const search = parseSearch(q);
    const units = function* () {
      for (const unit of instance.unitsOf(translation.id)) if (search.matches(unit)) yield unit;
    };
    return paginateStream(request, units, (unit) => renderUnit(request, unit), sizes);
  }
  return paginate(
    request,
    instance.model.unitCount(translation.id),
    (offset, limit) => instance.model.units(translation.id, offset, limit).map((unit) => renderUnit(request, unit)),
    sizes,
  );
}

/** The HTTP date of the newest unit or change of a translation, whole seconds as HTTP dates are. */
function lastModified(request: ApiRequest, translation: TranslationRow, units: readonly UnitRow[]): Date {
  let newest = parseTimestamp(request.instance.lastChange([translation.id])?.timestamp ?? '') ?? 0;
  for (const unit of units) newest = Math.max(newest, parseTimestamp(unit.last_updated ?? unit.changed ?? unit.timestamp) ?? 0);
  return new Date(Math.floor(newest / 1_000_000) * 1000);
}

/**
 * Before a download a real server commits the component's pending edits (each translation that
 * had any gets a "Changes committed"); only a model that takes mutations can.
 */
function commitBeforeDownload(request: ApiRequest, translation: TranslationRow): ApiRequest {
  const { model } = request.instance;
  if (!request.behaviours.commitOnDownload || !isActivityModel(model)) return request;
  if (model.commitPending(translation.componentId).length === 0) return request;
  return { ...request, instance: instanceOf(model) };
}

/** The file as a 5.4 server answers it: glossaries as TBX, the source language as the template (`.pot`). */
function fileKind(request: ApiRequest, context: TranslationContext): 'tbx' | 'pot' | 'po' {
  if (!request.behaviours.weblateFiles) return 'po';
  if (context.component.is_glossary) return 'tbx';
  return context.translation.languageCode === context.component.sourceLanguage ? 'pot' : 'po';
}

function file(request: ApiRequest, translation: TranslationRow): ApiResult {
  const format = request.url.searchParams.get('format');
  // On file/ `format` asks for a conversion; the reference server stores PO and converts to nothing else.
  if (format !== null && format !== 'api' && format !== 'po') {
    throw new ApiError(400, 'invalid', `format: Conversion to "${format}" is not supported; leave format out for the PO file as stored.`);
  }
  request = commitBeforeDownload(request, translation);
  translation = request.instance.translations.get(translation.id) ?? translation;
  // Read once: the date and the body come from the same rows.
  const units = [...request.instance.unitsOf(translation.id)];
  const modified = lastModified(request, translation, units);
  const since = Date.parse(String(request.headers['if-modified-since'] ?? ''));
  const headers = { 'Last-Modified': modified.toUTCString() };
  if (!Number.isNaN(since) && modified.getTime() <= since) return { status: 304, raw: '', headers };
  const context = translationContext(request, translation);
  const kind = fileKind(request, context);
  const body =
    kind === 'tbx'
      ? tbxFile({ sourceLanguage: context.component.sourceLanguage, targetLanguage: translation.languageCode }, units)
      : poFile(
          {
            projectName: context.project.name,
            componentName: context.component.name,
            language: context.language,
            reportBugsTo: context.component.report_source_bugs,
            lastTranslator: context.last?.author ?? null,
            revisionDate: context.last?.timestamp ?? null,
          },
          // The template leaves every msgstr empty.
          kind === 'pot' ? units.map((unit) => ({ ...unit, state: 0, target: unit.target.map(() => '') })) : units,
        );
  const name = `${context.project.slug}-${context.component.slug}-${translation.languageCode}.${kind}`.replace(/[^\w.@-]/g, '_');
  const contentType = {
    tbx: 'application/x-tbx',
    pot: 'text/x-gettext-catalog',
    po: request.behaviours.weblateFiles ? 'text/x-gettext-catalog' : 'text/x-gettext-catalog; charset=utf-8',
  }[kind];
  return {
    status: 200,
    raw: body,
    headers: { ...headers, 'Content-Type': contentType, 'Content-Disposition': `attachment; filename=${name}` },
  };
}

export const routes: Route[] = [
  {
    pattern: ['translations'],
    allow: READ_ONLY,
    handle: (request) =>
      paginateArray(request, visibleTranslations(request), (translation) => translationRecord(request.links, translationContext(request, translation), true)),
  },
  {
    pattern: ['translations', ':project', ':component', ':language'],
    allow: 'GET, DELETE, HEAD, OPTIONS',
    handle: (request, params) => ok(translationRecord(request.links, translationContext(request, findTranslation(request, params)), true)),
  },
  {
    pattern: ['translations', ':project', ':component', ':language', 'repository'],
    allow: LIST_CREATE,
    handle(request, params) {
      const translation = findTranslation(request, params);
      requirePermission(request);
      const component = request.instance.componentOf(translation);
      const path = translationPath(request.instance.projectOf(component), component, translation.languageCode);
      const url = request.links.api(`translations/${path}repository/`);
      // A real server shows the component's repository: its last commit, whichever translation made it.
      if (request.behaviours.commitObjects) return ok(componentRepositoryOf(request, component, url));
      return ok(componentRepository(url, translation.revision));
    },
  },
  {
    pattern: ['translations', ':project', ':component', ':language', 'file'],
    allow: 'GET, PUT, POST, HEAD, OPTIONS',
    formatIsConversion: true,
    handle: (request, params) => file(request, findTranslation(request, params)),
  },
  {
    pattern: ['translations', ':project', ':component', ':language', 'statistics'],
    allow: READ_ONLY,
    handle: (request, params) => ok(translationStatistics(request, findTranslation(request, params))),
  },
  {
    pattern: ['translations', ':project', ':component', ':language', 'changes'],
    allow: READ_ONLY,
    handle(request, params) {
      const translation = findTranslation(request, params);
      return changesList(request, { kind: 'translation', id: translation.id });
    },
  },
  {
    pattern: ['translations', ':project', ':component', ':language', 'units'],
    allow: LIST_CREATE,
    handle: (request, params) => unitsList(request, findTranslation(request, params)),
  },
];
