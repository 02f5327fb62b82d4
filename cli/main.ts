import { type Command, UsageError, exitCodes } from './command.ts';
import { version } from './version.ts';

// Each subcommand is loaded only when asked for, so `tmsnap --help` does not pay for Astro.
const commands: Record<string, () => Promise<Command>> = {
  demo: async () => (await import('./demo.ts')).command,
  'reference-server': async () => (await import('./reference-server.ts')).command,
  crawl: async () => (await import('./crawl.ts')).command,
  build: async () => (await import('./build.ts')).command,
  preview: async () => (await import('./preview.ts')).command,
  export: async () => (await import('./export.ts')).command,
  snapshots: async () => (await import('./snapshots.ts')).command,
  prune: async () => (await import('./prune.ts')).command,
  verify: async () => (await import('./verify.ts')).command,
  pack: async () => (await import('./pack.ts')).command,
  unpack: async () => (await import('./unpack.ts')).command,
  search: async () => (await import('./search.ts')).command,
  diff: async () => (await import('./diff.ts')).command,
};

async function overview(): Promise<string> {
  const lines = [`tmsnap ${version}: a Weblate server as a static status site and an offline archive`, '', 'Usage: tmsnap <command> [options]', '', 'Commands:'];
  for (const [name, load] of Object.entries(commands)) lines.push(`  ${name.padEnd(18)} ${(await load()).summary}`);
  lines.push('', 'Run `tmsnap <command> --help` for its options.');
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(await overview());
    return name === undefined ? exitCodes.usage : exitCodes.ok;
  }
  if (name === '--version') {
    console.log(version);
    return exitCodes.ok;
  }
  const load = commands[name];
  if (!load) {
    console.error(`tmsnap: unknown command "${name}". Commands: ${Object.keys(commands).join(', ')}.`);
    return exitCodes.usage;
  }
  const command = await load();
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.help);
    return exitCodes.ok;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`tmsnap ${name}: ${error.message}\nRun \`tmsnap ${name} --help\` for the options.`);
      return exitCodes.usage;
    }
    throw error;
  }
}
