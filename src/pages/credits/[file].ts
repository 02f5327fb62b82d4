/** The credits downloads (`build --credits`): `credits/<period>.md` and `.json`, as `tmsnap credits` prints them. */
import type { APIRoute } from 'astro';
import { creditsJson, creditsMarkdown } from '../../../archive/credits.ts';
import { siteCredits, type PeriodCredits } from '../../data/releases.ts';
import { releasePaths } from '../../../site-model/release-paths.ts';

export async function getStaticPaths() {
  return (await siteCredits()).flatMap((period) =>
    (['md', 'json'] as const).map((format) => ({ params: { file: releasePaths.creditsFile(period.key, format).split('/')[1] }, props: { period, format } })),
  );
}

export const GET: APIRoute<{ period: PeriodCredits; format: 'md' | 'json' }> = ({ props }) =>
  new Response(props.format === 'json' ? creditsJson(props.period.projects, props.period.period) : creditsMarkdown(props.period.projects));
