import { cleanup, render, screen, within } from '@testing-library/react';
import { FluentProvider } from '@fluentui/react-components';
import { afterEach, expect, it } from 'vitest';
import { k1Category, k1Title } from '@everest/core/domain';
import { MemoryRouter } from '../../lib/router';
import { everestTheme } from '../../testing/themes';
import InstructionsRoute from './instructions';

afterEach(cleanup);

function matchByContent() {
  render(
    <FluentProvider theme={everestTheme}>
      <MemoryRouter initialEntries={['/instructions']}>
        <InstructionsRoute />
      </MemoryRouter>
    </FluentProvider>,
  );
  return screen.getByRole('region', { name: 'Match by content' });
}

it('says in plain words which identifiers count and the rule: the one investor whose identifier is in the text, and no other', () => {
  const section = matchByContent();
  const text = section.textContent ?? '';
  expect(text).toContain('Their full name and their entity');
  expect(text).toContain('The identifiers an administrator adds on their account');
  expect(text).toContain('Two investors who share a full name each need an identifier of their own');
  expect(text).toContain('only to confirm a name: they never pick an investor on their own');
  expect(text).toContain("appears in its text word for word (letter case, punctuation and spacing aside) and no other investor's identifier does");
  expect(text).toContain('Nothing is matched by similarity');
});

it('lists what needs a person: no match, two investors, a shared name, a last-4 that disagrees, a scan, pages before the first name', () => {
  const section = matchByContent();
  const heading = within(section).getByRole('heading', { name: 'What needs a person' });
  const list = heading.nextElementSibling;
  expect(list?.tagName).toBe('UL');
  const items = within(list as HTMLElement).getAllByRole('listitem').map((li) => li.textContent);
  expect(items).toEqual([
    "No investor's name, entity or identifier appears in the PDF.",
    "Two investors' identifiers appear in it, such as a joint account naming both.",
    'Only a name that two investors share appears in it.',
    "The name is one investor's and the TIN's last four digits are another's.",
    'The PDF is a scan: an image with no text to read.',
    'A name that goes on into a longer one, such as ‘John Smith Jr’ or ‘Thompson Family Trust II’: that may be another partner.',
    'In a combined PDF, the pages before the first page that names an investor, such as a cover letter.',
  ]);
});

it("says how a combined PDF is cut, and gives core's default title and category with the tax year from the form", () => {
  const text = matchByContent().textContent ?? '';
  expect(text).toContain('a page that names nobody (continuation pages, statements, a state schedule) follows the page before it');
  expect(text).toContain(`in the category ${k1Category} with the title <tax year> Schedule K-1, for example '${k1Title(2025)}'`);
  expect(text).toContain("The tax year is read from the form itself ('For calendar year 2025', or the year beside 'Schedule K-1'), never taken from the batch");
});
