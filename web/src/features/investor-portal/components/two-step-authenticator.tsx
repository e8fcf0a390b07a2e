import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Field, Input, Text } from '@fluentui/react-components';
import { keepOneSecondStep, type OwnerProof, type StartTotpAnswer } from '@everest/core/contract';
import { showToast } from '../../../lib/toast';
import { useConfirmTotp, useRemoveTotp, useStartTotp } from '../api/second-step';
import { ConfirmOwnerDialog } from './confirm-owner-dialog';
import { usePortalStyles } from './portal-styles';
import { KeepOneNotice, useFailure, useReturnFocus, useTwoStepStyles, type MethodProps } from './two-step-parts';

/** Groups of four, as authenticator apps show a key typed by hand. */
const spaced = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/** The code of the app's set-up, after the owner proof: QR code and key, then the first code. */
function TotpConfirm({ pending, onCancel, onBackupCodes }: { pending: StartTotpAnswer; onCancel: () => void; onBackupCodes: (codes: string[]) => void }) {
  const portal = usePortalStyles();
  const styles = useTwoStepStyles();
  const failure = useFailure();
  const confirm = useConfirmTotp();
  const [code, setCode] = useState('');
  const codeRef = useRef<HTMLInputElement>(null);
  useEffect(() => codeRef.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirm.isPending) return;
    confirm.mutate(
      { code },
      {
        onSuccess: (answer) => {
          showToast({ title: 'Two-step sign-in is on' });
          onBackupCodes(answer.backupCodes);
        },
        onError: (error) => {
          setCode('');
          failure('Two-step sign-in is not on yet')(error);
          codeRef.current?.focus();
        },
      },
    );
  };

  return (
    <form className={portal.form} onSubmit={submit} noValidate aria-labelledby="totp-setup-title">
      <h4 id="totp-setup-title" className={portal.sectionTitle}>
        Set up your authenticator app
      </h4>
      <Text>1. Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).</Text>
      {/* Drawn by our server from the otpauth address: the secret never goes to a third party. */}
      <img
        className={styles.qr}
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(pending.qrSvg)}`}
        alt="QR code for your authenticator app. If you cannot scan it, enter the key shown below by hand."
      />
      <Text>
        Or enter this key by hand: <span className={styles.secret} data-testid="totp-secret">{spaced(pending.secret)}</span>
      </Text>
      <Field label="2. Enter the 6-digit code the app shows" required>
        <Input
          ref={codeRef}
          name="totp-code"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={7}
          value={code}
          onChange={(_, data) => setCode(data.value)}
        />
      </Field>
      <div className={portal.buttons}>
        <Button type="submit" appearance="primary" disabledFocusable={confirm.isPending}>
          {confirm.isPending ? 'Checking...' : 'Confirm and turn on'}
        </Button>
        <Button type="button" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** The authenticator app: set up with its own Remove, or a button that starts the set-up. */
export function AuthenticatorApp({ on, first, codeAllowed, mustKeep, isLast, onBackupCodes }: MethodProps & { on: boolean; first: boolean }) {
  const portal = usePortalStyles();
  const start = useStartTotp();
  const remove = useRemoveTotp();
  const focus = useReturnFocus();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [dialog, setDialog] = useState<'start' | 'remove' | null>(null);
  const [pending, setPending] = useState<StartTotpAnswer | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const startLabel = first ? 'Turn on two-step sign-in' : 'Add an authenticator app';

  const close = () => {
    setDialog(null);
    focus.restore(headingRef.current);
  };

  return (
    <div className={portal.form}>
      <h4 className={portal.sectionTitle} tabIndex={-1} ref={headingRef}>
        Authenticator app
      </h4>
      {on ? (
        <ul className={portal.itemList} aria-label="Your authenticator app">
          <li className={portal.item}>
            <span className={portal.itemText}>
              <Text weight="semibold">Your authenticator app</Text>
              <Text size={200} className={portal.muted}>
                Set up: signing in can ask for the 6-digit code it shows.
              </Text>
            </span>
            <Button
              size="small"
              aria-label="Remove the authenticator app"
              onClick={(event) => {
                if (mustKeep) return setNotice(keepOneSecondStep.totp);
                setNotice(null);
                focus.remember(event.currentTarget);
                setDialog('remove');
              }}
            >
              Remove
            </Button>
          </li>
        </ul>
      ) : pending ? (
        <TotpConfirm
          pending={pending}
          onBackupCodes={onBackupCodes}
          onCancel={() => {
            setPending(null);
            requestAnimationFrame(() => headingRef.current?.focus());
          }}
        />
      ) : (
        <>
          <Text className={portal.muted}>A code from an app on your phone, such as Google Authenticator or Microsoft Authenticator.</Text>
          <div className={portal.buttons}>
            <Button
              appearance={first ? 'primary' : 'secondary'}
              onClick={(event) => {
                focus.remember(event.currentTarget);
                setDialog('start');
              }}
            >
              {startLabel}
            </Button>
          </div>
        </>
      )}
      <KeepOneNotice text={mustKeep ? notice : null} />
      {dialog === 'start' && (
        <ConfirmOwnerDialog
          title={startLabel}
          confirmLabel="Continue"
          pendingLabel="Checking..."
          codeAllowed={codeAllowed}
          onClose={close}
          onConfirm={async (proof: OwnerProof) => {
            setPending(await start.mutateAsync(proof));
            // The set-up's code field takes the focus (TotpConfirm).
            setDialog(null);
          }}
        >
          <Text>Next, you scan a QR code with the authenticator app on your phone.</Text>
        </ConfirmOwnerDialog>
      )}
      {dialog === 'remove' && (
        <ConfirmOwnerDialog
          title="Remove the authenticator app?"
          confirmLabel="Remove authenticator app"
          pendingLabel="Removing..."
          codeAllowed={codeAllowed}
          onClose={close}
          onConfirm={async (proof: OwnerProof) => {
            const answer = await remove.mutateAsync(proof);
            showToast({ title: answer.message });
            close();
          }}
        >
          <Text>
            {isLast
              ? 'Its codes will no longer sign you in. It is your last second step: signing in will ask for your password only, and your backup codes will stop working.'
              : 'Its codes will no longer sign you in. Your passkeys and backup codes still will.'}
          </Text>
        </ConfirmOwnerDialog>
      )}
    </div>
  );
}
