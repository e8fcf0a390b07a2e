// The 94 tombstones ship as files of their own (never inlined into the script), so that they
// load lazily and a failed one can be replaced. Fixture paths look like
// 'transactions/094.svg'; the glob is rooted at the app (Vite resolves '/node_modules/...'
// through the workspace link), since a glob cannot start with a package name.
const imageUrls = import.meta.glob<string>('/node_modules/@everest/fixtures/files/transactions/*.svg', {
  eager: true,
  query: '?no-inline',
  import: 'default',
});

/** The URL of a tombstone image, or null when the file is not part of the build. */
export function tombstoneUrl(image: string): string | null {
  return imageUrls[`/node_modules/@everest/fixtures/files/${image}`] ?? null;
}
