import type { PersonalScope, PropertyScope, ShareStatus } from '@everest/core/contract';
import { formatCalendarDate, timeZone, type DocumentCategory } from '@everest/core/domain';

// How a share is said on screen, in one place for Manage Profile, the documents'
// switch and the tests.

/** A category as a share names it: 'Tax documents' ('Tax Documents' is the upload form's label). */
const categoryWords: Record<DocumentCategory, string> = {
  tax: 'Tax documents',
  personal: 'Personal documents',
  legal: 'Legal documents',
  financial: 'Financial documents',
  other: 'Other personal documents',
};

export interface ShareScope {
  personalScope: PersonalScope;
  categories: readonly DocumentCategory[];
  propertyScope: PropertyScope;
  propertyIds: readonly number[];
  /** The chosen properties by name, where the answer names them (the owner's list). */
  properties?: readonly { id: number; name: string }[];
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * What a share covers, in words: 'Tax documents; all properties', 'All personal documents',
 * 'Oak Court, Pine Plaza'. Chosen properties without their names are counted instead.
 */
export function shareScopeWords(share: ShareScope): string {
  const parts: string[] = [];
  if (share.personalScope === 'all') parts.push('all personal documents');
  if (share.personalScope === 'categories') parts.push(share.categories.map((c) => categoryWords[c]).join(', '));
  if (share.propertyScope === 'all') parts.push('all properties');
  if (share.propertyScope === 'properties') {
    const names = share.properties?.map((p) => p.name) ?? [];
    const count = share.propertyIds.length;
    parts.push(names.length > 0 ? names.join(', ') : count === 1 ? '1 property' : `${count} properties`);
  }
  return capitalised(parts.join('; '));
}

export const shareStatusLabels: Record<ShareStatus, string> = {
  invited: 'Invited',
  active: 'Active',
  expired: 'Expired',
};

/** 'Until Mar 31, 2027' (the last day the delegate may read), or 'No end date'. */
export function shareEndWords(endsOn: string | null): string {
  return endsOn ? `Until ${formatCalendarDate(endsOn)}` : 'No end date';
}

/** Today in the firm's time zone as 'YYYY-MM-DD': the earliest end date a share may have. */
export function firmToday(now = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

