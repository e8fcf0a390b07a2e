import type { MouseEvent } from 'react';
import { Button, Card, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { useLocation, useNavigate } from '../../../lib/router';
import type { IncomingShare, IncomingSharesAnswer, User } from '@everest/core/contract';
import { useSharedWithMe } from '../api/shares';
import { usePortalStyles } from '../components/portal-styles';
import { YourDocuments } from './your-documents';

const useStyles = makeStyles({
  switcher: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS },
  choices: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
  },
  // A long name with its entity wraps inside the button rather than leaving the card on a phone.
  choice: { maxWidth: '100%', height: 'auto', whiteSpace: 'normal', textAlign: 'start', overflowWrap: 'anywhere' },
});

/** The address parameter that holds whose documents are on screen: `?for=<owner id>`. */
export const whoseDocumentsParam = 'for';

/** The share the address names, or undefined for the person's own documents (or a bad value). */
function ownerIdOf(search: string): number | undefined {
  const value = new URLSearchParams(search).get(whoseDocumentsParam);
  return value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : undefined;
}

/** The investor a share is from, as the switch and the titles name them: 'Olivia Brennan, Brennan Family Trust'. */
export function sharerLabel(share: IncomingShare): string {
  return share.ownerEntity ? `${share.ownerName}, ${share.ownerEntity}` : share.ownerName;
}

interface SwitchProps {
  answer: IncomingSharesAnswer;
  /** The owner whose documents are on screen; undefined for the person's own. */
  selected: number | undefined;
}

/**
 * The switch between whose documents: 'My documents' for someone with documents of
 * their own, then each investor who shares with them. Each choice is a link to the address that
 * holds it, so Back returns to the one before and a choice can be bookmarked.
 */
function DocumentsSwitch({ answer, selected }: SwitchProps) {
  const styles = useStyles();
  const portal = usePortalStyles();
  const location = useLocation();
  const navigate = useNavigate();

  const searchFor = (ownerId: number | undefined) => {
    const params = new URLSearchParams(location.search);
    if (ownerId === undefined) params.delete(whoseDocumentsParam);
    else params.set(whoseDocumentsParam, String(ownerId));
    const search = params.toString();
    return search ? `?${search}` : '';
  };

  const choices = [
    ...(answer.ownDocuments ? [{ key: 'own', ownerId: undefined, label: 'My documents' }] : []),
    ...answer.shares.map((share) => ({ key: String(share.id), ownerId: share.ownerId, label: sharerLabel(share) })),
  ];

  const go = (event: MouseEvent, ownerId: number | undefined) => {
    // A new tab or window (Ctrl, Shift, middle button) is the browser's to open.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate({ pathname: location.pathname, search: searchFor(ownerId) });
  };

  return (
    <nav className={styles.switcher} aria-label="Whose documents">
      <Text className={portal.muted}>Whose documents:</Text>
      <ul className={styles.choices}>
        {choices.map((choice) => {
          const current = choice.ownerId === selected;
          return (
            <li key={choice.key}>
              <Button
                as="a"
                className={styles.choice}
                href={`${location.pathname}${searchFor(choice.ownerId)}`}
                appearance={current ? 'primary' : 'secondary'}
                aria-current={current ? 'page' : undefined}
                onClick={(event) => go(event, choice.ownerId)}
              >
                {choice.label}
              </Button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * The documents part of the signed-in view: the person's own documents, or an
 * investor's who shares with them, chosen in the address. An account made by a share (a
 * delegate) has none of its own and opens on the first share.
 */
export function PortalDocuments({ user }: { user: User }) {
  const portal = usePortalStyles();
  const location = useLocation();
  const shared = useSharedWithMe();
  const asked = ownerIdOf(location.search);
  const delegateOnly = user.role === 'delegate';

  // Until the shares are known, the person's own documents show as before; a delegate and an
  // address naming a share wait.
  const answer: IncomingSharesAnswer | undefined =
    shared.data ?? (shared.isError ? { ownDocuments: !delegateOnly, shares: [] } : undefined);
  if (!answer) {
    if (asked === undefined && !delegateOnly) return <YourDocuments />;
    return (
      <Card className={portal.card}>
        <Spinner label="Loading documents..." />
      </Card>
    );
  }

  const share = asked !== undefined ? answer.shares.find((s) => s.ownerId === asked) : answer.ownDocuments ? undefined : answer.shares[0];
  const documentsSwitch = answer.shares.length > 0 ? <DocumentsSwitch answer={answer} selected={asked ?? share?.ownerId} /> : undefined;

  if (share || (asked === undefined && answer.ownDocuments)) return <YourDocuments share={share} switcher={documentsSwitch} />;

  // Nothing to show: a share that ended (or an address naming nobody who shares), or a delegate
  // with no share left.
  return (
    <Card className={portal.card} aria-labelledby="your-documents-title">
      <h2 id="your-documents-title" className={portal.cardTitle}>
        Shared documents
      </h2>
      {documentsSwitch}
      <Text role="status">
        {asked !== undefined ? 'This investor does not share documents with you now.' : 'Nothing is shared with you now.'}
      </Text>
    </Card>
  );
}
