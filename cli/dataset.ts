import { homedir } from 'node:os';
import { dirname, join, parse, sep } from 'node:path';
import { TagError } from '../archive/tags.ts';
import { parquetMarker } from '../dataset/schema.ts';
import { readHeader, sqliteHeaderKind } from '../dataset/sqlite.ts';
import { DatasetError, writeDataset, type DatasetFormat } from '../dataset/write.ts';
import { type Command, CommandFailure, OutputRefused, UsageError, exitCodes, parseArchiveCommandLine, printJson } from './command.ts';
import { canonicalPath, inspectOutput, type PathFacts } from './output-guard.ts';
import { version } from './version.ts';

const help = `Usage: tmsnap dataset --format sqlite|parquet --out PATH [options]

The archive as tables for DuckDB, Datasette, Spark and the like (docs/dataset.md): per
snapshot, the projects, components, translations and languages with their statistics; the
strings as versions, each with the snapshots it was first and last seen in; every change
once; the release tags. Only what an anonymous visitor of the server sees, as on the site: no
private project, no e-mail address.

Run again after a crawl, it adds the new snapshots to the dataset without writing it all
again, keeping those pruned from the archive since; a run stopped half-way leaves the
previous dataset as it was. The dataset holds the complete snapshots of one server and
scope: that of --snapshot, else of the newest.

Options:
  --format FORMAT  sqlite (one file, for Datasette and sqlite3) or parquet (a folder,
                   hive-partitioned by month, for DuckDB, Spark and object stores)
  --out PATH       the SQLite file or the Parquet folder; created if missing, added to if
                   tmsnap wrote it, refused if it holds anything else
  --snapshot ID    the newest snapshot to include, or a release tag (tmsnap tag) (default:
                   the newest complete one)
  --since WHEN     only snapshots from then on: a release tag, a snapshot id or a UTC date
                   YYYY-MM-DD (default: all)
  --content DIR    the archive folder (default: content, or TMSNAP_CONTENT)
  --json           the summary as JSON on stdout
  -h, --help       this help`;

const example: Record<DatasetFormat, string> = { sqlite: 'dataset.sqlite', parquet: 'dataset' };

function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/**
 * Why `--out` may not name `target`, in one line, or undefined when it may: never a file or
 * folder tmsnap did not write (`ours` says whether the one there is a dataset of this format),
 * never the root or home folder, never in or around the archive.
 */
export function datasetOutputRefusal(
  target: PathFacts,
  context: { cwd: string; home: string; archive: string },
  format: DatasetFormat,
  ours: boolean,
): string | undefined {
  const path = target.path;
  const shown = `--out ${path}`;
  const suggestion = `--out ${join(dirname(path), example[format])}`;
  if (target.fileAbove !== undefined)
    return `${shown}: ${target.fileAbove} is a file, not a folder; give a path under a folder, e.g. --out ${join(dirname(target.fileAbove), example[format])}`;
  if (path === parse(path).root || path === context.home)
    return `refusing ${shown}: give a ${format === 'sqlite' ? 'file' : 'folder'} of its own, e.g. ${suggestion}`;
  if (inside(path, context.archive) || inside(context.archive, path)) {
    return `refusing ${shown}: it is, holds or lies inside the archive ${context.archive} (--content); give a path outside it, e.g. --out ${join(dirname(context.archive), example[format])}`;
  }
  if (format === 'sqlite') {
    if (target.type === 'folder') return `${shown} is a folder: --format sqlite writes one file, e.g. --out ${join(path, example.sqlite)}`;
    if (target.type === 'file' && !ours) return `refusing ${shown}: the file exists and is not a tmsnap dataset; give a new file name, e.g. ${suggestion}`;
    return undefined;
  }
  if (target.type === 'file') return `${shown} is a file: --format parquet writes a folder, e.g. ${suggestion}`;
  const foreign = target.entries.filter((name) => name !== '.git').sort();
  if (target.type === 'folder' && foreign.length > 0 && !ours) {
    const sample = foreign.slice(0, 2).join(', ') + (foreign.length > 2 ? ', …' : '');
    return `refusing ${shown}: it holds files tmsnap did not write (${sample}); give an empty or new folder, e.g. ${suggestion}`;
  }
  return undefined;
}

async function guardDatasetOutput(out: string, format: DatasetFormat, archive: string): Promise<void> {
  const target = await inspectOutput(out);
  let ours = false;
  if (format === 'sqlite' && target.type === 'file') ours = sqliteHeaderKind(await readHeader(target.path)) === 'dataset';
  if (format === 'parquet' && target.type === 'folder') ours = target.entries.includes(parquetMarker);
  const context = { cwd: await canonicalPath(process.cwd()), home: await canonicalPath(homedir()), archive: await canonicalPath(archive) };
  const refusal = datasetOutputRefusal(target, context, format, ours);
  if (refusal !== undefined) throw new OutputRefused(refusal);
}

export const command: Command = {
  summary: 'write the archive as SQLite or Parquet tables, for DuckDB and Datasette',
  help,
  async run(args) {
    const { values } = parseArchiveCommandLine(
      args,
      { format: { type: 'string' }, out: { type: 'string' }, snapshot: { type: 'string' }, since: { type: 'string' } },
      {
        check: ({ values: given }) => {
          if (given.format === undefined) throw new UsageError('--format is required: sqlite or parquet');
          if (given.format !== 'sqlite' && given.format !== 'parquet') throw new UsageError(`--format "${given.format}": expected sqlite or parquet`);
          if (given.out === undefined || given.out === '')
            throw new UsageError(`--out is required: the ${given.format === 'sqlite' ? 'file' : 'folder'} to write`);
        },
      },
    );
    const format = values.format as DatasetFormat;
    const out = values.out!;
    await guardDatasetOutput(out, format, values.content);
    const progress = (line: string) => process.stderr.write(`tmsnap dataset: ${line}\n`);
    try {
      const summary = await writeDataset({
        content: values.content,
        out: await canonicalPath(out),
        format,
        snapshot: values.snapshot,
        since: values.since,
        tmsnapVersion: version,
        ...(values.json ? {} : { onProgress: progress }),
      });
      if (values.json) printJson(summary);
      else {
        const how = summary.added.length === 0 ? 'up to date' : summary.incremental ? `${summary.added.length} snapshot(s) added` : 'written';
        console.log(
          `dataset ${summary.out} (${format}): ${how}; ${summary.snapshots} snapshot(s), ${summary.unitVersions.opened} new string versions, ${summary.changes} new changes`,
        );
      }
      return exitCodes.ok;
    } catch (error) {
      if (error instanceof DatasetError || error instanceof TagError) throw new CommandFailure(error.message);
      throw error;
    }
  },
};
