#!/usr/bin/env node
// The CLI is TypeScript run through tsx's loader, so there is no build step between a
// clone and a working `tmsnap` (see README, "Why tsx").
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
