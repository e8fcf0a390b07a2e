// The portraits ship with the site as files of their own (never inlined into the script, so
// that they load lazily and a failed one can be hidden). Fixture paths look like
// 'team/elaine-park.svg'; the glob is rooted at the app (Vite resolves '/node_modules/...'
// through the workspace link), since a glob cannot start with a package name.
const photoUrls = import.meta.glob<string>('/node_modules/@everest/fixtures/files/team/*.svg', {
  eager: true,
  query: '?no-inline',
  import: 'default',
});

/** The URL of a team member's photo, or null when the file is not part of the build. */
export function teamPhotoUrl(image: string): string | null {
  return photoUrls[`/node_modules/@everest/fixtures/files/${image}`] ?? null;
}
