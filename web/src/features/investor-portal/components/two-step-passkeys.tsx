import { useRef, useState, type FormEvent } from 'react';
import { Button, Field, Input, Text } from '@fluentui/react-components';
import { keepOneSecondStep, maxPasskeys, passkeyName, type OwnerProof, type PasskeySummary } from '@everest/core/contract';
import { formatDate } from '@everest/core/domain';
import { showToast } from '../../../lib/toast';
import { useRegisterPasskey, useRemovePasskey } from '../api/second-step';
import { ConfirmOwnerDialog } from './confirm-owner-dialog';
import { usePortalStyles } from './portal-styles';
import { KeepOneNotice, useReturnFocus, useTwoStepStyles, type MethodProps } from './two-step-parts';

/** The account's passkeys, each with its own Remove, and a form to add one (named by the user). */
export function Passkeys({ passkeys, codeAllowed, mustKeep, isLast, onBackupCodes }: MethodProps & { passkeys: PasskeySummary[] }) {
  const portal = usePortalStyles();
  const styles = useTwoStepStyles();
  const register = useRegisterPasskey();
  const remove = useRemovePasskey();
  const focus = useReturnFocus();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [dialog, setDialog] = useState<{ add: string } | { remove: PasskeySummary } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  const close = () => {
    setDialog(null);
    focus.restore(nameRef.current);
  };

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = passkeyName.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return nameRef.current?.focus();
    }
    setError(undefined);
    setNotice(null);
    focus.remember(nameRef.current ?? event.currentTarget);
    setDialog({ add: parsed.data });
  };

  return (
    <div className={portal.form}>
      <h4 className={portal.sectionTitle}>Passkeys</h4>
      <Text className={portal.muted}>
        A passkey uses this device's screen lock (fingerprint, face or PIN) or a security key: the easiest second step. Name each
        one after its device, for example "Work laptop".
      </Text>
      {passkeys.length > 0 && (
        <ul className={portal.itemList} aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className={portal.item}>
              <span className={portal.itemText}>
                <Text weight="semibold">{passkey.name}</Text>
                <Text size={200} className={portal.muted}>
                  {`Added ${formatDate(passkey.createdAt)} · ${passkey.lastUsedAt ? `last used ${formatDate(passkey.lastUsedAt)}` : 'not used yet'}`}
                </Text>
              </span>
              <Button
                size="small"
                aria-label={`Remove ${passkey.name}`}
                onClick={(event) => {
                  if (mustKeep) return setNotice(keepOneSecondStep.passkey);
                  setNotice(null);
                  focus.remember(event.currentTarget);
                  setDialog({ remove: passkey });
                }}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <KeepOneNotice text={mustKeep ? notice : null} />
      {passkeys.length < maxPasskeys && (
        <form className={styles.addPasskey} onSubmit={add} noValidate aria-label="Add a passkey">
          <Field label="Name of the new passkey" validationMessage={error}>
            <Input ref={nameRef} name="passkey-name" maxLength={60} value={name} onChange={(_, data) => setName(data.value)} />
          </Field>
          <Button type="submit" appearance={passkeys.length === 0 ? 'primary' : 'secondary'}>
            Add a passkey
          </Button>
        </form>
      )}
      {dialog && 'add' in dialog && (
        <ConfirmOwnerDialog
          title={`Add the passkey "${dialog.add}"`}
          confirmLabel="Continue"
          pendingLabel="Waiting for your passkey..."
          codeAllowed={codeAllowed}
          onClose={close}
          onConfirm={async (proof: OwnerProof) => {
            const answer = await register.mutateAsync({ name: dialog.add, proof });
            setName('');
            showToast({ title: answer.message });
            // The first second step's backup codes take the focus (BackupCodes).
            if (answer.backupCodes.length > 0) {
              setDialog(null);
              onBackupCodes(answer.backupCodes);
            } else close();
          }}
        >
          <Text>Next, this device asks for its screen lock or your security key.</Text>
        </ConfirmOwnerDialog>
      )}
      {dialog && 'remove' in dialog && (
        <ConfirmOwnerDialog
          title={`Remove the passkey "${dialog.remove.name}"?`}
          confirmLabel="Remove passkey"
          pendingLabel="Removing..."
          codeAllowed={codeAllowed}
          onClose={close}
          onConfirm={async (proof: OwnerProof) => {
            const answer = await remove.mutateAsync({ passkeyId: dialog.remove.id, ...proof });
            showToast({ title: answer.message });
            close();
          }}
        >
          <Text>
            {isLast
              ? 'It will no longer sign you in. It is your last second step: signing in will ask for your password only, and your backup codes will stop working.'
              : 'It will no longer sign you in.'}
          </Text>
        </ConfirmOwnerDialog>
      )}
    </div>
  );
}
