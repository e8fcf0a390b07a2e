import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUsers, fixtureFile, k1CombinedSample, k1SampleFiles, type K1Expectation } from '@everest/fixtures';
import { k1PageTexts } from '@everest/fixtures/k1';
import { contentMatchingMessages, investorIdentifiers, matchDocument, splitCombined, type ContentMatch, type IdentifierIndex } from '@everest/core/domain';
import { startTestServer, type TestServer } from '../../test/harness';
import { contentMatchingInvestors } from '../features/personal-documents/content-matching-investors';
import { InvestorIdentifier } from '../features/users/investor-identifier.entity';
import { User } from '../features/users/user.entity';
import { seedDemoData } from './seed';

// The started product's demo must match the sample K-1s as fixtures' k1-samples says: the seed
// saves the demo investors' added identifiers, and core's rule, given the investors the server
// answers Match by content, gives each sample its expected investor or leaves it to a person.

type Place = 'in this PDF' | 'on these pages';

function reasonOf(expected: Extract<K1Expectation, { kind: 'needs-person' }>, place: Place): string {
  switch (expected.why) {
    case 'scan':
      return contentMatchingMessages.scan;
    case 'several-investors':
      return contentMatchingMessages.severalInvestors(place);
    case 'last-4-disagrees':
      return contentMatchingMessages.lastFourDisagrees(place);
    case 'before-first-identifier':
      return contentMatchingMessages.beforeFirstIdentifier;
    case 'shared-identifier':
      // The only shared identifier of the demo is the two John Smiths' name.
      return contentMatchingMessages.shared('John Smith', place);
  }
}

describe('the demo seed', () => {
  let server: TestServer;
  let index: IdentifierIndex;
  let emailOf: (id: number) => string;
  const em = () => server.services.orm.em.fork();

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    const { investors } = await contentMatchingInvestors(em());
    index = investorIdentifiers(investors);
    const emails = new Map(investors.map((i) => [i.id, i.email]));
    emailOf = (id) => emails.get(id) ?? `#${id}`;
  });
  afterAll(async () => {
    await server.close();
  });

  const asExpected = (match: ContentMatch) =>
    match.kind === 'matched'
      ? { kind: 'matched', investor: emailOf(match.investorId) }
      : { kind: 'needs-person', reason: match.reason, candidates: match.candidates.map(emailOf).sort() };
  const expected = (expect: K1Expectation, place: Place) =>
    expect.kind === 'matched' ? expect : { kind: 'needs-person', reason: reasonOf(expect, place), candidates: [...expect.candidates].sort() };

  it("saves every demo investor's added identifiers as the fixtures type them, and none for the others", async () => {
    const rows = await em().find(InvestorIdentifier, {}, { populate: ['user'], orderBy: { id: 'asc' } });
    const saved = new Map<string, string[]>();
    for (const row of rows) saved.set(row.user.email, [...(saved.get(row.user.email) ?? []), row.identifier]);
    const wanted = new Map(demoUsers.filter((u) => u.identifiers?.length).map((u) => [u.email, u.identifiers]));
    expect(wanted.size).toBeGreaterThanOrEqual(6);
    expect(Object.fromEntries(saved)).toEqual(Object.fromEntries(wanted));
  });

  it('gives each single sample K-1 the investor the samples expect, or leaves it to a person for their reason', async () => {
    for (const sample of k1SampleFiles) {
      const match = matchDocument(await k1PageTexts(readFileSync(fixtureFile(sample.file))), index);
      expect(asExpected(match), sample.file).toEqual(expected(sample.expect, 'in this PDF'));
      expect(match.taxYear, sample.file).toBe(sample.taxYear);
    }
  });

  it('cuts the combined sample into the sections the samples expect, each with its investor', async () => {
    const sections = splitCombined(await k1PageTexts(readFileSync(fixtureFile(k1CombinedSample.file))), index);
    expect(sections.map((s) => ({ pages: s.pages, ...asExpected(s), taxYear: s.taxYear }))).toEqual(
      k1CombinedSample.sections.map((s) => ({ pages: s.pages, ...expected(s.expect, 'on these pages'), taxYear: s.taxYear })),
    );
  });

  it('seeds a database only once', async () => {
    const users = await em().count(User, {});
    expect(await seedDemoData(em(), server.services.files)).toBe('skipped');
    expect(await em().count(User, {})).toBe(users);
    expect(await em().count(InvestorIdentifier, {})).toBe(demoUsers.reduce((n, u) => n + (u.identifiers?.length ?? 0), 0));
  });
});
