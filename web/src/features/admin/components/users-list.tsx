import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Field, SearchBox, Spinner, useRestoreFocusTarget } from '@fluentui/react-components';
import { getCoreRowModel, useReactTable, type PaginationState, type Updater } from '@tanstack/react-table';
import type { User } from '@everest/core/contract';
import { fieldMax, pageSize, portalMessages, resetLinkSentToastMs } from '@everest/core/domain';
import { useDeleteUser } from '../api/delete-user';
import { useResetUserPassword } from '../api/reset-user-password';
import { useUserProperties } from '../api/user-properties';
import { useUsers } from '../api/users';
import { adminSuccess } from '../lib/admin-messages';
import { focusOn, pendingFocus, settlePendingFocus, type PendingFocus } from '../lib/focus-field';
import { notifyFailure, notifySuccess } from '../lib/notify';
import { useLastPageBound, usePagedListAddress } from '../lib/paged-list';
import { isLockedRow, isOwnRow, userLabel } from '../lib/user-rows';
import { AdminTable } from './admin-table';
import { useAdminStyles } from './admin-styles';
import { ConfirmDialog } from './confirm-dialog';
import { UserEditor } from './user-editor';
import { UserRowsContext, userColumns, type UserRowsContextValue } from './user-columns';

/** The address's query keys of this list: `?userPage=2&userSearch=smith`. */
export const usersAddressKeys = { page: 'userPage', search: 'userSearch' } as const;

export interface UsersListProps {
  currentUser?: User;
  onCurrentUserChanged?: (user: User) => void;
  onAddAccess: (user: User) => void;
}

/** The searchable list of users, paged by 10 on the server, with the row actions of the spec. */
export function UsersList({ currentUser, onCurrentUserChanged, onAddAccess }: UsersListProps) {
  const styles = useAdminStyles();
  const list = usePagedListAddress(usersAddressKeys);
  const { page, search } = list;
  const users = useUsers({ page, search });
  const access = useUserProperties();
  const reset = useResetUserPassword();
  const remove = useDeleteUser();
  const restoreFocusTarget = useRestoreFocusTarget();

  const [editingId, setEditingId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
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
  const pageCount = Math.max(1, Math.ceil(totalCount / pageSize));

  useLastPageBound(list, pageCount, Boolean(users.data) && !users.isPlaceholderData);

  const closeEditor = (user: User, saved?: User) => {
    setEditingId(null);
    focusAfterRender.current = pendingFocus(() => focusOn(editButtons.current.get(user.id)));
    if (saved && isOwnRow(saved, currentUser)) onCurrentUserChanged?.(saved);
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

  const confirmDelete = () => {
    if (!deleting) return;
    const user = deleting;
    remove.mutate(
      { userId: user.id },
      {
        onSuccess: (answer) => {
          const n = answer.removedDocuments;
          notifySuccess(
            adminSuccess.userDeleted,
            `${userLabel(user)} was deleted, with ${n} personal document${n === 1 ? '' : 's'}.`,
          );
          setDeleting(null);
          // The row and its buttons are gone: the list's heading takes the focus.
          focusAfterRender.current = pendingFocus(() => focusOn(headingRef.current));
        },
        onError: (error) => {
          setDeleting(null);
          notifyFailure(portalMessages.deletionFailed, error);
        },
      },
    );
  };

  const isLocked = (user: User) => isLockedRow(user, currentUser, users.data?.builtInAdministratorEmail);
  const rowsContext: UserRowsContextValue = {
    isLocked,
    accessOf: (user) => accessByUser.get(user.id) ?? [],
    onAddAccess,
    onEdit: (user) => setEditingId(user.id),
    onSendResetLink: sendResetLink,
    sendingResetTo: reset.isPending && reset.variables ? Number(reset.variables.userId) : null,
    onDelete: setDeleting,
    editButtonRef: (user) => (element) => {
      if (element) editButtons.current.set(user.id, element);
      else editButtons.current.delete(user.id);
    },
    restoreFocusTarget,
  };

  const pagination: PaginationState = { pageIndex: page - 1, pageSize };
  const table = useReactTable({
    data: users.data?.users ?? [],
    columns: userColumns,
    getRowId: (u) => String(u.id),
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    pageCount,
    state: { pagination },
    onPaginationChange: (updater: Updater<PaginationState>) => {
      const next = typeof updater === 'function' ? updater(pagination) : updater;
      const nextPage = next.pageIndex + 1;
      setEditingId(null);
      list.goToPage(nextPage);
    },
  });

  const deletingAccess = deleting ? (accessByUser.get(deleting.id) ?? []) : [];
  const first = totalCount === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, totalCount);

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
              onClose={(saved) => closeEditor(row.original, saved)}
            />
          )}
          empty={users.isPending ? 'Loading users...' : search ? `No user matches "${search}".` : 'No users yet.'}
        />
        </UserRowsContext.Provider>
      )}
      <nav className={styles.pager} aria-label="Users pages">
        <span aria-live="polite">
          {totalCount === 0 ? 'No users' : `Showing ${first}–${last} of ${totalCount} · Page ${page} of ${pageCount}`}
        </span>
        <div className={styles.buttons}>
          <Button size="small" disabled={!table.getCanPreviousPage()} onClick={() => table.previousPage()}>
            Previous
          </Button>
          <Button size="small" disabled={!table.getCanNextPage()} onClick={() => table.nextPage()}>
            Next
          </Button>
        </div>
      </nav>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? `Delete ${userLabel(deleting)}?` : 'Delete user?'}
        confirmLabel="Delete User"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        {deleting && (
          <>
            <p>
              {`The account of ${userLabel(deleting)} (${deleting.email}) is deleted, and with it everything that is theirs: `}
              <strong>their personal documents</strong>
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
