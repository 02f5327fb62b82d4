import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadDataset } from '../../packages/reference-server/datasets.ts';
import type { Model, UnitRow } from '../../packages/reference-server/model.ts';
import { poFile } from '../../packages/reference-server/po-file.ts';
import type { RealWeblate } from './server.ts';

/**
 * Seeds a real Weblate through its own API from the bundled real catalogs
 * (packages/reference-server/data): components are created from uploaded ZIPs of PO files, since
 * `file://` remotes are refused. What the API cannot make (API keys, a private project's
 * members) is made in one `weblate shell` call.
 */

const execute = promisify(execFile);

/** 1, 2, 3 and 6 plural forms (ja, de, pl, ar); Arabic is written right to left. */
export const seedLanguages = ['ja', 'de', 'pl', 'ar'] as const;

/** The seeded instance, as the tests see it. */
export interface Seeded {
  tokens: { admin: string; user: string; project: string };
  /** Slugs as `project/component` (a component in a category as `project/category/component`). */
  components: string[];
  publicProjects: string[];
  privateProject: string;
  /** The user whose key is `tokens.user`: a member of the private project. */
  user: string;
  /** 2026 and later: the announcements and the suggestion the seed made (the API has them since 2026). */
  news?: Seeded2026;
}

/** What a 2026 server is seeded with beyond the catalogs: announcements of a public and of the private project, and a suggestion. */
export interface Seeded2026 {
  publicAnnouncement: { project: string; message: string };
  privateAnnouncement: { project: string; message: string };
  /** On a unit of a public translation (`translation`: `project/component/language`). */
  suggestion: { unit: number; translation: string; target: string };
}

interface Plan {
  project: string;
  name: string;
  private?: boolean;
  components: { from: string; slug: string; name: string; category?: string; glossary?: boolean; units?: number }[];
}

const plans: Plan[] = [
  {
    project: 'humanize',
    name: 'humanize',
    components: [
      { from: 'humanize/humanize', slug: 'humanize', name: 'humanize' },
      { from: 'django/glossary', slug: 'terminology', name: 'Terminology', glossary: true, units: 30 },
    ],
  },
  { project: 'wtforms', name: 'WTForms', components: [{ from: 'wtforms/wtforms', slug: 'wtforms', name: 'WTForms', category: 'forms' }] },
  { project: 'django', name: 'Django', components: [{ from: 'django/contrib-humanize', slug: 'contrib-humanize', name: 'contrib.humanize' }] },
  {
    project: 'django-filter',
    name: 'django-filter',
    private: true,
    components: [{ from: 'django-filter/django-filter', slug: 'django-filter', name: 'django-filter' }],
  },
];

export class WeblateClient {
  readonly url: string;
  readonly token: string;

  constructor(url: string, token: string) {
    this.url = url;
    this.token = token;
  }

