import { notificationKinds } from '../../../api/notification.ts';
import { componentDefaults } from '../component-defaults.ts';
import type { ComponentRow, NotificationRow, ProjectRow, TranslationRow, UserRow } from '../model.ts';
import type { ComponentPlan, Layout, TranslationPlan } from './layout.ts';
import { sourceLanguage } from './languages.ts';
import { chance, mix, pick, topic } from './random.ts';

/** The small collections of a synthetic instance, built whole: their size is bounded by the spec limits. */

const projectNames = [
  'Orchard Notes',
  'Lantern Mail',
  'Harbor Maps',
  'Pebble Player',
  'Tidewater Office',
  'Juniper Browser',
  'Kestrel Photos',
  'Marble Calendar',
  'Quill Editor',
  'Sparrow Chat',
  'Birch Wallet',
  'Cobalt Terminal',
  'Dune Weather',
  'Ember Reader',
  'Fjord Backup',
  'Glacier Sync',
];
const componentNames = [
  'Core',
  'User interface',
  'Documentation',
  'Website',
  'Android app',
  'iOS app',
  'Help pages',
  'Installer',
  'Command line',
  'Release notes',
  'Plugins',
  'Server',
  'Emails',
  'Store listing',
];
const licenses = ['GPL-3.0-or-later', 'MIT', 'Apache-2.0', 'MPL-2.0', 'LGPL-2.1-or-later', 'CC-BY-SA-4.0'];

/** Names cycle through the table; later rounds get a number ("Core 2"), so slugs stay unique. */
function nthName(names: readonly string[], index: number, offset: number): string {
  const round = Math.floor(index / names.length);
  const name = names[(index + offset) % names.length] ?? '';
  return round === 0 ? name : `${name} ${round + 1}`;
}

function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function buildProjects(layout: Layout): ProjectRow[] {
  const { seed, projects } = layout.spec;
  const offset = mix(seed, topic.naming, 0) % projectNames.length;
  return Array.from({ length: projects }, (_, index) => {
    const name = nthName(projectNames, index, offset);
    const slug = slugify(name);
    const draw = (aspect: number) => chance(seed, topic.projectReview, index, aspect);
    return {
      id: index + 1,
      slug,
      name,
      web: `https://${slug}.example.org/`,
      instructions:
        draw(0) < 0.5
          ? `Please keep placeholders such as \`%s\` and \`{name}\` intact.\r\n\r\nAsk in the [${name} forum](https://${slug}.example.org/forum) when in doubt.`
          : '',
      // The first project always reviews, so state 30 (approved) exists at every size.
      translation_review: index === 0 || draw(1) < 0.4,
      source_review: draw(2) < 0.2,
      set_language_team: true,
      enable_hooks: true,
      language_aliases: draw(3) < 0.2 ? 'zh_CN:zh_Hans,zh_TW:zh_Hant' : '',
      private: false,
    };
  });
}

export function buildComponents(layout: Layout, projects: readonly ProjectRow[]): ComponentRow[] {
  const { seed } = layout.spec;
  const offset = mix(seed, topic.naming, 1) % componentNames.length;
  return layout.components.map((plan) => {
    const project = projects[plan.projectIndex] as ProjectRow;
    const name = plan.isGlossary ? 'Glossary' : nthName(componentNames, plan.slot, offset);
    const slug = slugify(name);
    const license = pick(licenses, seed, topic.naming, 2, plan.index);
    const repo = `https://git.example.org/${project.slug}/${slug}.git`;
    return {
      ...componentDefaults,
      id: plan.index + 1,
      projectId: project.id,
      slug,
      name,
      sourceLanguage: sourceLanguage.row.code,
      repo,
      filemask: plan.isGlossary ? 'glossary/*.tbx' : 'po/*.po',
      edit_template: false,
      new_base: plan.isGlossary ? '' : `po/${slug}.pot`,
      file_format: plan.isGlossary ? 'tbx' : 'po',
      license,
      license_url: `https://spdx.org/licenses/${license}.html`,
      repoweb: `https://git.example.org/${project.slug}/${slug}/blob/{{branch}}/{{filename}}#L{{line}}`,
      report_source_bugs: `i18n@${project.slug}.example.org`,
      manage_units: plan.isGlossary,
      is_glossary: plan.isGlossary,
    };
  });
}

