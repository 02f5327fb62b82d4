import type { APIRoute, GetStaticPaths } from 'astro';
import { safeFileName, safeSegment } from '../../../../../../../site/paths.ts';
import { siteTree, type TranslationEntry } from '../../../../../../data/tree.ts';

/** The raw translation file exactly as the crawl archived it, for download. */
export const getStaticPaths = (async () => {
  const { snapshot, translations } = await siteTree();
  const stored = snapshot.paths();
  return translations
    .filter((translation) => stored.has(`${translation.path}file/`))
    .map((translation) => ({
      params: {
        project: safeSegment(translation.key.project),
        component: safeSegment(translation.key.component),
        language: safeSegment(translation.key.language),
        name: safeFileName(translation.record.filename),
      },
      props: { translation },
    }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const { snapshot } = await siteTree();
  const { translation } = props as { translation: TranslationEntry };
  const file = await snapshot.file(translation.path);
  if (!file) throw new Error(`snapshot ${snapshot.id}: ${translation.path}file/ vanished while building`);
  // Served as an opaque download whatever the server claimed, so a hostile file cannot run as a page.
  return new Response(new Uint8Array(file.bytes), { headers: { 'Content-Type': 'application/octet-stream' } });
};
