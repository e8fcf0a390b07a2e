// The domain's closed vocabularies, with the labels the spec shows for them.

// 'delegate': an account made by an investor's share, for someone who is not an
// investor (an accountant, a spouse). It reads only through shares: no property access, no
// General documents, no personal documents of its own. An administrator may make it an investor.
export const roles = ['user', 'administrator', 'everest_employee', 'delegate'] as const;
export type Role = (typeof roles)[number];
export const roleLabels: Record<Role, string> = {
  user: 'Investor',
  administrator: 'Administrator',
  everest_employee: 'Everest Employee',
  delegate: 'Delegate',
};
/** The roles staff give (create-user, edit-user, the import): a delegate comes only from a share. */
export const assignableRoles = ['user', 'administrator', 'everest_employee'] as const satisfies readonly Role[];
export type AssignableRole = (typeof assignableRoles)[number];

// The public site knows headquarters; the admin panel knows mixed-use and other. A property
// has exactly one of all of them.
export const propertyTypes = [
  'residential',
  'self-storage',
  'retail',
  'headquarters',
  'mixed-use',
  'other',
] as const;
export type PropertyType = (typeof propertyTypes)[number];
export const propertyTypeLabels: Record<PropertyType, string> = {
  residential: 'Residential',
  'self-storage': 'Self Storage',
  retail: 'Retail',
  headquarters: 'Headquarters',
  'mixed-use': 'Mixed Use',
  other: 'Other',
};

export const propertyStatuses = ['active', 'sold', 'inactive'] as const;
export type PropertyStatus = (typeof propertyStatuses)[number];

export const quarters = ['Q1', 'Q2', 'Q3', 'Q4'] as const;
export type Quarter = (typeof quarters)[number];

export const documentTypes = ['property', 'personal'] as const;
export type DocumentType = (typeof documentTypes)[number];

export const documentCategories = ['tax', 'personal', 'legal', 'financial', 'other'] as const;
export type DocumentCategory = (typeof documentCategories)[number];
export const documentCategoryLabels: Record<DocumentCategory, string> = {
  tax: 'Tax Documents',
  personal: 'Personal Documents',
  legal: 'Legal Documents',
  financial: 'Financial Documents',
  other: 'Other',
};

export const duplicateHandlings = ['skip', 'update', 'fail'] as const;
export type DuplicateHandling = (typeof duplicateHandlings)[number];
