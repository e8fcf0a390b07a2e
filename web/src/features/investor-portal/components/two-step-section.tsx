import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { maxPasskeys, passkeyName, type PasskeySummary, type StartTotpAnswer } from '@everest/core/contract';
import { formatDate } from '@everest/core/domain';
import { showToast } from '../../../lib/toast';
import {
  useConfirmTotp,
  useDisableSecondStep,
  useRegenerateBackupCodes,
  useRegisterPasskey,
  useRemovePasskey,
  useSecondStep,
  useStartTotp,
} from '../api/second-step';
import { usePortalSession } from '../lib/portal-session';
import { usePortalStyles } from './portal-styles';

const useStyles = makeStyles({
  qr: {
    display: 'block',
    width: '180px',
    height: '180px',
    backgroundColor: '#ffffff',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  secret: {
    fontFamily: tokens.fontFamilyMonospace,
    overflowWrap: 'anywhere',
    userSelect: 'all',
  },
  codes: {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, max-content)',
    gap: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalXXL}`,
    margin: 0,
    paddingLeft: tokens.spacingHorizontalXL,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase400,
  },
  passkeys: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
  },
  passkey: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  passkeyText: { display: 'flex', flexDirection: 'column', minWidth: 0, overflowWrap: 'anywhere' },
  addPasskey: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'end',
    gap: tokens.spacingHorizontalM,
    '& > :first-child': { flexGrow: 1, minWidth: '200px' },
  },
});

/** Groups of four, as authenticator apps show a key typed by hand. */
const spaced = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

function useFailure() {
  const session = usePortalSession();
  return (title: string) => (error: Error) => {
    if (session.endIfUnauthorized(error)) return;
    showToast({ title, description: error.message, variant: 'destructive' });
  };
}

/** Backup codes, shown once after they are made; Done forgets them. */
function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const portal = usePortalStyles();
  const styles = useStyles();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className={portal.form} role="region" aria-labelledby="backup-codes-title">
      <h4 id="backup-codes-title" className={portal.sectionTitle} tabIndex={-1} ref={headingRef}>
        Your backup codes
      </h4>
      <Text>
        Each code signs you in once if your phone is not at hand. Save them somewhere safe now: they are not shown again.
      </Text>
      <ol className={styles.codes} aria-label="Backup codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className={portal.buttons}>
        <Button appearance="primary" onClick={onDone}>
          I have saved my backup codes
        </Button>
      </div>
    </div>
  );
}

/** Turning it on: QR code and key, then the first code from the app. */
function TotpSetUp({ first, onBackupCodes }: { first: boolean; onBackupCodes: (codes: string[]) => void }) {
  const portal = usePortalStyles();
  const styles = useStyles();
  const failure = useFailure();
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const [pending, setPending] = useState<StartTotpAnswer | null>(null);
  const [code, setCode] = useState('');
  const codeRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (pending) codeRef.current?.focus();
  }, [pending]);

  if (!pending) {
    return (
      <div className={portal.buttons}>
        <Button
          appearance="primary"
          disabledFocusable={start.isPending}
          onClick={() => start.mutate(undefined, { onSuccess: setPending, onError: failure('Two-step sign-in could not be set up') })}
        >
          {start.isPending ? 'Starting...' : first ? 'Turn on two-step sign-in' : 'Add an authenticator app'}
        </Button>
      </div>
    );
  }

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
        <Button type="button" onClick={() => setPending(null)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** Asks for the password before a passkey goes; focus returns to its Remove button after. */
function RemovePasskeyDialog({ passkey, onClose }: { passkey: PasskeySummary; onClose: () => void }) {
  const portal = usePortalStyles();
  const failure = useFailure();
  const remove = useRemovePasskey();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (remove.isPending) return;
    if (!password) return setError('Please enter your password.');
    setError(undefined);
    remove.mutate(
      { passkeyId: passkey.id, password },
      {
        onSuccess: (answer) => {
          showToast({ title: answer.message });
          onClose();
        },
        onError: (e) => {
          setPassword('');
          failure('The passkey was not removed')(e);
        },
      },
    );
  };

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{`Remove the passkey "${passkey.name}"?`}</DialogTitle>
            <DialogContent className={portal.form}>
              <Text>It will no longer sign you in. Please enter your password to confirm.</Text>
              <Field label="Password" required validationMessage={error}>
                <Input type="password" autoComplete="current-password" value={password} onChange={(_, data) => setPassword(data.value)} />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button type="submit" appearance="primary" disabledFocusable={remove.isPending}>
                {remove.isPending ? 'Removing...' : 'Remove passkey'}
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

/** The account's passkeys, each removable, and a form to add one (named by the user). */
function Passkeys({ passkeys, onBackupCodes }: { passkeys: PasskeySummary[]; onBackupCodes: (codes: string[]) => void }) {
  const portal = usePortalStyles();
  const styles = useStyles();
  const failure = useFailure();
  const register = useRegisterPasskey();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [removing, setRemoving] = useState<PasskeySummary | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const removeButtons = useRef(new Map<number, HTMLElement>());

  // The dialog is unmounted when it closes, so the focus is given back here: to the passkey's
  // Remove button, or to the name field when the passkey is gone.
  const closeDialog = () => {
    const trigger = removing && removeButtons.current.get(removing.id);
    setRemoving(null);
    requestAnimationFrame(() => (trigger?.isConnected ? trigger : nameRef.current)?.focus());
  };

  const add = (event: FormEvent) => {
    event.preventDefault();
    if (register.isPending) return;
    const parsed = passkeyName.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return nameRef.current?.focus();
    }
    setError(undefined);
    register.mutate(parsed.data, {
      onSuccess: (answer) => {
        setName('');
        showToast({ title: answer.message });
        if (answer.backupCodes.length > 0) onBackupCodes(answer.backupCodes);
      },
      onError: (e) => {
        failure('The passkey was not added')(e);
        nameRef.current?.focus();
      },
    });
  };

  return (
    <div className={portal.form}>
      <h4 className={portal.sectionTitle}>Passkeys</h4>
      <Text className={portal.muted}>
        A passkey uses this device's screen lock (fingerprint, face or PIN) or a security key: the easiest second step. Name each
        one after its device, for example "Work laptop".
      </Text>
      {passkeys.length > 0 && (
        <ul className={styles.passkeys} aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className={styles.passkey}>
              <span className={styles.passkeyText}>
                <Text weight="semibold">{passkey.name}</Text>
                <Text size={200} className={portal.muted}>
                  {`Added ${formatDate(passkey.createdAt)} · ${passkey.lastUsedAt ? `last used ${formatDate(passkey.lastUsedAt)}` : 'not used yet'}`}
                </Text>
              </span>
              <Button
                size="small"
                aria-label={`Remove ${passkey.name}`}
                ref={(button) => {
                  if (button) removeButtons.current.set(passkey.id, button);
                  else removeButtons.current.delete(passkey.id);
                }}
                onClick={() => setRemoving(passkey)}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {removing && <RemovePasskeyDialog passkey={removing} onClose={closeDialog} />}
      {passkeys.length < maxPasskeys && (
        <form className={styles.addPasskey} onSubmit={add} noValidate aria-label="Add a passkey">
          <Field label="Name of the new passkey" validationMessage={error}>
            <Input ref={nameRef} name="passkey-name" maxLength={60} value={name} onChange={(_, data) => setName(data.value)} />
          </Field>
          <Button type="submit" appearance={passkeys.length === 0 ? 'primary' : 'secondary'} disabledFocusable={register.isPending}>
            {register.isPending ? 'Waiting for your passkey...' : 'Add a passkey'}
          </Button>
        </form>
      )}
    </div>
  );
}

/** While on: new backup codes, or off, each for a current code. */
function SecondStepOn({
  totp,
  backupCodesLeft,
  required,
  onBackupCodes,
}: {
  totp: boolean;
  backupCodesLeft: number;
  required: boolean;
  onBackupCodes: (codes: string[]) => void;
}) {
  const portal = usePortalStyles();
  const failure = useFailure();
  const regenerate = useRegenerateBackupCodes();
  const disable = useDisableSecondStep();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const codeRef = useRef<HTMLInputElement>(null);
  const busy = regenerate.isPending || disable.isPending;

  const withCode = (run: () => void) => {
    if (busy) return;
    if (!code.trim()) {
      setError(totp ? 'Please enter a code from your authenticator app or a backup code.' : 'Please enter one of your backup codes.');
      return codeRef.current?.focus();
    }
    setError(undefined);
    run();
  };
  const failed = (title: string) => (e: Error) => {
    setCode('');
    failure(title)(e);
    codeRef.current?.focus();
  };

  return (
    <form className={portal.form} onSubmit={(event) => event.preventDefault()} noValidate aria-label="Change two-step sign-in">
      <h4 className={portal.sectionTitle}>Backup codes</h4>
      <Text>
        Two-step sign-in is on. {backupCodesLeft === 1 ? '1 backup code is' : `${backupCodesLeft} backup codes are`} left.
      </Text>
      <Field label={totp ? 'Current code (authenticator app or backup code)' : 'A backup code'} validationMessage={error}>
        <Input
          ref={codeRef}
          name="second-step-code"
          autoComplete="one-time-code"
          maxLength={40}
          value={code}
          onChange={(_, data) => setCode(data.value)}
        />
      </Field>
      <div className={portal.buttons}>
        <Button
          disabledFocusable={busy}
          onClick={() =>
            withCode(() =>
              regenerate.mutate(
                { code },
                { onSuccess: (answer) => (setCode(''), onBackupCodes(answer.backupCodes)), onError: failed('New backup codes could not be made') },
              ),
            )
          }
        >
          New backup codes
        </Button>
        {!required && (
          <Button
            disabledFocusable={busy}
            onClick={() =>
              withCode(() =>
                disable.mutate(
                  { code },
                  { onSuccess: (answer) => (setCode(''), showToast({ title: answer.message })), onError: failed('Two-step sign-in is still on') },
                ),
              )
            }
          >
            Turn off
          </Button>
        )}
      </div>
    </form>
  );
}

/**
 * Manage Profile's 'Two-step sign-in' section (issue 21): passkeys, an authenticator app (TOTP),
 * and the backup codes that go with either; turning it off removes them all. `intro` says why it is shown when the user's role must have it; `onFinished`
 * runs once the backup codes of a set-up have been put away.
 */
export function TwoStepSection({ intro, onFinished }: { intro?: string; onFinished?: () => void }) {
  const portal = usePortalStyles();
  const status = useSecondStep();
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null);

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
      ) : status.data ? (
        <>
          <Passkeys passkeys={status.data.passkeys} onBackupCodes={setBackupCodes} />
          <div className={portal.form}>
            <h4 className={portal.sectionTitle}>Authenticator app</h4>
            {status.data.totp ? (
              <Text>Your authenticator app is set up.</Text>
            ) : (
              <TotpSetUp first={status.data.passkeys.length === 0} onBackupCodes={setBackupCodes} />
            )}
          </div>
          {(status.data.totp || status.data.passkeys.length > 0) && (
            <SecondStepOn
              totp={status.data.totp}
              backupCodesLeft={status.data.backupCodesLeft}
              required={status.data.required}
              onBackupCodes={setBackupCodes}
            />
          )}
        </>
      ) : status.isError ? (
        <Text role="alert">The two-step sign-in settings could not be loaded.</Text>
      ) : (
        <Spinner size="tiny" label="Loading..." />
      )}
    </section>
  );
}
