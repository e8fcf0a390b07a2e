import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallInput } from '@everest/core/client';
import type { AdminUsersAnswer } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { adminKeys } from '../../../lib/admin/api/query-keys';

export function editUser(body: CallInput<'editUser'>['body']) {
  return api.call('editUser', { body });
}

export function useEditUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editUser,
    onSuccess: ({ user }) => {
      // The saved row is shown at once from the answer. The pages are only marked stale, not
      // fetched again now: an administrator who just changed their own role has a session the
      // server has ended, and a fetch now would sign them out before they read
      // 'Your role has been changed to …'. A changed name may move the user in or out of a
      // search, which the next look at the list shows.
      queryClient.setQueriesData<AdminUsersAnswer>({ queryKey: adminKeys.users }, (page) =>
        page && { ...page, users: page.users.map((u) => (u.id === user.id ? user : u)) },
      );
      void queryClient.invalidateQueries({ queryKey: adminKeys.users, refetchType: 'none' });
    },
  });
}
