// The sentences of matching K-1s by content in the sync (content-match.ts), apart so that the
// manifest batch can say one of them without importing the matching.

export const contentMatchMessages = {
  notPdf: 'Match by content reads PDFs only: name this file’s investor in the manifest draft',
  noInvestorList: 'This portal does not list the investors content matching reads: update the portal, or write a manifest.csv',
  draftAt: (file: string) => `The manifest draft is ${file}: complete it and drop it back as manifest.csv`,
  sectionsAt: (folder: string) => `the pages that need a person are files of their own in ${folder}: copy them beside the manifest`,
  /** A file content matching left for a person, in a folder that has a manifest.csv since that does not name it. */
  matchedBefore: 'Not named by manifest.csv: matching by content left it for a person (see the manifest draft)',
} as const;
