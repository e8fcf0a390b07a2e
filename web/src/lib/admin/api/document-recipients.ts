import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api';
import { adminKeys } from './query-keys';
import { getUsers } from './users';

/**
 * GET /api/admin/document-recipients?property=…: how many people a new document of this
 * property (or 'General') would e-mail, and whether investors are shown the property at all.
 */
export function getDocumentRecipients(property: string, signal?: AbortSignal) {
  return api.call('documentRecipients', { query: { property } }, { signal, cache: 'no-store' });
}

/**
 * Asked again each time it is shown (access and flags change in other tabs); the upload asks
 * once more, fresh, just before it says how many people it will e-mail.
 */
export function documentRecipientsQueryOptions(property: string) {
  return queryOptions({
    queryKey: [...adminKeys.documentRecipients, property],
    queryFn: ({ signal }) => getDocumentRecipients(property, signal),
    staleTime: 0,
  });
}

export function useDocumentRecipients(property: string | null) {
  return useQuery({ ...documentRecipientsQueryOptions(property ?? ''), enabled: Boolean(property) });
}

/** Nobody but administrators could read a new document of this property: core's rule, the desktop's sync says it too. */
export { hasNoReader } from '@everest/core/domain';

/**
 * Whether this investor's account is active, so would be e-mailed about a personal document:
 * asked of the users search by the exact e-mail (an unknown e-mail counts as e-mailed, as the
 * server will refuse it anyway).
 */
export async function isInvestorEmailed(email: string, signal?: AbortSignal): Promise<boolean> {
  const answer = await getUsers({ page: 1, search: email }, signal);
  const investor = answer.users.find((u) => u.email.toLowerCase() === email.toLowerCase());
  return investor?.isActive ?? true;
}

/**
 * How many people a correction with e-mail reaches: a property document's readers, or the one
 * investor of a personal document. Asked only while `enabled` (the e-mail box is ticked).
 */
export function useCorrectionRecipients(target: { kind: 'property' | 'personal'; destination: string } | null, enabled: boolean) {
  return useQuery({
    queryKey: [...adminKeys.documentRecipients, 'correction', target?.kind, target?.destination],
    queryFn: async ({ signal }) => {
      if (!target) return 0;
      if (target.kind === 'property') return (await getDocumentRecipients(target.destination, signal)).recipients;
      return (await isInvestorEmailed(target.destination, signal)) ? 1 : 0;
    },
    enabled: enabled && target !== null,
    staleTime: 0,
  });
}
