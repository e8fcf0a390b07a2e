import { useState } from 'react';
import { FluentProvider } from '@fluentui/react-components';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { contentMatchingMessages, investorIdentifiers, reviewRows, type ReviewRow } from '@everest/core/domain';
import { disableWebAnimations } from '../../../testing/render-app';
import { everestTheme } from '../../../testing/themes';
import type { ContentReview, MatchingInvestor } from '../lib/match-by-content';
import { ContentReviewStep } from './content-review-step';

beforeAll(disableWebAnimations);
afterEach(cleanup);

const investors: MatchingInvestor[] = [
  { id: 1, email: 'ann@example.com', name: 'Ann Archer', entity: '', identifiers: [], active: true },
  { id: 2, email: 'bob@example.com', name: 'Bob Brandt', entity: 'Brandt Ridge Trust', identifiers: [], active: true },
  { id: 3, email: 'cy@example.com', name: 'Cy Cole', entity: '', identifiers: [], active: false },
];
const k1 = (who: string) => `Schedule K-1 (Form 1065) For calendar year 2025 Partner: ${who} Box 1 Ordinary income 1,000`;

function review(): ContentReview {
  const index = investorIdentifiers(investors);
  const rows = [
    ...reviewRows('K1_00001.pdf', { kind: 'text', pages: [k1('Ann Archer')] }, index),
    ...reviewRows('K1_00002.pdf', { kind: 'text', pages: [k1('Ann Archer and Brandt Ridge Trust')] }, index),
    ...reviewRows('K1_00003.pdf', { kind: 'text', pages: [''] }, index),
  ];
  return { rows, investors, investorsById: new Map(investors.map((i) => [i.id, i])), pdfs: new Map(), leftOut: [{ path: 'notes.txt', reason: 'Not a PDF' }] };
}

/** The step as the section holds it: rows change in state, as staff change them. */
function Harness({ onRows }: { onRows: (rows: ReviewRow[]) => void }) {
  const [current, setCurrent] = useState(review);
  return (
    <FluentProvider theme={everestTheme}>
      <ContentReviewStep
        review={current}
        busy={false}
        onRows={(rows) => {
          onRows(rows);
          setCurrent({ ...current, rows });
        }}
        onContinue={() => undefined}
        onCancel={() => undefined}
      />
    </FluentProvider>
  );
}

function rowOf(file: string) {
  return screen.getAllByRole('row').find((row) => row.textContent?.includes(file))!;
}

it('shows each row with its investor or why it needs a person, and offers Continue only once every row is settled', () => {
  let last: ReviewRow[] = [];
  render(<Harness onRows={(rows) => (last = rows)} />);
  expect(within(screen.getByRole('list', { name: 'Rows' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
    '1 ready (1 matched by content)',
    '2 need a person',
    '0 excluded',
  ]);
  expect(rowOf('K1_00001.pdf').textContent).toContain('Matched');
  expect(rowOf('K1_00001.pdf').textContent).toContain('Ann Archer (ann@example.com)');
  expect(rowOf('K1_00001.pdf').textContent).toContain('2025 Schedule K-1');
  const two = rowOf('K1_00002.pdf').textContent ?? '';
  expect(two).toContain(contentMatchingMessages.severalInvestors('in this PDF'));
  expect(two).toContain('Candidates: Ann Archer (ann@example.com); Bob Brandt, Brandt Ridge Trust (bob@example.com)');
  expect(rowOf('K1_00003.pdf').textContent).toContain(contentMatchingMessages.scan);
  expect(screen.getByText('notes.txt: Not a PDF')).toBeTruthy();
  const next = screen.getByRole('button', { name: 'Continue to Preview' });
  expect(next.getAttribute('aria-disabled')).toBe('true');

  // Excluding the scan leaves one row that needs a person.
  fireEvent.click(within(rowOf('K1_00003.pdf')).getByRole('checkbox', { name: 'Exclude K1_00003.pdf' }));
  expect(last.find((row) => row.key === 'K1_00003.pdf')?.excluded).toBe(true);
  expect(screen.getByText("1 row needs a person: name each one's investor and title, or exclude it")).toBeTruthy();
  expect(next.getAttribute('aria-disabled')).toBe('true');
});

it("names a row's investor in its editor, candidates first, and the row is then ready but not 'matched'", () => {
  let last: ReviewRow[] = [];
  render(<Harness onRows={(rows) => (last = rows)} />);
  fireEvent.click(screen.getByRole('button', { name: 'Change K1_00002.pdf' }));
  const dialog = screen.getByRole('dialog', { name: 'Change K1_00002.pdf' });
  const box = within(dialog).getByRole('combobox', { name: 'Investor' });
  fireEvent.click(box);
  const options = within(screen.getByRole('listbox')).getAllByRole('option').map((o) => o.textContent);
  // The two candidates before everyone else; a deactivated investor is said to be.
  expect(options).toEqual([
    'Ann Archer (ann@example.com) · candidate',
    'Bob Brandt, Brandt Ridge Trust (bob@example.com) · candidate',
    'Cy Cole (cy@example.com), deactivated',
  ]);
  fireEvent.click(screen.getByRole('option', { name: /Bob Brandt/ }));
  fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
  const changed = last.find((row) => row.key === 'K1_00002.pdf')!;
  expect(changed).toMatchObject({ investorId: 2, matched: false, reason: null, title: '2025 Schedule K-1' });
  expect(rowOf('K1_00002.pdf').textContent).toContain('Named by you');
});

it('asks for a four-digit tax year and a title where the form states no year', () => {
  let last: ReviewRow[] = [];
  render(<Harness onRows={(rows) => (last = rows)} />);
  fireEvent.click(screen.getByRole('button', { name: 'Change K1_00003.pdf' }));
  const dialog = screen.getByRole('dialog', { name: 'Change K1_00003.pdf' });
  fireEvent.change(within(dialog).getByRole('textbox', { name: 'Tax year' }), { target: { value: '25' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(within(dialog).getByText('Give the tax year as four digits, or leave it empty.')).toBeTruthy();
  expect(last).toEqual([]);

  fireEvent.change(within(dialog).getByRole('textbox', { name: 'Tax year' }), { target: { value: '' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(within(dialog).getByText('Give the document a title.')).toBeTruthy();

  fireEvent.change(within(dialog).getByRole('textbox', { name: 'Tax year' }), { target: { value: '2024' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
  expect(last.find((row) => row.key === 'K1_00003.pdf')).toMatchObject({ taxYear: 2024, title: '2024 Schedule K-1', investorId: null });
});
