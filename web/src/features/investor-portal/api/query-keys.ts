/** Every query of the portal sits under this key, so that signing out drops them all at once. */
export const portalQueryKey = ['investor-portal'] as const;
