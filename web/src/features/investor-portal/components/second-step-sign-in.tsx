import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Field, Input, Text } from '@fluentui/react-components';
import { ApiError } from '@everest/core/client';
import type { LoginAnswer, SecondStepRequiredAnswer } from '@everest/core/contract';
import { showToast } from '../../../lib/toast';
import { useLoginVerify, usePasskeySignIn } from '../api/second-step';
import { usePortalStyles } from './portal-styles';

const enterCode = 'Please enter the code from your authenticator app or a backup code.';

/**
 * The second half of a sign-in: the password was right, and the account asks for one of its
 * passkeys, a code from its authenticator app, or one of its backup codes. An expired challenge
 * goes back to the password.
 */
export function SecondStepSignIn({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: SecondStepRequiredAnswer;
  onSignedIn: (answer: LoginAnswer) => void;
  onRestart: () => void;
}) {
  const portal = usePortalStyles();
  const verify = useLoginVerify();
  const passkeySignIn = usePasskeySignIn();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const codeRef = useRef<HTMLInputElement>(null);
  const passkeyRef = useRef<HTMLButtonElement>(null);
  const passkey = challenge.methods.includes('passkey');
  const busy = verify.isPending || passkeySignIn.isPending;

  // The card changed under the keyboard user's focus: the passkey, or the code field, is next.
  useEffect(() => (passkey ? passkeyRef.current : codeRef.current)?.focus(), [passkey]);

  const failed = (failure: Error, focus: HTMLElement | null) => {
    const expired = failure instanceof ApiError && failure.status === 401 && /expired/i.test(failure.message);
    showToast({ title: 'Sign-in Failed', description: failure.message, variant: 'destructive' });
    if (expired) return onRestart();
    focus?.focus();
  };

  const signInWithPasskey = () => {
    if (busy) return;
    passkeySignIn.mutate(challenge.mfaToken, { onSuccess: onSignedIn, onError: (failure) => failed(failure, passkeyRef.current) });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!code.trim()) {
      setError(enterCode);
      return codeRef.current?.focus();
    }
    setError(undefined);
    verify.mutate(
      { mfaToken: challenge.mfaToken, code },
      {
        onSuccess: onSignedIn,
        onError: (failure) => {
          setCode('');
          failed(failure, codeRef.current);
        },
      },
    );
  };

  const backupCodes = challenge.methods.includes('backup-code');
  const totp = challenge.methods.includes('totp');
  const codes = totp || backupCodes;
  const codeHint = totp
    ? `the 6-digit code from your authenticator app${backupCodes ? ', or one of your backup codes' : ''}.`
    : 'one of your backup codes.';
  return (
    <form className={portal.form} onSubmit={submit} noValidate aria-labelledby="second-step-title">
      <h3 id="second-step-title" className={portal.sectionTitle}>
        Two-step sign-in
      </h3>
      {passkey && (
        <>
          <Text className={portal.muted}>Use the passkey on this device or your security key.</Text>
          <div className={portal.buttons}>
            <Button ref={passkeyRef} type="button" appearance="primary" disabledFocusable={busy} onClick={signInWithPasskey}>
              {passkeySignIn.isPending ? 'Waiting for your passkey...' : 'Use a passkey'}
            </Button>
          </div>
        </>
      )}
      {codes && (
        <>
          <Text className={portal.muted}>{`${passkey ? 'Or enter' : 'Enter'} ${codeHint}`}</Text>
          <Field label="Authentication code" required validationMessage={error}>
            <Input
              ref={codeRef}
              name="one-time-code"
              autoComplete="one-time-code"
              inputMode={backupCodes ? 'text' : 'numeric'}
              maxLength={40}
              value={code}
              onChange={(_, data) => setCode(data.value)}
            />
          </Field>
        </>
      )}
      <div className={portal.buttons}>
        {codes && (
          <Button type="submit" appearance={passkey ? 'secondary' : 'primary'} disabledFocusable={busy}>
            {verify.isPending ? 'Verifying...' : 'Verify'}
          </Button>
        )}
        <Button type="button" onClick={onRestart}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
