import { useState } from 'react';
import { Button, Text } from '@fluentui/react-components';
import { useRemoveSecondStep, useUserSecondStep } from '../api/second-step';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';

/**
 * In the user editor: whether the user signs in with two steps, and Remove for a user who lost
 * their phone and backup codes and called the firm. The server audits it and e-mails the user.
 */
export function UserSecondStep({ userId, label }: { userId: number; label: string }) {
  const status = useUserSecondStep(userId);
  const remove = useRemoveSecondStep(userId);
  const [confirming, setConfirming] = useState(false);

  if (!status.data) return <Text>{status.isError ? 'Two-step sign-in: could not be loaded.' : 'Two-step sign-in: …'}</Text>;
  const { totp, passkeys, backupCodesLeft } = status.data;
  if (!totp && passkeys === 0) return <Text>Two-step sign-in: off.</Text>;
  const ways = [...(totp ? ['authenticator app'] : []), ...(passkeys > 0 ? [passkeys === 1 ? '1 passkey' : `${passkeys} passkeys`] : [])];

  return (
    <div>
      <Text>{`Two-step sign-in: on (${ways.join(', ')}, ${backupCodesLeft} backup codes left). `}</Text>
      <Button size="small" onClick={() => setConfirming(true)}>
        Remove second step
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Remove two-step sign-in from ${label}?`}
        confirmLabel="Remove second step"
        pendingLabel="Removing..."
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: (answer) => {
              setConfirming(false);
              notifySuccess('Second step removed', answer.message);
            },
            onError: (error) => {
              setConfirming(false);
              notifyFailure('Second step not removed', error);
            },
          })
        }
        onCancel={() => setConfirming(false)}
      >
        Its authenticator app, passkeys and backup codes stop working: signing in will ask for the password only, until the user turns it on again. Do this only after you have made sure
        that the caller is the user. The user is told by e-mail.
      </ConfirmDialog>
    </div>
  );
}
