/**
 * Every query that belongs to a signed-in session (the portal's and the admin panel's) sits
 * under this key: signing out drops them all at once, and a 401 from any of them ends the
 * session (investor-portal/lib/portal-session).
 */
export const sessionQueryKey = ['investor-portal'] as const;
