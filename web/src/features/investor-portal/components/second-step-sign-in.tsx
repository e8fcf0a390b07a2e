import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Field, Input, Text } from '@fluentui/react-components';
import { ApiError } from '@everest/core/client';
import type { LoginAnswer, SecondStepRequiredAnswer } from '@everest/core/contract';
import { showToast } from '../../../lib/toast';
import { useLoginVerify } from '../api/second-step';
import { usePortalStyles } from './portal-styles';

const enterCode = 'Please enter the code from your authenticator app or a backup code.';

/**
 * The second half of a sign-in: the password was right, and the account asks for a code from
 * its authenticator app or one of its backup codes. An expired challenge goes back to the password.
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
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const codeRef = useRef<HTMLInputElement>(null);

  // The card changed under the keyboard user's focus: the code field is where they go next.
  useEffect(() => codeRef.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (verify.isPending) return;
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
          const expired = failure instanceof ApiError && failure.status === 401 && /expired/i.test(failure.message);
          showToast({ title: 'Sign-in Failed', description: failure.message, variant: 'destructive' });
          if (expired) return onRestart();
          codeRef.current?.focus();
        },
      },
    );
  };

  const backupCodes = challenge.methods.includes('backup-code');
  return (
    <form className={portal.form} onSubmit={submit} noValidate aria-labelledby="second-step-title">
      <h3 id="second-step-title" className={portal.sectionTitle}>
        Two-step sign-in
      </h3>
      <Text className={portal.muted}>
        Enter the 6-digit code from your authenticator app{backupCodes ? ', or one of your backup codes' : ''}.
      </Text>
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
      <div className={portal.buttons}>
        <Button type="submit" appearance="primary" disabledFocusable={verify.isPending}>
          {verify.isPending ? 'Verifying...' : 'Verify'}
        </Button>
        <Button type="button" onClick={onRestart}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
