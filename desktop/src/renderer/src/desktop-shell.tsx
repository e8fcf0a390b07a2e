import { useEffect, useState } from 'react';
import { Button, Caption1, Spinner, Tab, TabList, Text, makeStyles, tokens } from '@fluentui/react-components';
import { AdminPanel } from '@everest/web/admin';
import type { SessionState } from '../../shared/api';
import { errorMessage } from './lib/error-message';
import { CsvPreviewScreen } from './screens/csv-preview-screen';
import { FolderDropScreen } from './screens/folder-drop/folder-drop-screen';
import { SignInScreen } from './screens/sign-in-screen';
import { SyncStatusScreen } from './screens/sync-status-screen';

const useStyles = makeStyles({
  shell: { display: 'flex', flexDirection: 'column', minHeight: '100vh', backgroundColor: tokens.colorNeutralBackground2 },
  header: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalL,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  server: { marginLeft: 'auto', color: tokens.colorNeutralForeground3 },
  main: { padding: tokens.spacingHorizontalL },
  screens: { marginBottom: tokens.spacingVerticalL },
});

const screens = {
  panel: 'Administration Panel',
  'folder-drop': 'Folder Drop',
  'csv-preview': 'CSV Preview',
  sync: 'Watched Folder',
} as const;
type Screen = keyof typeof screens;
const screenKeys = Object.keys(screens) as Screen[];

type ShellState = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; session: SessionState };

/** The desktop frame: sign-in, then the shared admin panel and the desktop's own screens. */
export function DesktopShell() {
  const styles = useStyles();
  const [shell, setShell] = useState<ShellState>({ state: 'loading' });
  const [screen, setScreen] = useState<Screen>('panel');

  useEffect(() => {
    let current = true;
    window.desktop
      .getSession()
      .then((session): ShellState => ({ state: 'ready', session }))
      .catch((error: unknown): ShellState => ({ state: 'failed', message: errorMessage(error) }))
      .then((state) => {
        if (current) setShell(state);
      });
    const unsubscribe = window.desktop.onSessionChange((session) => setShell({ state: 'ready', session }));
    return () => {
      current = false;
      unsubscribe();
    };
  }, []);

  const session = shell.state === 'ready' ? shell.session : null;
  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <Text as="h1" weight="semibold" size={400}>
          Everest Admin
        </Text>
        <Caption1>{window.desktop.appVersion && `v${window.desktop.appVersion}`}</Caption1>
        <Caption1 className={styles.server} role="status">
          {session?.signedIn ? `${session.user.email} on ${session.serverUrl}` : session ? `Server: ${session.serverUrl}` : ''}
        </Caption1>
        {session?.signedIn && (
          <Button
            size="small"
            onClick={() => void window.desktop.signOut().then((state) => setShell({ state: 'ready', session: state }))}
          >
            Sign out
          </Button>
        )}
      </header>
      <main className={styles.main}>
        {shell.state === 'loading' && <Spinner label="Starting…" />}
        {shell.state === 'failed' && <Text role="alert">The app could not start: {shell.message}</Text>}
        {session && !session.signedIn && (
          <SignInScreen
            serverUrl={session.serverUrl}
            secondStep={session.secondStep}
            onSignedIn={(state) => setShell({ state: 'ready', session: state })}
          />
        )}
        {session?.signedIn && (
          <>
            <TabList
              className={styles.screens}
              selectedValue={screen}
              onTabSelect={(_, data) => setScreen(screenKeys.find((key) => key === data.value) ?? 'panel')}
              aria-label="Desktop sections"
            >
              {screenKeys.map((key) => (
                <Tab key={key} value={key}>
                  {screens[key]}
                </Tab>
              ))}
            </TabList>
            <div role="tabpanel" aria-label={screens[screen]}>
              {screen === 'panel' && <AdminPanel currentUser={session.user} />}
              {screen === 'folder-drop' && <FolderDropScreen />}
              {screen === 'csv-preview' && <CsvPreviewScreen />}
              {screen === 'sync' && <SyncStatusScreen />}
            </div>
          </>
        )}
      </main>
    </div>
  );
}
