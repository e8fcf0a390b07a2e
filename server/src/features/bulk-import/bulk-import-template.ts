import type { EntityManager } from '@mikro-orm/postgresql';
import { importColumns, toCsv, type ImportColumn } from '@everest/core/domain';

type TemplateRow = Record<ImportColumn, string>;

/**
 * The import template: the columns in order and three example rows (an investor, an entity, an
 * employee) naming real investor-relations properties, so that a copied name matches exactly, and
 * the identifiers content matching finds investors by (a trust's dated name, a TIN's last four).
 * Written with toCsv, so a property name that looks like a formula stays text in Excel. A UTF-8
 * BOM makes Excel read accented names right; the import reads files with or without one.
 */
export async function bulkImportTemplate(em: EntityManager): Promise<string> {
  const names = (
    await em.execute<{ name: string }[]>(
      `select name from properties where investor_relations and status <> 'inactive' order by name collate "C" limit 2`,
    )
  ).map((row) => row.name);
  const examples: TemplateRow[] = [
    {
      email: 'jane.investor@example.com',
      firstName: 'Jane',
      lastName: 'Investor',
      entity: '',
      role: 'user',
      propertyAccess: names.join(','),
      streetAddress: '123 Main St.',
      city: 'Pasadena',
      state: 'CA',
      zipCode: '91101',
      identifiers: 'XXX-XX-1234',
    },
    {
      email: 'treasury@family-trust.example.com',
      firstName: '',
      lastName: '',
      entity: 'Investor Family Trust',
      role: 'user',
      propertyAccess: names[0] ?? '',
      streetAddress: '100 Pine St., Suite 1800',
      city: 'San Francisco',
      state: 'CA',
      zipCode: '94111',
      identifiers: 'Investor Family Trust dtd 3/1/2001;XXX-XX-5678',
    },
    {
      email: 'new.employee@example.com',
      firstName: 'Sam',
      lastName: 'Employee',
      entity: 'Everest Properties',
      role: 'everest_employee',
      propertyAccess: '',
      streetAddress: '',
      city: '',
      state: '',
      zipCode: '',
      identifiers: '',
    },
  ];
  return `\uFEFF${toCsv([[...importColumns], ...examples.map((row) => importColumns.map((column) => row[column]))])}`;
}
