import type { SitePath } from './links.ts';

/** Pages of the archive features; snapshot ids are `[0-9TZ-]` only, safe as path segments. */
export const archivePaths = {
  changesBetweenIndex: (): SitePath => 'changes-between/index.html',
  changesBetween: (from: string, to: string): SitePath => `changes-between/${from}--${to}/index.html`,
};
