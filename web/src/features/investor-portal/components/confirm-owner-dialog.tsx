import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, Link, Text } from '@fluentui/react-components';
import { enterSecondStepCode, type OwnerProof } from '@everest/core/contract';
import { portalMessages } from '@everest/core/domain';
import { usePortalSession } from '../lib/portal-session';
import { usePortalStyles } from './portal-styles';

export interface ConfirmOwnerDialogProps {
  title: string;
  /** What the change does, before the request for the password. */
  children?: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  /** The account has a second step, so a current code may stand for the password. */
  codeAllowed: boolean;
  /** Makes the change with the proof; a refusal's sentence is shown in the dialog. */
  onConfirm: (proof: OwnerProof) => Promise<unknown>;
  /** Cancel, Escape, or done; the caller gives the focus back to what opened the dialog. */
  onClose: () => void;
}

/**
 * Asks again for something only the owner has, the current password or a second-step code,
 * before a change a session left open must not make: the e-mail address, the
 * password, a second step added or removed, new backup codes.
 */
export function ConfirmOwnerDialog({ title, children, confirmLabel, pendingLabel, codeAllowed, onConfirm, onClose }: ConfirmOwnerDialogProps) {
  const portal = usePortalStyles();
  const session = usePortalSession();
  const [withCode, setWithCode] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => inputRef.current?.focus(), [withCode]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    if (!value.trim()) {
      setError(withCode ? enterSecondStepCode : portalMessages.enterCurrentPassword);
      return inputRef.current?.focus();
    }
    setError(undefined);
    setPending(true);
    try {
      await onConfirm(withCode ? { code: value } : { currentPassword: value });
    } catch (failure) {
      if (failure instanceof Error && session.endIfUnauthorized(failure)) return;
      setValue('');
      setError(failure instanceof Error ? failure.message : String(failure));
      inputRef.current?.focus();
    } finally {
      setPending(false);
    }
  };

  const switchMethod = () => {
    setWithCode((current) => !current);
    setValue('');
    setError(undefined);
  };

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface aria-describedby={undefined}>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <DialogBody>
            <DialogTitle>{title}</DialogTitle>
            <DialogContent className={portal.form}>
              {children}
              <Text>{withCode ? 'Please enter a current code to confirm it is you.' : 'Please enter your current password to confirm it is you.'}</Text>
              {withCode ? (
                <Field label="Code from your authenticator app, or a backup code" required validationMessage={error}>
                  <Input
                    ref={inputRef}
                    name="owner-code"
                    autoComplete="one-time-code"
                    inputMode="text"
                    value={value}
                    onChange={(_, data) => setValue(data.value)}
                  />
                </Field>
              ) : (
                <Field label="Current password" required validationMessage={error}>
                  <Input
                    ref={inputRef}
                    name="current-password"
                    type="password"
                    autoComplete="current-password"
                    value={value}
                    onChange={(_, data) => setValue(data.value)}
                  />
                </Field>
              )}
              {codeAllowed && (
                <Link as="button" type="button" onClick={switchMethod}>
                  {withCode ? 'Use my password instead' : 'Use a code instead'}
                </Link>
              )}
            </DialogContent>
            <DialogActions>
              <Button type="submit" appearance="primary" disabledFocusable={pending}>
                {pending ? pendingLabel : confirmLabel}
              </Button>
              <Button type="button" onClick={onClose}>
                Cancel
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
