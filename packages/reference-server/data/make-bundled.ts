/**
 * Makes `packages/reference-server/data/bundled/` from real gettext catalogs in Debian packages.
 *
 *   node packages/reference-server/data/make-bundled.ts [work-dir]
 *
 * Needs root (apt-get), `dpkg-deb` and `msgunfmt` (package gettext). Downloads the pinned
 * packages of `spec.ts`, extracts them, reads the shipped `.po` files or decompiles the
 * `.mo` ones with `msgunfmt`, and writes the dataset. Re-running gives the same bytes.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringifyJson } from '../../../api/json.ts';
import { COMPONENTS, LANGUAGES, PACKAGES, SOURCE_LANGUAGE, type ComponentSpec, type DebianPackage } from './spec.ts';
import { buildInstance, entryKey, type BundledInstance, type ParsedComponent, type Plurals } from './build.ts';
import { parsePluralForms, parsePo, type PoCatalog, type PoEntry } from './po.ts';

const OUTPUT = join(dirname(fileURLToPath(import.meta.url)), 'bundled');

function run(command: string, args: string[], cwd?: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

interface Fetched {
  pkg: DebianPackage;
  deb: string;
  sha256: string;
  root: string;
}

function fetchPackage(pkg: DebianPackage, work: string): Fetched {
  const debs = join(work, 'debs');
  mkdirSync(debs, { recursive: true });
  const existing = readdirSync(debs).find((f) => f.startsWith(`${pkg.name}_`) && f.endsWith('.deb'));
  if (existing === undefined) {
    console.log(`downloading ${pkg.name}=${pkg.version}`);
    run('apt-get', ['download', `${pkg.name}=${pkg.version}`], debs);
  }
  const deb = readdirSync(debs).find((f) => f.startsWith(`${pkg.name}_`) && f.endsWith('.deb'));
  if (deb === undefined) throw new Error(`apt-get download ${pkg.name}=${pkg.version} left no .deb in ${debs}`);
  const path = join(debs, deb);
  const version = run('dpkg-deb', ['-f', path, 'Version']).trim();
  if (version !== pkg.version) {
    throw new Error(`${path} is version ${version}, expected ${pkg.version}: delete it or update PACKAGES in spec.ts`);
  }
  const root = join(work, 'root', pkg.name);
  if (!existsSync(root)) {
    mkdirSync(root, { recursive: true });
    run('dpkg-deb', ['-x', path, root]);
  }
  return { pkg, deb, sha256: createHash('sha256').update(readFileSync(path)).digest('hex'), root };
}

function readCatalog(root: string, path: string, read: 'po' | 'mo'): PoCatalog | undefined {
  const file = join(root, `${path}.${read}`);
  if (!existsSync(file)) return undefined;
  const text = read === 'po' ? readFileSync(file, 'utf8') : run('msgunfmt', ['--no-wrap', file]);
  return parsePo(text, file);
}

function sourceEntries(spec: ComponentSpec, root: string, catalogs: ReadonlyMap<string, PoCatalog>): PoEntry[] {
  let entries: PoEntry[];
  if (spec.source === 'union') {
    const union = new Map<string, PoEntry>();
    for (const code of [...catalogs.keys()].sort()) {
      for (const entry of catalogs.get(code)?.entries ?? []) {
        const key = entryKey(entry.context, entry.source[0] ?? '');
        if (!union.has(key)) union.set(key, { ...entry, target: entry.source, fuzzy: false, previousSource: [] });
      }
    }
    // Code-unit order, like msgunfmt's own output: independent of the machine's locale.
    entries = [...union.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
  } else {
    const path = 'locale' in spec.source ? spec.catalog.replace('{locale}', spec.source.locale) : spec.source.template.replace(/\.pot$/, '');
    const file = 'locale' in spec.source ? `${path}.po` : `${path}.pot`;
    const text = readFileSync(join(root, file), 'utf8');
    entries = parsePo(text, join(root, file)).entries;
  }
  if (spec.locationPrefix !== undefined) {
    const prefix = spec.locationPrefix;
    entries = entries.filter((e) => e.locations.some((l) => l.startsWith(prefix)));
  }
  return entries;
}

function parseComponent(spec: ComponentSpec, fetched: ReadonlyMap<string, Fetched>): ParsedComponent {
  const pkg = fetched.get(spec.package);
  if (pkg === undefined) throw new Error(`component ${spec.slug}: package ${spec.package} is not in PACKAGES`);
  const catalogs = new Map<string, PoCatalog>();
  for (const [code, locale] of Object.entries(spec.locales)) {
    const catalog = readCatalog(pkg.root, spec.catalog.replace('{locale}', locale), spec.read);
    if (catalog === undefined) console.log(`  ${spec.slug}: no catalog for ${code} (${locale}), skipped`);
    else catalogs.set(code, catalog);
  }
  return { spec, sourceEntries: sourceEntries(spec, pkg.root, catalogs), catalogs };
}

/** Each language's plural rule, from its Django core catalog (the most complete one). */
function readPlurals(fetched: ReadonlyMap<string, Fetched>): Plurals {
  const core = COMPONENTS.find((c) => c.slug === 'core');
  const django = fetched.get('python3-django');
  if (core === undefined || django === undefined) throw new Error('the Django core component gives the plural rules');
  const plurals = new Map<string, { number: number; formula: string }>();
  for (const language of LANGUAGES) {
    const locale = language.code === SOURCE_LANGUAGE ? SOURCE_LANGUAGE : core.locales[language.code];
    const catalog = locale === undefined ? undefined : readCatalog(django.root, core.catalog.replace('{locale}', locale), 'po');
    const rule = parsePluralForms(catalog?.headers['Plural-Forms'] ?? '');
    if (rule === undefined) throw new Error(`Django core catalog of ${language.code} has no usable Plural-Forms header`);
    plurals.set(language.code, rule);
  }
  return plurals;
}

