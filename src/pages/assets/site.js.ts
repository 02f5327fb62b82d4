import type { APIRoute } from 'astro';
import script from '../../scripts/site.js?raw';

export const GET: APIRoute = () => new Response(script, { headers: { 'Content-Type': 'text/javascript' } });
