import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Card, Field, Input, MessageBar, MessageBarBody, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { SessionState } from '../../../shared/api';
import { errorMessage } from '../lib/error-message';

const useStyles = makeStyles({
  card: { maxWidth: '26rem', margin: `${tokens.spacingVerticalXXXL} auto` },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

type SecondStep = Extract<SessionState, { signedIn: false }>['secondStep'];

/**
 * The second step of a sign-in whose password was right: a code from the authenticator app or a
 * backup code. Passkeys are for the portal's own site, which the app's window is not.
 */
function SecondStepForm({ methods, onSession }: { methods: NonNullable<SecondStep>['methods']; onSession: (state: SessionState) => void }) {
  const styles = useStyles();
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  useEffect(() => codeRef.current?.focus(), []);
  const totp = methods.includes('totp');

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      onSession(await window.desktop.verifySecondStep(code));
    } catch (error) {
      setFailure(errorMessage(error));
      setCode('');
      codeRef.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className={styles.form} onSubmit={(event) => void submit(event)} aria-label="Two-step sign-in">
      <Text>
        {totp ? 'Enter the 6-digit code from your authenticator app, or one of your backup codes.' : 'Enter one of your backup codes.'} Passkeys
        cannot be used in the desktop app.
      </Text>
      <Field label="Authentication code" required>
        <Input ref={codeRef} value={code} onChange={(_, data) => setCode(data.value)} autoComplete="one-time-code" maxLength={40} />
      </Field>
      {failure && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{failure}</MessageBarBody>
        </MessageBar>
      )}
      <Button type="submit" appearance="primary" disabled={busy}>
        {busy ? 'Verifying…' : 'Verify'}
      </Button>
      <Button type="button" onClick={() => void window.desktop.signOut().then(onSession)}>
        Cancel
      </Button>
    </form>
  );
}

/** The one sign-in of the app: the panel and the sync both use the session it opens (kept in main). */
export function SignInScreen({
  serverUrl,
  secondStep,
  onSignedIn,
}: {
  serverUrl: string;
  secondStep?: SecondStep;
  onSignedIn: (state: SessionState) => void;
}) {
  const styles = useStyles();
  const [server, setServer] = useState(serverUrl);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const saved = await window.desktop.setServerUrl(server);
      setServer(saved.serverUrl);
      onSignedIn(await window.desktop.signIn(email, password));
    } catch (error) {
      setFailure(errorMessage(error));
      setPassword('');
    } finally {
      setBusy(false);
    }
  }

  if (secondStep) {
    return (
      <Card className={styles.card}>
        <Text as="h2" size={500} weight="semibold">
          Two-step sign-in
        </Text>
        <SecondStepForm methods={secondStep.methods} onSession={onSignedIn} />
      </Card>
    );
  }

  return (
    <Card className={styles.card}>
      <Text as="h2" size={500} weight="semibold">
        Sign in
      </Text>
      <form className={styles.form} onSubmit={(event) => void submit(event)} aria-label="Sign in">
        <Field label="Portal address" hint="For example https://portal.example.com (http:// only for a portal on this computer)" required>
          <Input value={server} onChange={(_, data) => setServer(data.value)} type="url" autoComplete="url" />
        </Field>
        <Field label="E-mail" required>
          <Input value={email} onChange={(_, data) => setEmail(data.value)} type="email" autoComplete="username" />
        </Field>
        <Field label="Password" required>
          <Input value={password} onChange={(_, data) => setPassword(data.value)} type="password" autoComplete="current-password" />
        </Field>
        {failure && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{failure}</MessageBarBody>
          </MessageBar>
        )}
        <Button type="submit" appearance="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
    </Card>
  );
}
