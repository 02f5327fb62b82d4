/**
 * The unit positions the bulk writers hand to the changes pages (site-model/positions.ts) are
 * files named after a translation's path, which the server chooses: Weblate allows slugs of 100
 * characters, so a path can be longer than a file name may be (255 bytes on ext4), and it holds
 * slashes and dots.
 */
import { describe, expect, it } from 'vitest';
import { PositionsReader, positionOf, positionsChannel, publishPositions, unitPositions } from '../../site-model/positions.ts';
import { useTempFolders } from '../helpers/temp.ts';

const tempFolder = useTempFolders('tmsnap-positions-');

describe('unit positions handed over by file', () => {
  it('hands over the positions of a translation whose path is longer than a file name may be', async () => {
    const dir = await tempFolder();
    const slug = 'a'.repeat(100);
    const translation = `projects/${slug}/components/${slug}/translations/../sr_Latn@${'x'.repeat(60)}/`;
    expect(Buffer.byteLength(translation)).toBeGreaterThan(255);
    const units = [{ id: 30 }, { id: 10 }, { id: 20 }];
    const channel = positionsChannel(dir);
    try {
      await publishPositions(dir, channel, translation, unitPositions(units));
    } finally {
      channel.close();
    }
    const positions = await new PositionsReader(dir).positions(translation);
    expect([10, 20, 30, 40].map((id) => positionOf(positions, id))).toEqual([1, 2, 0, undefined]);
  });
});
