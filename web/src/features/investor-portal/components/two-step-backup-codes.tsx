import { useEffect, useRef, useState } from 'react';
import { Button, Text } from '@fluentui/react-components';
import type { OwnerProof } from '@everest/core/contract';
import { formatDate } from '@everest/core/domain';
import { showToast } from '../../../lib/toast';
import { useRegenerateBackupCodes } from '../api/second-step';
import { usePortalSession } from '../lib/portal-session';
import { ConfirmOwnerDialog } from './confirm-owner-dialog';
import { usePortalStyles } from './portal-styles';
import { useReturnFocus, useTwoStepStyles } from './two-step-parts';

/** The file 'Download codes' saves; made in the browser, nothing goes to the server. */
export const backupCodesFileName = 'everest-backup-codes.txt';

function backupCodesFile(codes: string[], email: string | undefined): string {
  const account = email ? ` for ${email}` : '';
  return [
    `Everest Properties investor portal: backup codes${account}, made ${formatDate(new Date().toISOString())}.`,
    'Each code signs you in once when your authenticator app or passkey is not at hand. Making new codes voids these.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** Backup codes, shown once after they are made, with Copy and Download; Done forgets them. */
export function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const portal = usePortalStyles();
  const styles = useTwoStepStyles();
  const session = usePortalSession();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('No clipboard');
      await navigator.clipboard.writeText(codes.join('\n'));
      showToast({ title: 'Backup codes copied', description: 'Paste them somewhere only you can open, such as your password manager.' });
    } catch {
      showToast({
        title: 'The codes could not be copied',
        description: 'This browser did not allow the copy. Please use Download codes, or select the codes and copy them.',
        variant: 'destructive',
      });
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([backupCodesFile(codes, session.user?.email)], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = backupCodesFileName;
    document.body.append(link);
    link.click();
    link.remove();
    // Some browsers read the address after the click returns: let it live a little.
    setTimeout(() => URL.revokeObjectURL(url), 30_000);
  };

  return (
    <div className={portal.form} role="region" aria-labelledby="backup-codes-title">
      <h4 id="backup-codes-title" className={portal.sectionTitle} tabIndex={-1} ref={headingRef}>
        Your backup codes
      </h4>
      <Text>
        Each code signs you in once if your phone or passkey is not at hand. Save them somewhere safe now: they are not shown again.
      </Text>
      <ul className={styles.codes} aria-label="Backup codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className={portal.buttons}>
        <Button onClick={() => void copy()}>Copy codes</Button>
        <Button onClick={download}>Download codes</Button>
      </div>
      <div className={portal.buttons}>
        <Button appearance="primary" onClick={onDone}>
          I have saved my backup codes
        </Button>
      </div>
    </div>
  );
}

/** While any second step is on: how many backup codes are left, and a new set for a proof. */
export function BackupCodesLeft({ left, onBackupCodes }: { left: number; onBackupCodes: (codes: string[]) => void }) {
  const portal = usePortalStyles();
  const regenerate = useRegenerateBackupCodes();
  const focus = useReturnFocus();
  const [open, setOpen] = useState(false);

  return (
    <div className={portal.form}>
      <h4 className={portal.sectionTitle}>Backup codes</h4>
      <Text>Two-step sign-in is on. {left === 1 ? '1 backup code is' : `${left} backup codes are`} left.</Text>
      <div className={portal.buttons}>
        <Button
          onClick={(event) => {
            focus.remember(event.currentTarget);
            setOpen(true);
          }}
        >
          New backup codes
        </Button>
      </div>
      {open && (
        <ConfirmOwnerDialog
          title="Make new backup codes?"
          confirmLabel="Make new codes"
          pendingLabel="Making..."
          codeAllowed
          onClose={() => {
            setOpen(false);
            focus.restore();
          }}
          onConfirm={async (proof: OwnerProof) => {
            const answer = await regenerate.mutateAsync(proof);
            setOpen(false);
            onBackupCodes(answer.backupCodes);
          }}
        >
          <Text>The codes you saved before will stop working.</Text>
        </ConfirmOwnerDialog>
      )}
    </div>
  );
}
