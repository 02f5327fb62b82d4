import { z } from 'zod';
import { resource } from './fields.ts';
import { url } from './common.ts';
import { language } from './language.ts';
import { project } from './project.ts';

/** Repository fields are `null` when the token may not see them (docs/weblate-api.md, "Values"). */
const repositoryText = z.string().nullable();

export const componentFields = resource(
  'component',
  {
    name: z.string(),
    slug: z.string(),
    source_language: language,
    project,
    vcs: repositoryText,
    repo: repositoryText,
    branch: repositoryText,
    filemask: repositoryText,
    template: repositoryText,
    new_base: repositoryText,
    file_format: z.string(),
    license: z.string(),
    license_url: z.string().nullable(),
    web_url: url,
    url,
    repository_url: url,
    translations_url: url,
    statistics_url: url,
    lock_url: url,
    links_url: url,
    changes_list_url: url,
    new_lang: z.string(),
    check_flags: z.string(),
    priority: z.number().int(),
    /** URL template with `{{branch}}`, `{{filename}}` and `{{line}}`; empty when unknown. */
    repoweb: repositoryText,
    is_glossary: z.boolean(),
  },
  {
    id: z.number().int(),
    git_export: repositoryText,
    push_branch: repositoryText,
    edit_template: z.boolean(),
    intermediate: repositoryText,
    agreement: z.string(),
    task_url: url.nullable(),
    language_code_style: z.string(),
    push: repositoryText,
    enforced_checks: z.array(z.unknown()),
    restricted: z.boolean(),
    report_source_bugs: z.string(),
    merge_style: z.string(),
    commit_message: z.string(),
    add_message: z.string(),
    delete_message: z.string(),
    merge_message: z.string(),
    addon_message: z.string(),
    pull_message: z.string(),
    allow_translation_propagation: z.boolean(),
    manage_units: z.boolean(),
    enable_suggestions: z.boolean(),
    suggestion_voting: z.boolean(),
    suggestion_autoaccept: z.number().int(),
    push_on_commit: z.boolean(),
    commit_pending_age: z.number().int(),
    auto_lock_error: z.boolean(),
    language_regex: z.string(),
    variant_regex: z.string(),
    addons: z.array(z.unknown()),
    glossary_color: z.string(),
    screenshot_filemask: repositoryText,
    file_format_params: z.unknown(),
    credits_url: url,
    key_filter: z.string(),
    secondary_language: z.unknown(),
    category: url.nullable(),
    linked_component: z.unknown(),
    locked: z.boolean(),
  },
);

export const component = componentFields.schema;

export type Component = z.infer<typeof component>;
