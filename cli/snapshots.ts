import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatListing, snapshotListings } from '../archive/listing.ts';
import { tagsFileName } from '../snapshot/content.ts';
import { type Command, CommandFailure, exitCodes, parseArchiveCommandLine, printJson } from './command.ts';

const help = `Usage: tmsnap snapshots [options]

Lists the snapshots in the content folder, newest first: id (the crawl's UTC start time), the
release tags pinned to it (tmsnap tag; a column shown when the archive has tags), state
(complete, incomplete, in progress, damaged: its manifest does not read, or an object it needs
is missing when its sizes are first counted; tmsnap verify checks every object), scope (whole
instance, or the projects and change window the crawl was limited to, and the server when the
archive holds more than one), counts, size of everything the snapshot needs, what it added over
the snapshot before it (objects are shared), and notes: how many raw records it holds (records
that did not fit their schema, kept as they came), problems of the data, kinds of resource the
crawl's credentials could not read, and an unfinished snapshot no crawl can resume (tmsnap
prune --leftovers removes those; the next crawl of the same server and scope resumes the
others). diff and search take by default snapshots of one server and scope. Sizes are counted
once per snapshot and kept in its sizes.json (when no other tmsnap is writing the archive).

Options:
  --content DIR   the archive folder (default: content, or TMSNAP_CONTENT)
  --json          one JSON array, for scripts; each snapshot's scope also as projects (null:
                  the whole instance) and changesSince; leftover: no crawl can resume it;
                  tags: the release tags pinned to it
  -h, --help      this help`;

/**
 * The release tags of each snapshot. Their module (and its schema, zod) is loaded only when the
 * archive has tags: the listing starts about as fast as Node (docs/decisions/2026-11-29-listing-start.md).
 * A damaged tags file hides no snapshot: the listing goes on without tags, and says why.
 */
async function pinnedTags(content: string): Promise<Map<string, string[]>> {
  if (!existsSync(join(content, tagsFileName))) return new Map();
  const [{ archiveTags }, { pinnedSnapshots }] = await Promise.all([import('./snapshot-names.ts'), import('../archive/tags.ts')]);
  const tags = await archiveTags(content).catch((error: unknown) => {
    if (!(error instanceof CommandFailure)) throw error;
    console.error(`tmsnap snapshots: ${error.message}; tags not shown`);
    return [];
  });
  return pinnedSnapshots(tags);
}

export const command: Command = {
  summary: 'list the snapshots with date, scope, counts, size and state',
  help,
  async run(args) {
    const { values } = parseArchiveCommandLine(args);
    const listings = await snapshotListings(values.content, await pinnedTags(values.content));
    if (values.json) printJson(listings);
    else console.log(formatListing(listings));
    return exitCodes.ok;
  },
};