  async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const target = path.startsWith('http') ? path : new URL(path, this.url).href;
    // An empty key must not be sent: Weblate answers 401 to `Token ` with nothing after it.
    const headers: Record<string, string> =
      this.token === '' ? { Accept: 'application/json' } : { Authorization: `Token ${this.token}`, Accept: 'application/json' };
    const init: RequestInit = { method, headers };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
    const response = await fetch(target, init);
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${target}: ${response.status} ${text.slice(0, 500)}`);
    return text === '' ? null : JSON.parse(text);
  }

  /** Every item of a paginated list, following `next`. */
  async all<T>(path: string): Promise<T[]> {
    const items: T[] = [];
    let next: string | null = new URL(path, this.url).href;
    while (next !== null) {
      const page = (await this.call('GET', next)) as { results: T[]; next: string | null };
      items.push(...page.results);
      next = page.next;
    }
    return items;
  }
}

function unitsOf(model: Model, from: string, language: string, limit?: number): UnitRow[] {
  const [projectSlug, componentSlug] = from.split('/');
  const project = model.projects().find((p) => p.slug === projectSlug)!;
  const component = model.components().find((c) => c.projectId === project.id && c.slug === componentSlug)!;
  const translation = model.translations().find((t) => t.componentId === component.id && t.languageCode === language);
  if (translation === undefined) return [];
  const units = model.units(translation.id, 0, model.unitCount(translation.id));
  return limit === undefined ? units : [...units].sort((a, b) => a.position - b.position).slice(0, limit);
}

/** A PO catalog as translators leave them: their names and addresses in the header and comments. */
function catalog(model: Model, plan: Plan, component: Plan['components'][number], language: string | null): string {
  const code = language ?? 'en';
  const row = model.languages().find((l) => l.code === code)!;
  const units = unitsOf(model, component.from, code, component.units);
  const template = language === null ? units.map((unit) => ({ ...unit, target: unit.source.length > 1 ? ['', ''] : [''] })) : units;
  const translator = language === null ? null : `Tereza Překladatelová <tereza.${code}@example.org>`;
  const text = poFile(
    {
      projectName: plan.name,
      componentName: component.name,
      language: row,
      reportBugsTo: 'bugs@example.org',
      lastTranslator: translator,
      revisionDate: '2025-01-06T09:00:00Z',
    },
    template,
  );
  return translator === null ? text : text.replace('\nmsgid ""', `\n# ${translator}, 2020.\nmsgid ""`);
}

