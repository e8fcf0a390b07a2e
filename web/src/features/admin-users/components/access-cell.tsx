import { useEffect, useRef } from 'react';
import { Button, Tooltip, useRestoreFocusTarget } from '@fluentui/react-components';
import type { User } from '@everest/core/contract';
import { portalMessages } from '@everest/core/domain';
import { DismissIcon } from '../../../components/ui/icons';
import { useRemoveProperty } from '../api/remove-property';
import { adminSuccess } from '../../../lib/admin/admin-messages';
import { useConfirmDelete } from '../../../lib/admin/use-confirm-delete';
import { userLabel } from '../lib/user-rows';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';

export interface AccessCellProps {
  user: User;
  properties: readonly string[];
  /** Opens the assignment form for this user. */
  onAdd: (user: User) => void;
}

/**
 * A user's property access as chips, each with a remove button (remove-property) that asks to
 * confirm first: a slip of the pointer must not cut an investor off their documents.
 */
export function AccessCell({ user, properties, onAdd }: AccessCellProps) {
  const styles = useAdminStyles();
  const remove = useRemoveProperty();
  const addButton = useRef<HTMLButtonElement>(null);
  const restoreFocusTarget = useRestoreFocusTarget();
  const name = userLabel(user);

  // After a confirmed removal the focus goes to this row's '+ Add', but only once both
  // the chip is gone (the access list fetched again and this row drawn without it) and the dialog
  // has closed: moved before the first, it landed on the chip's own button as it disappeared;
  // before the second, the dialog's focus trap took it back and then, with the chip gone, lost
  // it to the page. The two arrive in either order, so each of them tries.
  const removed = useRef<{ property: string; dialogClosed: boolean } | null>(null);
  const listed = useRef(properties);
  const focusAddWhenSettled = () => {
    const pending = removed.current;
    if (!pending?.dialogClosed || listed.current.includes(pending.property)) return;
    removed.current = null;
    addButton.current?.focus();
  };
  useEffect(() => {
    listed.current = properties;
    focusAddWhenSettled();
  });

  const removal = useConfirmDelete<string>({
    remove: (property, outcome) => remove.mutate({ userId: user.id, property }, outcome),
    pending: remove.isPending,
    deleted: (property) => [adminSuccess.propertyRemoved, `${name} no longer has access to ${property}.`],
    failure: portalMessages.removalFailed,
    onDeleted: (property) => {
      removed.current = { property, dialogClosed: false };
    },
  });
  const removing = removal.deleting;

  return (
    <div className={styles.chips}>
      {properties.length === 0 && <span className={styles.muted}>None</span>}
      {properties.map((property) => (
        <span key={property} className={styles.chip}>
          {property}
          <Tooltip content={`Remove ${property}`} relationship="description" withArrow>
            <Button
              size="small"
              appearance="transparent"
              icon={<DismissIcon />}
              aria-label={`Remove ${property} from ${name}`}
              disabledFocusable={remove.isPending && remove.variables?.property === property}
              {...restoreFocusTarget}
              onClick={() => removal.ask(property)}
            />
          </Tooltip>
        </span>
      ))}
      <Button ref={addButton} size="small" appearance="subtle" aria-label={`Add property access for ${name}`} onClick={() => onAdd(user)}>
        + Add
      </Button>
      <ConfirmDialog
        {...removal.dialog}
        title={removing ? `Remove ${removing} from ${name}?` : 'Remove access?'}
        confirmLabel="Remove Access"
        pendingLabel="Removing..."
        onClosed={() => {
          if (removed.current) removed.current.dialogClosed = true;
          focusAddWhenSettled();
        }}
      >
        {removing && (
          <p>{`${name} will no longer see the documents of ${removing} in the portal. Access can be given again with + Add.`}</p>
        )}
      </ConfirmDialog>
    </div>
  );
}
