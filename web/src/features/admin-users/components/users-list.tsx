import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Field, makeStyles, SearchBox, Select, Spinner, useRestoreFocusTarget } from '@fluentui/react-components';
import type { PaginationState } from '@tanstack/react-table';
import { userStatusLabels, userStatuses, type AdminUser, type User, type UserStatus } from '@everest/core/contract';
import { fieldMax, pageSize, portalMessages, resetLinkSentToastMs, roleLabels, roles, type Role } from '@everest/core/domain';
import { useDeleteUser } from '../api/delete-user';
import { useResendInvitation } from '../api/resend-invitation';
import { useResetUserPassword } from '../api/reset-user-password';
import { useUserProperties } from '../api/user-properties';
import { useUsers } from '../../../lib/admin/api/users';
import { adminSuccess } from '../../../lib/admin/admin-messages';
import { focusOn, pendingFocus, settlePendingFocus, type PendingFocus } from '../../../lib/admin/focus-field';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { useListAddress } from '../../../lib/admin/list-address';
import { tablePagination, useListPageCount, usePagedListAddress } from '../../../lib/admin/paged-list';
import { isLockedRow, isOwnRow, userLabel } from '../lib/user-rows';
import { AdminTable, useAdminTable } from '../../../components/admin/admin-table';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { ListPager } from '../../../components/admin/list-pager';
import { useConfirmDelete } from '../../../lib/admin/use-confirm-delete';
import { UserEditor } from './user-editor';
import { UserRowsContext, userColumns, type UserRowsContextValue } from './user-columns';

/** The address's query keys of this list: `?userPage=2&userSearch=smith`. */
export const usersAddressKeys = { page: 'userPage', search: 'userSearch' } as const;
/** The filters' keys: `?userRole=everest_employee&userStatus=invited`. */
export const usersFilterKeys = { role: 'userRole', status: 'userStatus' } as const;

// The filters share the search's row, and wrap under it on a phone.
const useFilterStyles = makeStyles({ filter: { flex: '1 1 10rem', maxWidth: '14rem' } });

/** A value from the address, if it is one of `allowed` (an old or edited link may hold anything). */
function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | undefined {
  return allowed.find((item) => item === value);
}

export interface UsersListProps {
  currentUser?: User;
  onCurrentUserChanged?: (user: User, session?: string) => void;
  onAddAccess: (user: User) => void;
}

