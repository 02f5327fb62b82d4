import {
  type ApiRequest,
  type Route,
  DETAIL_EDIT,
  LIST_CREATE,
  READ_ONLY,
  findComponent,
  ok,
  paginateArray,
  renderComponent,
  requirePermission,
  statisticsStyle,
  translationContext,
  visibleComponents,
} from '../api.ts';
import type { TranslationRow } from '../model.ts';
import { unitSizes } from '../pagination.ts';
import { componentPath, translationRecord, webTranslationPath } from '../render.ts';
import { changesList } from './changes.ts';
import { componentRepositoryOf } from './repository-of.ts';

/** One translation's statistics, as its own `statistics/` and a component's list give them. */
export function translationStatistics(request: ApiRequest, translation: TranslationRow): Record<string, unknown> {
  const { instance, links } = request;
  const component = instance.componentOf(translation);
  const project = instance.projectOf(component);
  const path = webTranslationPath(project, component, translation.languageCode);
  return {
    ...instance.statistics(
      [translation],
      request.links.weblateFields,
      statisticsStyle(request, project.translation_review && translation.languageCode !== component.sourceLanguage),
    ),
    name: instance.language(translation.languageCode).name,
    code: translation.languageCode,
    url: links.web(`projects/${path}`),
    translate_url: links.web(`translate/${path}`),
  };
}

export const routes: Route[] = [
  {
    pattern: ['components'],
    allow: READ_ONLY,
    handle: (request) => paginateArray(request, visibleComponents(request), (component) => renderComponent(request, component)),
  },
  {
    pattern: ['components', ':project', ':component'],
    allow: DETAIL_EDIT,
    handle: (request, params) => ok(renderComponent(request, findComponent(request, params))),
  },
  {
    pattern: ['components', ':project', ':component', 'repository'],
    allow: LIST_CREATE,
    handle(request, params) {
      const component = findComponent(request, params);
      requirePermission(request);
      const url = request.links.api(`components/${componentPath(request.instance.projectOf(component), component)}repository/`);
      return ok(componentRepositoryOf(request, component, url));
    },
  },
  {
    // Real servers leave the embedded component out of this list: the parent is known.
    pattern: ['components', ':project', ':component', 'translations'],
    allow: LIST_CREATE,
    handle(request, params) {
      const component = findComponent(request, params);
      return paginateArray(request, request.instance.translationsOf(component.id), (translation) =>
        translationRecord(request.links, translationContext(request, translation), false),
      );
    },
  },
  {
    pattern: ['components', ':project', ':component', 'statistics'],
    allow: READ_ONLY,
    handle(request, params) {
      const component = findComponent(request, params);
      return paginateArray(request, request.instance.translationsOf(component.id), (translation) => translationStatistics(request, translation), unitSizes);
    },
  },
  {
    pattern: ['components', ':project', ':component', 'lock'],
    allow: LIST_CREATE,
    handle(request, params) {
      findComponent(request, params);
      return ok({ locked: false });
    },
  },
  {
    // Projects this component is shared with: none on the reference server.
    pattern: ['components', ':project', ':component', 'links'],
    allow: LIST_CREATE,
    handle(request, params) {
      findComponent(request, params);
      return paginateArray(request, [], () => null);
    },
  },
  {
    pattern: ['components', ':project', ':component', 'changes'],
    allow: READ_ONLY,
    handle(request, params) {
      const component = findComponent(request, params);
      return changesList(request, { kind: 'component', id: component.id });
    },
  },
];
