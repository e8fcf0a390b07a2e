import { useCallback, useRef } from 'react';
import type { User } from '@everest/core/contract';
import { AssignPropertyForm, type AssignPropertyFormHandle } from './assign-property-form';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { CreateUserForm } from './create-user-form';
import { UsersList } from './users-list';

export interface UsersTabProps {
  currentUser?: User;
  onCurrentUserChanged?: (user: User, session?: string) => void;
}

/** The users tab (spec section 2): create a user, the list, and property access. */
export function UsersTab({ currentUser, onCurrentUserChanged }: UsersTabProps) {
  const styles = useAdminStyles();
  const assignForm = useRef<AssignPropertyFormHandle>(null);
  const onAddAccess = useCallback((user: User) => assignForm.current?.chooseUser(user), []);
  return (
    <div className={styles.tab}>
      <CreateUserForm />
      <UsersList currentUser={currentUser} onCurrentUserChanged={onCurrentUserChanged} onAddAccess={onAddAccess} />
      <AssignPropertyForm ref={assignForm} />
    </div>
  );
}