/** The searchable list of users, paged by 10 on the server, with the row actions of the spec. */
export function UsersList({ currentUser, onCurrentUserChanged, onAddAccess }: UsersListProps) {
  const styles = useAdminStyles();
  const filterStyles = useFilterStyles();
  const list = usePagedListAddress(usersAddressKeys);
  const { page, search } = list;
  const address = useListAddress();
  const role = oneOf<Role>(roles, address.get(usersFilterKeys.role));
  const status = oneOf<UserStatus>(userStatuses, address.get(usersFilterKeys.status));
  // A new filter, like a new search, starts on page 1 and is a history entry.
  const setFilter = (key: string, value: string) => address.update({ [key]: value === '' ? null : value, [usersAddressKeys.page]: null }, { push: true });
  const users = useUsers({ page, search, role, status });
  const access = useUserProperties();
  const reset = useResetUserPassword();
  const resend = useResendInvitation();
  const remove = useDeleteUser();
  const restoreFocusTarget = useRestoreFocusTarget();

  const [editingId, setEditingId] = useState<number | null>(null);
  const editButtons = useRef(new Map<number, HTMLElement>());
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Where the focus goes once the element exists (the row's Edit button after its editor
  // closes). Kept until it succeeds: a commit already under way when the editor closed may run
  // its effects before the row is back.
  const focusAfterRender = useRef<PendingFocus | null>(null);
  useEffect(() => {
    if (settlePendingFocus(focusAfterRender.current)) focusAfterRender.current = null;
  });

  const accessByUser = useMemo(() => {
    const map = new Map<number, string[]>();
    for (const link of access.data?.userProperties ?? []) {
      const list = map.get(link.userId) ?? [];
      list.push(link.property);
      map.set(link.userId, list);
    }
    for (const list of map.values()) list.sort((a, b) => a.localeCompare(b));
    return map;
  }, [access.data]);

  const totalCount = users.data?.totalCount ?? 0;
  const pageCount = useListPageCount(list, totalCount, Boolean(users.data) && !users.isPlaceholderData);

  const closeEditor = (user: User, saved?: User, session?: string) => {
    setEditingId(null);
    focusAfterRender.current = pendingFocus(() => focusOn(editButtons.current.get(user.id)));
    if (saved && isOwnRow(saved, currentUser)) onCurrentUserChanged?.(saved, session);
  };

  const sendResetLink = (user: User) =>
    reset.mutate(
      { userId: user.id },
      {
        onSuccess: (answer) =>
          notifySuccess(
            adminSuccess.resetLinkSent,
            answer.emailSent ? `A password reset link is on its way to ${user.email}.` : answer.message,
            { durationMs: resetLinkSentToastMs },
          ),
        onError: (error) => notifyFailure(portalMessages.resetLinkSendFailed, error),
      },
    );

  const resendInvitation = (user: User) =>
    resend.mutate(
      { userId: user.id },
      {
        onSuccess: (answer) => notifySuccess('Invitation Sent', answer.message),
        onError: (error) => notifyFailure('Invitation Not Sent', error),
      },
    );

  const openDelete = (user: AdminUser) => {
    deletion.ask(user);
    // The count the dialog names must be today's: documents may have been published since the page loaded.
    void users.refetch();
  };

  const deletion = useConfirmDelete<AdminUser, { removedDocuments: number }>({
    remove: (user, outcome) => remove.mutate({ userId: user.id }, outcome),
    pending: remove.isPending,
    deleted: (user, { removedDocuments: n }) => [
      adminSuccess.userDeleted,
      `${userLabel(user)} was deleted, with ${n} personal document${n === 1 ? '' : 's'}.`,
    ],
    failure: portalMessages.deletionFailed,
    // The row and its buttons are gone: the list's heading takes the focus.
    onDeleted: () => {
      focusAfterRender.current = pendingFocus(() => focusOn(headingRef.current));
    },
  });
  const { deleting } = deletion;

  const isLocked = (user: User) => isLockedRow(user, currentUser, users.data?.builtInAdministratorEmail);
  const rowsContext: UserRowsContextValue = {
    isLocked,
    accessOf: (user) => accessByUser.get(user.id) ?? [],
    onAddAccess,
    onEdit: (user) => setEditingId(user.id),
    onSendResetLink: sendResetLink,
    sendingResetTo: reset.isPending && reset.variables ? Number(reset.variables.userId) : null,
    onResendInvitation: resendInvitation,
    sendingInvitationTo: resend.isPending && resend.variables ? Number(resend.variables.userId) : null,
    onDelete: openDelete,
    editButtonRef: (user) => (element) => {
      if (element) editButtons.current.set(user.id, element);
      else editButtons.current.delete(user.id);
    },
    restoreFocusTarget,
  };

  const pagination: PaginationState = { pageIndex: page - 1, pageSize };
  const table = useAdminTable({
    data: users.data?.users,
    columns: userColumns,
    getRowId: (u) => String(u.id),
    manualPagination: true,
    pageCount,
    ...tablePagination(pagination, (nextPage) => {
      setEditingId(null);
      list.goToPage(nextPage);
    }),
  });

  const deletingAccess = deleting ? (accessByUser.get(deleting.id) ?? []) : [];
  // The row as last fetched (refetched when the dialog opened), else as it was clicked.
  const deletingDocuments = deleting ? (users.data?.users.find((u) => u.id === deleting.id) ?? deleting).personalDocuments : 0;

  return (
    <section className={styles.section} aria-labelledby="users-list-title">
      <h3 id="users-list-title" ref={headingRef} tabIndex={-1} className={styles.sectionTitle}>
        Users
      </h3>
      <div className={styles.toolbar} role="search">
        <Field label="Search users" className={styles.search}>
          <SearchBox
            value={list.draft}
            maxLength={fieldMax.search}
            placeholder="Name, entity or e-mail"
            onChange={(_, data) => list.setDraft(data.value)}
          />
        </Field>
        <Field label="Role" className={filterStyles.filter}>
          <Select value={role ?? ''} onChange={(_, data) => setFilter(usersFilterKeys.role, data.value)}>
            <option value="">All roles</option>
            {roles.map((value) => (
              <option key={value} value={value}>
                {roleLabels[value]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Status" className={filterStyles.filter}>
          <Select value={status ?? ''} onChange={(_, data) => setFilter(usersFilterKeys.status, data.value)}>
            <option value="">All statuses</option>
            {userStatuses.map((value) => (
              <option key={value} value={value}>
                {userStatusLabels[value]}
              </option>
            ))}
          </Select>
        </Field>
        {users.isFetching && <Spinner size="tiny" label="Loading users..." />}
      </div>
      {users.isError && !users.data ? (
        <div className={styles.buttons} role="alert">
          <span className={styles.alert}>{`The users could not be loaded: ${users.error.message}`}</span>
          <Button onClick={() => void users.refetch()}>Try again</Button>
        </div>
      ) : (
        <UserRowsContext.Provider value={rowsContext}>
          <AdminTable
          table={table}
          label="Users"
          editingRowId={editingId === null ? null : String(editingId)}
          renderEditor={(row) => (
            <UserEditor
              user={row.original}
              emailLocked={isLocked(row.original)}
              onClose={(saved, session) => closeEditor(row.original, saved, session)}
            />
          )}
          empty={
            users.isPending
              ? 'Loading users...'
              : search || role || status
                ? `No user matches ${[search && `"${search}"`, role && roleLabels[role], status && userStatusLabels[status]].filter(Boolean).join(', ')}.`
                : 'No users yet.'
          }
        />
        </UserRowsContext.Provider>
      )}
      <ListPager label="Users pages" none="No users" totalCount={totalCount} page={page} onPage={(next) => table.setPageIndex(next - 1)} />
      <ConfirmDialog
        title={deleting ? `Delete ${userLabel(deleting)}?` : 'Delete user?'}
        confirmLabel="Delete User"
        pendingLabel="Deleting..."
        {...deletion.dialog}
      >
        {deleting && (
          <>
            <p>
              {`The account of ${userLabel(deleting)} (${deleting.email}) is deleted, and with it everything that is theirs: `}
              <strong>{deletingDocuments === 1 ? '1 personal document' : `${deletingDocuments} personal documents`}</strong>
              {deletingAccess.length === 0
                ? ' (they have no property access).'
                : ` and their access to ${deletingAccess.length === 1 ? 'one property' : `${deletingAccess.length} properties`} (${deletingAccess.join(', ')}).`}
            </p>
            <p>They can no longer sign in. This cannot be undone.</p>
          </>
        )}
      </ConfirmDialog>
    </section>
  );
}
