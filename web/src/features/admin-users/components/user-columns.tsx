import { createContext, useContext } from 'react';
import { Badge, Button, makeStyles, type useRestoreFocusTarget } from '@fluentui/react-components';
import { createColumnHelper } from '@tanstack/react-table';
import { userStatusLabels, type AdminUser, type User, type UserStatus } from '@everest/core/contract';
import { formatDateTime, roleLabels } from '@everest/core/domain';
import { identifiersSummary } from '../lib/identifiers';
import { userLabel } from '../lib/user-rows';
import { AccessCell } from './access-cell';
import { useAdminStyles } from '../../../components/admin/admin-styles';

/** What the rows' cells need from the list: its data beyond the row, and its actions. */
export interface UserRowsContextValue {
  /** Whether the row's e-mail is locked and its Delete hidden (lib/user-rows.ts). */
  isLocked: (user: User) => boolean;
  accessOf: (user: User) => readonly string[];
  onAddAccess: (user: User) => void;
  onEdit: (user: User) => void;
  onSendResetLink: (user: User) => void;
  /** The user whose reset link is on its way, if any. */
  sendingResetTo: number | null;
  /** The welcome e-mail again, offered on Invited rows only. */
  onResendInvitation: (user: User) => void;
  sendingInvitationTo: number | null;
  onDelete: (user: AdminUser) => void;
  /** Keeps each row's Edit button, so that the focus can return to it. */
  editButtonRef: (user: User) => (element: HTMLElement | null) => void;
  /** Fluent's attributes that let a dialog return the focus to the button that opened it. */
  restoreFocusTarget: ReturnType<typeof useRestoreFocusTarget>;
}

export const UserRowsContext = createContext<UserRowsContextValue | null>(null);

function useUserRows(): UserRowsContextValue {
  const value = useContext(UserRowsContext);
  if (!value) throw new Error('The user columns are rendered outside UserRowsContext.');
  return value;
}

/**
 * The name, the entity beneath it, and the identifiers administrators added. Shown unmasked,
 * last-4s included: only administrators ever see this list (the route table), and they need the
 * digits to tell two same-named investors apart.
 */
function NameCell({ user }: { user: AdminUser }) {
  const styles = useAdminStyles();
  const label = userLabel(user);
  return (
    <div className={styles.cellStack}>
      <span>{label}</span>
      {user.entity && label !== user.entity && <span className={styles.muted}>{user.entity}</span>}
      {user.identifiers.length > 0 && (
        <span className={styles.muted} title={user.identifiers.join('\n')}>
          {`Identifiers: ${identifiersSummary(user.identifiers)}`}
        </span>
      )}
    </div>
  );
}

function EmailCell({ email }: { email: string }) {
  const styles = useAdminStyles();
  return <div className={styles.breakAnywhere}>{email}</div>;
}

function RoleCell({ user }: { user: User }) {
  const styles = useAdminStyles();
  return <span className={styles.nowrap}>{roleLabels[user.role]}</span>;
}

const statusColors: Record<UserStatus, 'success' | 'informative' | 'warning' | 'subtle'> = {
  active: 'success',
  invited: 'informative',
  'never-signed-in': 'warning',
  deactivated: 'subtle',
};

// A badge has a fixed height: 'Never signed in' wrapped inside it was cut off.
const useStatusStyles = makeStyles({ badge: { whiteSpace: 'nowrap' } });

function StatusCell({ status }: { status: UserStatus }) {
  const styles = useStatusStyles();
  return (
    <Badge appearance="tint" color={statusColors[status]} className={styles.badge}>
      {userStatusLabels[status]}
    </Badge>
  );
}

/** Blank for a user who never signed in, as staff expect from other portals; may wrap after the date. */
function LastSignInCell({ at }: { at: string | null }) {
  return <span>{formatDateTime(at)}</span>;
}

function UserAccessCell({ user }: { user: User }) {
  const rows = useUserRows();
  return <AccessCell user={user} properties={rows.accessOf(user)} onAdd={rows.onAddAccess} />;
}

function UserActionsCell({ user }: { user: AdminUser }) {
  const styles = useAdminStyles();
  const rows = useUserRows();
  const name = userLabel(user);
  const sending = rows.sendingResetTo === user.id;
  const inviting = rows.sendingInvitationTo === user.id;
  return (
    <div className={styles.rowActions}>
      <Button size="small" ref={rows.editButtonRef(user)} aria-label={`Edit ${name}`} onClick={() => rows.onEdit(user)}>
        Edit
      </Button>
      <Button
        size="small"
        aria-label={`Send reset link to ${name}`}
        disabledFocusable={sending}
        onClick={() => rows.onSendResetLink(user)}
      >
        {sending ? 'Sending...' : 'Send Reset Link'}
      </Button>
      {user.status === 'invited' && (
        <Button
          size="small"
          aria-label={`Resend invitation to ${name}`}
          disabledFocusable={inviting}
          onClick={() => rows.onResendInvitation(user)}
        >
          {inviting ? 'Sending...' : 'Resend Invitation'}
        </Button>
      )}
      {!rows.isLocked(user) && (
        <Button size="small" aria-label={`Delete ${name}`} {...rows.restoreFocusTarget} onClick={() => rows.onDelete(user)}>
          Delete
        </Button>
      )}
    </div>
  );
}

const column = createColumnHelper<AdminUser>();

/**
 * The list's columns, made once. TanStack renders a cell function as a component, so a column
 * made again on a render would be a new component type and remount every cell, losing the
 * focus of a button pressed a moment before; what changes reaches the cells through
 * UserRowsContext instead.
 */
export const userColumns = [
  column.display({ id: 'name', header: 'Name', cell: ({ row }) => <NameCell user={row.original} />, meta: { card: 'title' } }),
  column.accessor('email', { header: 'Email', cell: (info) => <EmailCell email={info.getValue()} /> }),
  column.accessor('role', { header: 'Role', cell: ({ row }) => <RoleCell user={row.original} /> }),
  column.accessor('status', { header: 'Status', cell: (info) => <StatusCell status={info.getValue()} /> }),
  column.accessor('lastLoginAt', { header: 'Last sign-in', cell: (info) => <LastSignInCell at={info.getValue()} /> }),
  column.display({ id: 'access', header: 'Property access', cell: ({ row }) => <UserAccessCell user={row.original} /> }),
  column.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <UserActionsCell user={row.original} />, meta: { card: 'actions' } }),
];
