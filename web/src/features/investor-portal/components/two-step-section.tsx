import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Field, Input, makeStyles, MessageBar, MessageBarBody, Spinner, Text, tokens } from '@fluentui/react-components';
import { keepOneSecondStep, maxPasskeys, passkeyName, type OwnerProof, type PasskeySummary, type StartTotpAnswer } from '@everest/core/contract';
import { formatDate } from '@everest/core/domain';
import { showToast } from '../../../lib/toast';
import {
  useCodeAllowed,
  useConfirmTotp,
  useRegenerateBackupCodes,
  useRegisterPasskey,
  useRemovePasskey,
  useRemoveTotp,
  useSecondStep,
  useStartTotp,
} from '../api/second-step';
import { usePortalSession } from '../lib/portal-session';
import { ConfirmOwnerDialog } from './confirm-owner-dialog';
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
  // A plain grid, no list numbers: a number beside a code reads as part of it.
  codes: {
    listStyleType: 'none',
    margin: 0,
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalL}`,
    display: 'grid',
    gridTemplateColumns: 'repeat(2, max-content)',
    justifyContent: 'start',
    gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalXXXL}`,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
    userSelect: 'all',
    // Two columns of 11 monospace characters fit a 375 px phone; narrower than that, one.
    '@media (max-width: 340px)': { gridTemplateColumns: 'max-content' },
  },
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

function useFailure() {
  const session = usePortalSession();
  return (title: string) => (error: Error) => {
    if (session.endIfUnauthorized(error)) return;
    showToast({ title, description: error.message, variant: 'destructive' });
  };
}

/**
 * The dialog's opener gets the focus back once the dialog is gone (it is unmounted on close),
 * or `fallback` when the change removed the opener.
 */
function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    remember: (element: HTMLElement) => {
      opener.current = element;
    },
    restore: (fallback?: HTMLElement | null) => {
      const element = opener.current;
      requestAnimationFrame(() => (element?.isConnected ? element : fallback)?.focus());
    },
  };
}

/** Backup codes, shown once after they are made, with Copy and Download; Done forgets them. */
function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const portal = usePortalStyles();
  const styles = useStyles();
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

/** Why the last second step of a role that must have one stays, said at the Remove button's side. */
function KeepOneNotice({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <MessageBar intent="warning" role="alert">
      <MessageBarBody>{text}</MessageBarBody>
    </MessageBar>
  );
}

interface MethodProps {
  /** The account has a second step, so a current code may stand for the password. */
  codeAllowed: boolean;
  /** This method is the account's only second step and the role must keep one. */
  mustKeep: boolean;
  /** Removing this method would leave the account without a second step. */
  isLast: boolean;
  onBackupCodes: (codes: string[]) => void;
}

/** The code of the app's set-up, after the owner proof: QR code and key, then the first code. */
function TotpConfirm({ pending, onCancel, onBackupCodes }: { pending: StartTotpAnswer; onCancel: () => void; onBackupCodes: (codes: string[]) => void }) {
  const portal = usePortalStyles();
  const styles = useStyles();
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
function AuthenticatorApp({ on, first, codeAllowed, mustKeep, isLast, onBackupCodes }: MethodProps & { on: boolean; first: boolean }) {
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

/** The account's passkeys, each with its own Remove, and a form to add one (named by the user). */
function Passkeys({ passkeys, codeAllowed, mustKeep, isLast, onBackupCodes }: MethodProps & { passkeys: PasskeySummary[] }) {
  const portal = usePortalStyles();
  const styles = useStyles();
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

/** While any second step is on: how many backup codes are left, and a new set for a proof. */
function BackupCodesLeft({ left, onBackupCodes }: { left: number; onBackupCodes: (codes: string[]) => void }) {
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

/**
 * Manage Profile's 'Two-step sign-in' section (issues 21 and 33): passkeys and an authenticator
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
