import type { ComponentFields } from './model.ts';

/**
 * What Weblate fills a new component's settings with (its English message templates
 * included): the datasets start from these and set what is their own.
 */
export const componentDefaults: ComponentFields = {
  vcs: 'git',
  repo: '',
  git_export: '',
  branch: 'main',
  push_branch: '',
  filemask: '',
  template: '',
  edit_template: true,
  intermediate: '',
  new_base: '',
  file_format: 'po',
  license: '',
  license_url: null,
  agreement: '',
  new_lang: 'add',
  language_code_style: '',
  push: '',
  check_flags: '',
  priority: 100,
  enforced_checks: [],
  restricted: false,
  repoweb: '',
  report_source_bugs: '',
  merge_style: 'rebase',
  commit_message:
    'Translated using Weblate ({{ language_name }})\n\nCurrently translated at {{ stats.translated_percent }}% ({{ stats.translated }} of {{ stats.all }} strings)\n\nTranslation: {{ project_name }}/{{ component_name }}\nTranslate-URL: {{ url }}',
  add_message: 'Added translation using Weblate ({{ language_name }})\n\n',
  delete_message: 'Deleted translation using Weblate ({{ language_name }})\n\n',
  merge_message: "Merge branch '{{ component_remote_branch }}' into Weblate.\n\n",
  addon_message:
    'Update translation files\n\nUpdated by "{{ addon_name }}" hook in Weblate.\n\nTranslation: {{ project_name }}/{{ component_name }}\nTranslate-URL: {{ url }}',
  pull_message:
    'Translations update from {{ site_title }}\n\nTranslations update from [{{ site_title }}]({{ site_url }}) for [{{ project_name }}/{{ component_name }}]({{url}}).\n\n{% if component_linked_childs %}\nIt also includes following components:\n{% for linked in component_linked_childs %}\n* [{{ linked.project_name }}/{{ linked.name }}]({{ linked.url }})\n{% endfor %}\n{% endif %}\n\nCurrent translation status:\n\n![Weblate translation status]({{widget_url}})\n',
  allow_translation_propagation: true,
  manage_units: false,
  enable_suggestions: true,
  suggestion_voting: false,
  suggestion_autoaccept: 0,
  push_on_commit: true,
  commit_pending_age: 24,
  auto_lock_error: true,
  language_regex: '^[^.]+$',
  variant_regex: '',
  addons: [],
  is_glossary: false,
  glossary_color: 'silver',
};
