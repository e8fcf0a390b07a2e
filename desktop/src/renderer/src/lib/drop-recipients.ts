import type { RecipientCount } from '@everest/web/admin';
import type { FolderDropPlan } from '../../../shared/api';

/**
 * How many people a dropped folder published with e-mail reaches, asked before anything is
 * sent, as the web panel's quarter-folder upload counts it (`countRecipients`): each property's readers
 * (`GET /api/admin/document-recipients`, asked through `recipients`) for the property documents
 * the plan will publish, and the distinct investors of the manifest rows it will publish. The
 * sum is "up to": someone reading two properties, or also getting a personal document, gets one
 * e-mail; an investor whose account is inactive is counted but not e-mailed. Exact only when one
 * property's readers are the only group.
 */
export async function countDropRecipients(plan: FolderDropPlan, recipients: (property: string) => Promise<number>): Promise<RecipientCount> {
  const properties = [...new Set(plan.propertyDocuments.filter((d) => !d.alreadyPublished).map((d) => d.property))];
  const investors = new Set(
    plan.personalDocuments.filter((d) => d.outcome === 'publish' && d.email !== null).map((d) => (d.email ?? '').toLowerCase()),
  );
  const counts = await Promise.all(properties.map(async (property) => ({ label: `${property}: its readers`, people: await recipients(property) })));
  const groups = [...counts, { label: "Investors' documents: their investors", people: investors.size }].filter((g) => g.people > 0);
  return {
    people: groups.reduce((sum, g) => sum + g.people, 0),
    exact: groups.length === 1 && investors.size === 0,
    groups,
  };
}