async function zipOf(model: Model, plan: Plan, component: Plan['components'][number], venv: string): Promise<Blob> {
  const dir = await mkdtemp(join(tmpdir(), 'tmsnap-seed-'));
  try {
    await mkdir(join(dir, 'po'));
    await writeFile(join(dir, 'po', `${component.slug}.pot`), catalog(model, plan, component, null));
    for (const language of seedLanguages.filter((code) => unitsOf(model, component.from, code).length > 0))
      await writeFile(join(dir, 'po', `${language}.po`), catalog(model, plan, component, language));
    // Python's zipfile: the tier has Python anyway, and Node has no ZIP writer of its own.
    await execute(join(venv, 'bin/python'), ['-m', 'zipfile', '-c', 'seed.zip', 'po'], { cwd: dir });
    return new Blob([await readFile(join(dir, 'seed.zip'))], { type: 'application/zip' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A 1×1 PNG, enough for Weblate's screenshot upload. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export async function seedWeblate(server: RealWeblate): Promise<Seeded> {
  const adminToken = (await server.shell('from weblate.auth.models import User; print(User.objects.get(username="admin").auth_token.key)'))
    .trim()
    .split('\n')
    .at(-1)!;
  const api = new WeblateClient(server.url, adminToken);
  const model = await loadDataset('bundled');
  const components: string[] = [];
  for (const plan of plans) {
    await api.call('POST', 'projects/', {
      name: plan.name,
      slug: plan.project,
      web: `https://${plan.project}.example.org/`,
      instructions: 'Please keep placeholders.',
      translation_review: plan.project === 'humanize',
    });
    for (const component of plan.components) {
      const form = new FormData();
      form.set('name', component.name);
      form.set('slug', component.slug);
      form.set('file_format', 'po');
      form.set('filemask', 'po/*.po');
      form.set('new_base', `po/${component.slug}.pot`);
      form.set('source_language', 'en');
      form.set('is_glossary', component.glossary === true ? 'true' : 'false');
      form.set('zipfile', await zipOf(model, plan, component, server.venv), 'seed.zip');
      if (component.category !== undefined) {
        const category = (await api.call('POST', 'categories/', {
          name: component.category,
          slug: component.category,
          project: new URL(`projects/${plan.project}/`, server.url).href,
        })) as { url: string };
        form.set('category', category.url);
      }
      await api.call('POST', `projects/${plan.project}/components/`, form);
      components.push([plan.project, component.category, component.slug].filter(Boolean).join('/'));
    }
  }

  const label = (await api.call('POST', 'projects/humanize/labels/', { name: 'needs context', description: 'Ask the developers', color: 'orange' })) as {
    id: number;
  };
  const units = await api.all<{ id: number; translation: string }>('translations/humanize/humanize/en/units/');
  await api.call('PATCH', `units/${units[0]!.id}/`, { labels: [label.id] });
  const screenshot = new FormData();
  screenshot.set('name', 'Number formatting');
  screenshot.set('project_slug', 'humanize');
  screenshot.set('component_slug', 'humanize');
  screenshot.set('language_code', 'en');
  screenshot.set('image', new Blob([png], { type: 'image/png' }), 'screenshot.png');
  await api.call('POST', 'screenshots/', screenshot);

  // Keys and membership: the API makes neither (a project key is a bot user, ProjectTokenCreateForm).
  const privateProject = plans.find((plan) => plan.private)!.project;
  const made = await server.shell(`
import json
from weblate.auth.models import User
from weblate.trans.models import Component, Project
from weblate.trans.forms import ProjectTokenCreateForm
# Made from an uploaded ZIP, a component has suggestions off (a multipart form sends no
# enable_suggestions, which the API reads as false): on for the one seedNews suggests in.
Component.objects.filter(project__slug="humanize", slug="humanize").update(enable_suggestions=True)
project = Project.objects.get(slug=${JSON.stringify(privateProject)})
project.access_control = Project.ACCESS_PRIVATE
project.save()
user = User.objects.create(username="translator", full_name="Tomáš Translator", email="tomas@example.org")
project.add_user(user, "Translate")
form = ProjectTokenCreateForm(project, {"full_name": "tmsnap", "date_expires": "2099-12-31"})
assert form.is_valid(), form.errors
bot = form.save()
print(json.dumps({"user": user.auth_token.key, "project": bot.auth_token.key}))
`);
  const keys = JSON.parse(made.trim().split('\n').at(-1)!) as { user: string; project: string };
  // Weblate 5.14 caches the anonymous user once per process (weblate/auth/models.py,
  // `get_anonymous` under functools.cache), and with it the projects it may see: a project made
  // private by another process can stay listed to anonymous clients. 2026.x copies it per
  // request. A new process sees the project private from its first request on.
  await server.restart();
  const news = await seedNews(api, privateProject);
  return {
    tokens: { admin: adminToken, ...keys },
    components,
    publicProjects: plans.filter((plan) => !plan.private).map((plan) => plan.project),
    privateProject,
    user: 'translator',
    ...(news === undefined ? {} : { news }),
  };
}

/**
 * Weblate 2026's announcements (a project's `announcements/`, POST with the admin key) of a
 * public project and of the private one, and a suggestion (a unit's `suggestions/`, POST) on a
 * public string of one form; none on a server whose projects link no `announcements_url` (5.14).
 */
async function seedNews(api: WeblateClient, privateProject: string): Promise<Seeded2026 | undefined> {
  const project = (await api.call('GET', 'projects/humanize/')) as { announcements_url?: string };
  if (project.announcements_url === undefined) return undefined;
  const publicAnnouncement = { project: 'humanize', message: 'String freeze for humanize 4.5 on Friday.\nPlease check the plural forms first.' };
  const privateAnnouncement = { project: privateProject, message: 'Embargoed: django-filter 24 strings stay private until its release.' };
  for (const { project: slug, message } of [publicAnnouncement, privateAnnouncement])
    await api.call('POST', `projects/${slug}/announcements/`, { message, severity: 'warning', expiry: null, notify: false });
  const translation = 'humanize/humanize/de';
  const units = await api.all<{ id: number; source: string[]; state: number }>(`translations/${translation}/units/`);
  const unit = units.find((row) => row.source.length === 1 && row.state < 100)!;
  const target = 'Vorschlag aus dem tmsnap-Test';
  await api.call('POST', `units/${unit.id}/suggestions/`, { target: [target] });
  return { publicAnnouncement, privateAnnouncement, suggestion: { unit: unit.id, translation, target } };
}
