/**
 * Which paths may appear in a pack: the archive is untrusted input (it comes from another
 * machine), so unpack accepts only the exact shapes tmsnap writes and never builds a path from
 * anything else. Pure.
 */
import { isSnapshotId, type ObjectExtension } from '../snapshot/index.ts';
import { tagsFile } from './tags.ts';

export type PackEntry =
  | { kind: 'object'; hash: string; extension: ObjectExtension }
  | { kind: 'snapshot-file'; snapshot: string; name: string }
  | { kind: 'tags' }
  | { kind: 'directory' };

const objectEntry = /^objects\/([0-9a-f]{2})\/([0-9a-f]{62})\.(json|raw|json\.gz|raw\.gz|json\.dz|raw\.dz)$/;
const snapshotEntry = /^snapshots\/([^/]+)\/([a-z0-9_-]{1,64}\.json)$/;
const directoryEntry = /^(objects|snapshots)(\/[^/]+)?\/?$/;

/** The entry a pack path names, or a reason it is refused. */
export function classifyPackPath(path: string, type: string): PackEntry | { refused: string } {
  if (type === 'Directory') {
    const match = directoryEntry.exec(path);
    const name = match?.[2]?.slice(1);
    if (match && (name === undefined || (match[1] === 'objects' ? /^[0-9a-f]{2}$/.test(name) : isSnapshotId(name)))) {
      return { kind: 'directory' };
    }
    return { refused: 'not a directory a tmsnap pack holds' };
  }
  if (type !== 'File' && type !== 'OldFile') return { refused: `a ${type} entry (a pack holds only plain files)` };
  const object = objectEntry.exec(path);
  if (object) return { kind: 'object', hash: `${object[1]}${object[2]}`, extension: object[3] as ObjectExtension };
  const file = snapshotEntry.exec(path);
  if (file?.[1] !== undefined && file[2] !== undefined && isSnapshotId(file[1])) return { kind: 'snapshot-file', snapshot: file[1], name: file[2] };
  // The release tags of the packed snapshots; what it says is checked as hostile too (archive/pack.ts).
  if (path === tagsFile) return { kind: 'tags' };
  return {
    refused: `not a path a tmsnap pack holds (objects/<2 hex>/<62 hex>.json|raw|json.gz|raw.gz|json.dz|raw.dz, snapshots/<id>/<name>.json or ${tagsFile})`,
  };
}
