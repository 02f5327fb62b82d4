import type { APIRoute } from 'astro';
import stylesheet from '../../styles/site.css?raw';

// One stylesheet file linked relatively from every page: smaller pages than inlining, and
// unlike Astro's bundled assets (absolute `/_astro/…` URLs) it works from file:// too.
export const GET: APIRoute = () => new Response(stylesheet, { headers: { 'Content-Type': 'text/css' } });