export function buildTranslations(layout: Layout, components: readonly ComponentRow[]): TranslationRow[] {
  return layout.translations.map((plan) => ({
    id: plan.id,
    componentId: plan.component.index + 1,
    languageCode: plan.language.row.code,
    filename: filenameOf(plan, components[plan.component.index] as ComponentRow),
    revision: revisionOf(layout.spec.seed, plan),
  }));
}

function filenameOf(plan: TranslationPlan, component: ComponentRow): string {
  const code = plan.language.row.code;
  if (component.is_glossary) return `glossary/${code}.tbx`;
  return plan.targetIndex < 0 ? component.new_base : `po/${code}.po`;
}

function revisionOf(seed: number, plan: TranslationPlan): string {
  // Translations of one component share the repository, hence its revision.
  return Array.from({ length: 5 }, (_, part) => mix(seed, topic.revision, plan.component.index, part).toString(16).padStart(8, '0')).join('');
}

const userTable: readonly [string, string][] = [
  ['admin', 'Site Administrator'],
  ['anna.schmidt', 'Anna Schmidt'],
  ['jmartin', 'Julien Martin'],
  ['lucia', 'Lucía Fernández'],
  ['piotr', 'Piotr Wiśniewski'],
  ['tereza', 'Tereza Dvořáková'],
  ['ivan', 'Иван Петров'],
  ['olena', 'Олена Коваленко'],
  ['milica', 'Милица Јовановић'],
  ['yuki', '佐藤 由紀'],
  ['wei', '王伟'],
  ['mei', '陳美玲'],
  ['minjun', '김민준'],
  ['fatima', 'فاطمة الزهراء'],
  ['dariush', 'داریوش رضایی'],
  ['noa', 'נועה כהן'],
  ['priya', 'प्रिया शर्मा'],
  ['joao', 'João Silva'],
  ['giulia', 'Giulia Rossi'],
  ['sanne', 'Sanne de Vries'],
  ['elif', 'Elif Yılmaz'],
  ['sofia', 'Σοφία Παπαδοπούλου'],
  ['lars', 'Lars Øvergaard'],
  ['aino', 'Aino Mäkinen'],
  ['nguyen', 'Nguyễn Văn An'],
  ['somchai', 'สมชาย ใจดี'],
  ['nino', 'ნინო ბერიძე'],
  ['aoife', 'Aoife Ní Bhriain'],
  // Display names are untrusted input too.
  ['mallory', 'Mallory <img src=x onerror="alert(1)">'],
];

export function buildUsers(): UserRow[] {
  return userTable.map(([username, full_name], index) => ({ id: index + 1, username, full_name }));
}

/** The translators of a target language: three users, so each language has a small team. */
export function translatorOf(users: readonly UserRow[], targetIndex: number, draw: number): UserRow {
  const translators = users.length - 1;
  return users[1 + ((targetIndex * 3 + (draw % 3)) % translators)] as UserRow;
}

/** A few subscriptions for the first users, at every scope (0 all … 40 component). */
export function buildNotifications(layout: Layout, users: readonly UserRow[]): NotificationRow[] {
  const { seed } = layout.spec;
  const rows: NotificationRow[] = [];
  for (const user of users.slice(0, 10)) {
    const count = 1 + (mix(seed, topic.notification, user.id) % 4);
    for (let n = 0; n < count; n++) {
      const draw = (aspect: number) => mix(seed, topic.notification, user.id, n, aspect);
      const scope = [0, 10, 20, 30, 40][(user.id + n) % 5] as number;
      const component = layout.components[draw(1) % layout.components.length] as ComponentPlan;
      rows.push({
        id: rows.length + 1,
        username: user.username,
        notification: pick(notificationKinds, seed, topic.notification, user.id, n, 0),
        scope,
        frequency: draw(2) % 5,
        projectId: scope >= 30 ? component.projectIndex + 1 : null,
        componentId: scope === 40 ? component.index + 1 : null,
      });
    }
  }
  return rows;
}
