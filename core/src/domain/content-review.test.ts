import { describe, expect, it } from 'vitest';
import { investorIdentifiers, contentMatchingMessages } from './content-matching';
import { contentReviewMessages, draftManifest, pickInvestor, reviewManifest, reviewProblem, reviewRows, rowProblem, setTaxYear, type ReviewInvestor } from './content-review';
import { planBulkManifest, parseManifest } from './bulk-manifest';

const people: (ReviewInvestor & { identifiers: string[] })[] = [
  { id: 1, email: 'jane@example.com', name: 'Jane Investor', entity: '', identifiers: [] },
  { id: 2, email: 'smith@example.com', name: 'John Smith', entity: 'Smith Family Trust', identifiers: [] },
  { id: 3, email: 'bob@example.com', name: 'Bob Lee', entity: '=HYPERLINK("x")', identifiers: [] },
];
const index = investorIdentifiers(people);
const byId = new Map(people.map((p) => [p.id, p]));
const k1 = (who: string) => `Schedule K-1 (Form 1065) 2025\nFor calendar year 2025\nPartner's name: ${who}`;

describe('the review of K-1s matched by content', () => {
  it('gives a one-page PDF to the one investor it names, titled by the year on the form', () => {
    const [row] = reviewRows('K1_2025_00017.pdf', { kind: 'text', pages: [k1('Jane Investor')] }, index);
    expect(row).toMatchObject({ key: 'K1_2025_00017.pdf', pages: null, investorId: 1, matched: true, taxYear: 2025, title: '2025 Schedule K-1', category: 'tax' });
    expect(row!.snippet).toContain('Jane Investor');
    expect(rowProblem(row!)).toBeNull();
  });

  it('cuts a combined PDF into a row per investor, continuation pages with the page before', () => {
    const pages = [k1('Jane Investor'), 'Continuation statement, line 20 code Z', k1('Smith Family Trust'), 'Page without names'];
    const rows = reviewRows('all.pdf', { kind: 'text', pages }, index);
    expect(rows.map((r) => [r.key, r.pages, r.investorId])).toEqual([
      ['all.pdf (pages 1–2)', [1, 2], 1],
      ['all.pdf (pages 3–4)', [3, 4], 2],
    ]);
  });

  it('keeps a PDF nobody can be named for as one row that needs a person, and a scan says it is one', () => {
    const [twoNames] = reviewRows('joint.pdf', { kind: 'text', pages: [`${k1('Jane Investor')} and John Smith`] }, index);
    expect(twoNames).toMatchObject({ investorId: null, matched: false, candidates: [1, 2] });
    expect(rowProblem(twoNames!)).toBe(contentMatchingMessages.severalInvestors('in this PDF'));
    const [scan] = reviewRows('scan.pdf', { kind: 'text', pages: [' ', ''] }, index);
    expect(rowProblem(scan!)).toBe(contentMatchingMessages.scan);
    const [locked] = reviewRows('locked.pdf', { kind: 'unreadable', reason: 'asks for a password' }, index);
    expect(rowProblem(locked!)).toBe('asks for a password');
  });

  it('asks for a title when the form states no year, and the year staff give makes it', () => {
    const [row] = reviewRows('x.pdf', { kind: 'text', pages: ["Partner's name: Jane Investor"] }, index);
    expect(row).toMatchObject({ investorId: 1, taxYear: null, title: '' });
    expect(rowProblem(row!)).toBe(contentReviewMessages.giveTitle);
    expect(setTaxYear(row!, 2024).title).toBe('2024 Schedule K-1');
    expect(setTaxYear({ ...setTaxYear(row!, 2024), title: 'Amended K-1' }, 2025).title).toBe('Amended K-1');
  });

  it('publishes only what staff confirmed: a picked investor, an excluded row left out', () => {
    const rows = [
      ...reviewRows('a.pdf', { kind: 'text', pages: [k1('Jane Investor')] }, index),
      ...reviewRows('scan.pdf', { kind: 'text', pages: [''] }, index),
      ...reviewRows('c.pdf', { kind: 'text', pages: [k1('John Smith')] }, index),
    ];
    expect(reviewProblem(rows)).toBe('1 row needs a person: name each one’s investor and title, or exclude it'.replace('’', "'"));
    const reviewed = [rows[0]!, setTaxYear(pickInvestor(rows[1]!, 3), 2025), { ...rows[2]!, excluded: true }];
    expect(reviewProblem(reviewed)).toBeNull();
    const { csvText, files } = reviewManifest(reviewed, byId);
    expect(files.map((f) => f.fileName)).toEqual(['a.pdf', 'scan.pdf']);
    expect(parseManifest(csvText)).toEqual([
      { email: 'jane@example.com', filename: 'a.pdf', document_category: 'tax', title: '2025 Schedule K-1' },
      { email: 'bob@example.com', filename: 'scan.pdf', document_category: 'tax', title: '2025 Schedule K-1' },
    ]);
    expect(reviewProblem(reviewed.map((r) => ({ ...r, excluded: true })))).toBe(contentReviewMessages.nothingToPublish);
  });

  it("names a section's file after its investor and year, never as a formula, and unique", () => {
    const pages = [k1('Bob Lee'), k1('Jane Investor'), k1('Bob Lee')];
    const rows = reviewRows('all.pdf', { kind: 'text', pages }, index);
    const { csvText, files } = reviewManifest(rows, byId);
    expect(files.map((f) => f.fileName)).toEqual(['HYPERLINK( x ) 2025 K-1.pdf', 'Jane Investor 2025 K-1.pdf', 'HYPERLINK( x ) 2025 K-1 (2).pdf']);
    const plan = planBulkManifest({
      csvText,
      files: files.map((f) => ({ name: f.fileName, size: 1000 })),
      usersByEmail: new Map(people.map((p) => [p.email, p.id])),
    });
    expect(plan.error).toBeNull();
    // Two K-1s of one year for one investor: the manifest's own rule stops the second.
    expect(plan.rows.map((r) => r.outcome)).toEqual(['publish', 'publish', 'title-used']);
  });

  it('drafts the rows that need a person with the e-mail blank, the reason and the candidates', () => {
    const rows = [
      ...reviewRows('a.pdf', { kind: 'text', pages: [k1('Jane Investor')] }, index),
      ...reviewRows('joint.pdf', { kind: 'text', pages: [`${k1('Jane Investor')}, John Smith`] }, index),
    ];
    const draft = parseManifest(draftManifest(rows, byId));
    expect(draft).toEqual([
      {
        email: '',
        filename: 'joint.pdf',
        document_category: 'tax',
        title: '2025 Schedule K-1',
        needs_a_person: `${contentMatchingMessages.severalInvestors('in this PDF')} (candidates: jane@example.com or smith@example.com)`,
      },
    ]);
  });
});
