import type { SessionUser } from './http/state';

/**
 * Every cache of the server, in one table: what it holds under which key, the NOTIFY channel that
 * drops it on every instance, the tables whose triggers raise that channel (migrations; a test
 * holds this list to the database's triggers), its memory budget and its longest life.
 *
 * Plain data that knows no feature, so that any feature may read its keys; the caches themselves,
 * typed by what they hold, are made in services.ts.
 *
 * Not here, as no row changes when it should: FileExistence (features/files) keeps for a minute
 * whether a stored file is on disk.
 */
export const cacheTable = {
  /** GET /api/properties, the busiest public call, as ready JSON. */
  propertyList: {
    key: () => 'all',
    channel: 'property_list_changed',
    triggerTables: ['properties'],
    maxBytes: 1_000_000,
    ttlMs: undefined,
  },
  /**
   * The public pages as the server renders them (features/public-pages), ready to send, per
   * rendered address: the property list is the only data they show, so the same notification
   * drops them.
   */
  publicPages: {
    key: (address: string) => address,
    channel: 'property_list_changed',
    triggerTables: ['properties'],
    maxBytes: 16_000_000,
    ttlMs: undefined,
  },
  /**
   * GET /api/investor/documents, as ready JSON: each user's own (their personal documents are theirs
   * alone). A user's first read of a document drops it too (its 'New' badge, `opened`).
   */
  documentLists: {
    key: (user: SessionUser) => `user:${user.id}`,
    channel: 'document_lists_changed',
    triggerTables: ['document_reads', 'properties', 'property_access', 'property_documents', 'stored_files', 'user_documents', 'users'],
    maxBytes: 32_000_000,
    // A minute at most, like FileExistence: a file that vanishes from disk changes no row.
    ttlMs: 60_000,
  },
  /**
   * Each property's documents as the investors' lists write them (their JSON but for
   * `fileExists` and `opened`), per property and for 'General': an investor's first load reads
   * its access, its reads and its personal documents from PostgreSQL and these from memory, as
   * most of a list is the same documents for every investor of a property. Dropping them drops
   * the lists too (services.ts), so that no list is kept that was made of dropped entries.
   */
  propertyDocuments: {
    key: (propertyId: number | null) => (propertyId === null ? 'general' : String(propertyId)),
    channel: 'property_documents_changed',
    triggerTables: ['properties', 'property_documents', 'stored_files'],
    maxBytes: 64_000_000,
    ttlMs: undefined,
  },
  /**
   * GET /api/admin/users, as ready JSON, per search and page: an administrator pages back and
   * forth through one search, and a search of thousands of matches costs a few milliseconds of
   * PostgreSQL each time. Any change to an account drops it, a sign-in's last-login time included.
   */
  userLists: {
    key: (query: { search?: string; page?: number; limit?: number; role?: string; status?: string }) =>
      JSON.stringify([query.search ?? null, query.page ?? null, query.limit ?? null, query.role ?? null, query.status ?? null]),
    channel: 'user_lists_changed',
    // user_documents: each row counts the user's personal documents; investor_identifiers: each
    // row lists the identifiers administrators added.
    triggerTables: ['users', 'user_documents', 'investor_identifiers'],
    maxBytes: 4_000_000,
    ttlMs: 60_000,
  },
  /** Users as session checks see them (features/auth/session.ts), by id. */
  sessionUsers: {
    key: (userId: number) => String(userId),
    channel: 'session_users_changed',
    triggerTables: ['ended_sessions', 'passkeys', 'second_steps', 'users'],
    maxBytes: 4_000_000,
    // Revocation rests on the notification (and the 'ends-sessions' effect of the routes that
    // revoke); the lifetime only bounds what an unforeseen write path could leave behind.
    ttlMs: 60_000,
  },
  /**
   * Whether an investor shares live with a delegate (features/document-access/document-policy.ts
   * `readingAs`), by owner and delegate, absent shares too: every read through a share asks
   * first, and the delegate's cached list would otherwise cost a query the investor's does not.
   * A share's end date passing changes no row, so `readingAs` checks it on every hit.
   */
  liveShares: {
    key: (ownerId: number, delegateId: number) => `${ownerId}:${delegateId}`,
    channel: 'live_shares_changed',
    // users: only its activity and role (a sign-in's last-login time says nothing of a share).
    triggerTables: ['share_properties', 'shares', 'users'],
    maxBytes: 4_000_000,
    ttlMs: 60_000,
  },
} as const;

export type CacheName = keyof typeof cacheTable;
