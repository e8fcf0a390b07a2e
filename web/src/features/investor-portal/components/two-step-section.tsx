import { useState } from 'react';
import { Spinner, Text } from '@fluentui/react-components';
import { useCodeAllowed, useSecondStep } from '../api/second-step';
import { usePortalStyles } from './portal-styles';
import { AuthenticatorApp } from './two-step-authenticator';
import { BackupCodes, BackupCodesLeft } from './two-step-backup-codes';
import { Passkeys } from './two-step-passkeys';

/**
 * Manage Profile's 'Two-step sign-in' section: passkeys and an authenticator
 * app (TOTP), each added and removed on its own, and the backup codes that go with either. Every
 * change asks for the current password or a current code first. `intro` says why it is shown
 * when the user's role must have it; `onFinished` runs once the backup codes of a set-up have
 * been put away.
 */
export function TwoStepSection({ intro, onFinished }: { intro?: string; onFinished?: () => void }) {
  const portal = usePortalStyles();
  const status = useSecondStep();
  const codeAllowed = useCodeAllowed();
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null);
  const data = status.data;
  const methods = data ? (data.totp ? 1 : 0) + data.passkeys.length : 0;
  const shared = {
    codeAllowed,
    mustKeep: !!data?.required && methods === 1,
    isLast: methods === 1,
    onBackupCodes: setBackupCodes,
  };

  return (
    <section className={portal.form} aria-labelledby="two-step-title">
      <h3 id="two-step-title" className={portal.sectionTitle}>
        Two-step sign-in
      </h3>
      <Text className={portal.muted}>
        {intro ??
          'After your password, signing in also asks for a passkey or a code from an authenticator app on your phone, so a stolen password alone does not open your account.'}
      </Text>
      {backupCodes ? (
        <BackupCodes
          codes={backupCodes}
          onDone={() => {
            setBackupCodes(null);
            onFinished?.();
          }}
        />
      ) : data ? (
        <>
          <Passkeys passkeys={data.passkeys} {...shared} />
          <AuthenticatorApp on={data.totp} first={methods === 0} {...shared} />
          {methods > 0 && <BackupCodesLeft left={data.backupCodesLeft} onBackupCodes={setBackupCodes} />}
        </>
      ) : status.isError ? (
        <Text role="alert">The two-step sign-in settings could not be loaded.</Text>
      ) : (
        <Spinner size="tiny" label="Loading..." />
      )}
    </section>
  );
}
