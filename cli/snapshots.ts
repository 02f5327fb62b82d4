import { formatListing, snapshotListings } from '../archive/listing.ts';
import { type Command, exitCodes, parseCommandLine } from './command.ts';

const help = `Usage: tmsnap snapshots [options]

Lists the snapshots in the content folder, newest first: id (the crawl's UTC start time),
state (complete, incomplete, in progress, damaged), scope, counts, size of everything the
snapshot needs, what it added over the snapshot before it (objects are shared), and notes:
how many raw records it holds (records that did not fit their schema, kept as they came),
problems of the data, and kinds of resource the crawl's credentials could not read.

Options:
  --content DIR   content folder holding the snapshots (default: content)
  --json          one JSON array, for scripts
  -h, --help      this help`;

export const command: Command = {
  summary: 'list the snapshots with date, scope, counts, size and state',
  help,
  async run(args) {
    const { values } = parseCommandLine(args, { content: { type: 'string', default: 'content' }, json: { type: 'boolean', default: false } });
    const listings = await snapshotListings(values.content);
    console.log(values.json ? JSON.stringify(listings, null, 2) : formatListing(listings));
    return exitCodes.ok;
  },
};
