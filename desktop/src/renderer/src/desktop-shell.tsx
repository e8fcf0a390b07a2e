import { useEffect, useState } from 'react';
import { Caption1, Text, makeStyles, tokens } from '@fluentui/react-components';
import { AdminPanel } from '@everest/web/admin';

const useStyles = makeStyles({
  shell: { display: 'flex', flexDirection: 'column', minHeight: '100vh', backgroundColor: tokens.colorNeutralBackground2 },
  header: {
    display: 'flex',
    alignItems: 'baseline',
    gap: tokens.spacingHorizontalL,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  server: { marginLeft: 'auto', color: tokens.colorNeutralForeground3 },
  main: { padding: tokens.spacingHorizontalL },
});

type ServerStatus = { state: 'loading' } | { state: 'ready'; serverUrl: string } | { state: 'failed'; message: string };

/** The desktop frame around the shared admin panel: which server it talks to, and the version. */
export function DesktopShell() {
  const styles = useStyles();
  const [server, setServer] = useState<ServerStatus>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    window.desktop
      .getSettings()
      .then((settings): ServerStatus => ({ state: 'ready', serverUrl: settings.serverUrl }))
      .catch((error: unknown): ServerStatus => ({ state: 'failed', message: errorMessage(error) }))
      .then((status) => {
        if (current) setServer(status);
      });
    return () => {
      current = false;
    };
  }, []);

  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <Text as="h1" weight="semibold" size={400}>
          Everest Admin
        </Text>
        <Caption1>{window.desktop.appVersion && `v${window.desktop.appVersion}`}</Caption1>
        <Caption1 className={styles.server} role="status">
          {server.state === 'loading' && 'Reading settings…'}
          {server.state === 'ready' && `Server: ${server.serverUrl}`}
          {server.state === 'failed' && `Settings could not be read: ${server.message}`}
        </Caption1>
      </header>
      <main className={styles.main}>
        <AdminPanel />
      </main>
    </div>
  );
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
