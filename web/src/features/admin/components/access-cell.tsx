import { useRef, useState } from 'react';
import { Button, Tooltip, useRestoreFocusTarget } from '@fluentui/react-components';
import type { User } from '@everest/core/contract';
import { portalMessages } from '@everest/core/domain';
import { DismissIcon } from '../../../components/ui/icons';
import { useRemoveProperty } from '../api/remove-property';
import { adminSuccess } from '../lib/admin-messages';
import { notifyFailure, notifySuccess } from '../lib/notify';
import { userLabel } from '../lib/user-rows';
import { useAdminStyles } from './admin-styles';
import { ConfirmDialog } from './confirm-dialog';

export interface AccessCellProps {
  user: User;
  properties: readonly string[];
  /** Opens the assignment form for this user. */
  onAdd: (user: User) => void;
}

/**
 * A user's property access as chips, each with a remove button (remove-property) that asks to
 * confirm first (issue 35): a slip of the pointer must not cut an investor off their documents.
 */
export function AccessCell({ user, properties, onAdd }: AccessCellProps) {
  const styles = useAdminStyles();
  const remove = useRemoveProperty();
  const container = useRef<HTMLDivElement>(null);
  const restoreFocusTarget = useRestoreFocusTarget();
  const [removing, setRemoving] = useState<{ property: string; index: number } | null>(null);
  const name = userLabel(user);

  const confirmRemove = () => {
    if (!removing) return;
    const { property, index } = removing;
    remove.mutate(
      { userId: user.id, property },
      {
        onSuccess: () => {
          setRemoving(null);
          notifySuccess(adminSuccess.propertyRemoved, `${name} no longer has access to ${property}.`);
          // The chip's button is gone: the focus goes to the chip that took its place, or on
          // to the add button, never back to the top of the page.
          requestAnimationFrame(() => {
            const buttons = container.current?.querySelectorAll<HTMLButtonElement>('button');
            if (!buttons || buttons.length === 0) return;
            buttons[Math.min(index, buttons.length - 1)]?.focus();
          });
        },
        onError: (error) => {
          setRemoving(null);
          notifyFailure(portalMessages.removalFailed, error);
        },
      },
    );
  };

  return (
    <div ref={container} className={styles.chips}>
      {properties.length === 0 && <span className={styles.muted}>None</span>}
      {properties.map((property, index) => (
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
              onClick={() => setRemoving({ property, index })}
            />
          </Tooltip>
        </span>
      ))}
      <Button size="small" appearance="subtle" aria-label={`Add property access for ${name}`} onClick={() => onAdd(user)}>
        + Add
      </Button>
      <ConfirmDialog
        open={removing !== null}
        title={removing ? `Remove ${removing.property} from ${name}?` : 'Remove access?'}
        confirmLabel="Remove Access"
        pendingLabel="Removing..."
        pending={remove.isPending}
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      >
        {removing && (
          <p>{`${name} will no longer see the documents of ${removing.property} in the portal. Access can be given again with + Add.`}</p>
        )}
      </ConfirmDialog>
    </div>
  );
}
