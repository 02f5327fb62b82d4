/** An archive of `days` snapshots, one per day, each written by `writeDay` into one new content folder. */
export async function archiveOfDays(
  contentDir: () => Promise<string>,
  days: number,
  writeDay: (content: string, day: number) => Promise<string>,
): Promise<{ content: string; ids: string[] }> {
  const content = await contentDir();
  const ids: string[] = [];
  for (let day = 1; day <= days; day++) ids.push(await writeDay(content, day));
  return { content, ids };
}
