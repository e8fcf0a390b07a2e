import { expect, it } from 'vitest';
import { propertyChoices } from './document-fields';

it('lists General, then the properties investors are shown, then the others marked (issue 32 case 7)', () => {
  const choices = propertyChoices([
    { name: 'Fig Garden Court', investorRelations: false },
    { name: 'Sunset Terrace Apartments', investorRelations: true },
    { name: 'Everest Properties Headquarters', investorRelations: false },
    { name: 'Heartland Plaza', investorRelations: true },
  ]);
  expect(choices.map((c) => c.label)).toEqual([
    'General',
    'Heartland Plaza',
    'Sunset Terrace Apartments',
    'Everest Properties Headquarters (not shown to investors)',
    'Fig Garden Court (not shown to investors)',
  ]);
  // The value stays the name the server knows.
  expect(choices[3]?.name).toBe('Everest Properties Headquarters');
});

it("keeps a document's current property offered when it is no longer listed", () => {
  expect(propertyChoices([], 'Old Name').map((c) => c.name)).toEqual(['General', 'Old Name']);
});