/** A JSON array written one element per line, so that git diffs of the dataset stay readable. */
function jsonLines(rows: readonly unknown[]): string {
  return rows.length === 0 ? '[]' : `[\n${rows.map((row) => stringifyJson(row)).join(',\n')}\n]`;
}

function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

function writeDataset(instance: BundledInstance, fetched: readonly Fetched[]): void {
  const unitsDir = join(OUTPUT, 'units');
  rmSync(unitsDir, { recursive: true, force: true });
  mkdirSync(unitsDir, { recursive: true });
  const sections = {
    languages: instance.languages,
    users: instance.users,
    projects: instance.projects,
    components: instance.components,
    translations: instance.translations,
    notifications: instance.notifications,
    changes: instance.changes,
  };
  const body = Object.entries(sections)
    .map(([name, rows]) => `${JSON.stringify(name)}: ${jsonLines(rows)}`)
    .join(',\n');
  writeAtomically(join(OUTPUT, 'instance.json'), `{\n${body}\n}\n`);
  for (const [componentId, rows] of instance.units) {
    writeAtomically(join(unitsDir, `${componentId}.json`), `${jsonLines(rows)}\n`);
  }
  const sources = fetched.map((f) => ({
    package: f.pkg.name,
    version: f.pkg.version,
    file: f.deb,
    sha256: f.sha256,
    upstream: f.pkg.upstream,
    license: f.pkg.license,
  }));
  writeAtomically(join(OUTPUT, 'sources.json'), `${JSON.stringify(sources, null, 2)}\n`);
}

function main(): void {
  const work = process.argv[2] ?? join(tmpdir(), 'tmsnap-bundled');
  mkdirSync(work, { recursive: true });
  console.log(`work dir ${work}; apt-get update`);
  run('apt-get', ['update']);
  const fetched = PACKAGES.map((pkg) => fetchPackage(pkg, work));
  const byName = new Map(fetched.map((f) => [f.pkg.name, f]));
  const parsed = COMPONENTS.map((spec) => {
    console.log(`reading ${spec.project}/${spec.slug}`);
    return parseComponent(spec, byName);
  });
  const instance = buildInstance(parsed, readPlurals(byName));
  mkdirSync(OUTPUT, { recursive: true });
  writeDataset(instance, fetched);
  const unitCount = [...instance.units.values()].reduce((sum, rows) => sum + rows.length, 0);
  console.log(
    `wrote ${OUTPUT}: ${instance.projects.length} projects, ${instance.components.length} components, ` +
      `${instance.translations.length} translations, ${unitCount} units, ${instance.changes.length} changes`,
  );
}

main();
