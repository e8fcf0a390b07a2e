import { useRef } from 'react';
import { Badge, Button, makeStyles, Spinner, Text, tokens, useRestoreFocusTarget } from '@fluentui/react-components';
import type { AdminShare } from '@everest/core/contract';
import { shareEndWords, shareScopeWords, shareStatusLabels } from '../../../lib/share-words';
import { useEndShare, useUserShares } from '../api/user-shares';
import { useConfirmDelete } from '../../../lib/admin/use-confirm-delete';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS, minWidth: 0 },
  title: {
    margin: 0,
    fontSize: tokens.fontSizeBase300,
    fontWeight: tokens.fontWeightSemibold,
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS },
  row: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  text: { display: 'flex', flexDirection: 'column', minWidth: 0, overflowWrap: 'anywhere' },
  who: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  muted: { color: tokens.colorNeutralForeground2 },
  noWrap: { whiteSpace: 'nowrap' },
});

const statusColors = { invited: 'warning', active: 'success', expired: 'subtle' } as const;

type Side = 'given' | 'received';

/** The other person of a share, seen from the user being edited. */
function otherOf(share: AdminShare, side: Side): { name: string | null; email: string } {
  return side === 'given' ? { name: share.delegateName, email: share.delegateEmail } : { name: share.ownerName, email: share.ownerEmail };
}

function ShareRow({ share, side, onEnd }: { share: AdminShare; side: Side; onEnd: (share: AdminShare) => void }) {
  const styles = useStyles();
  const restoreFocusTarget = useRestoreFocusTarget();
  const other = otherOf(share, side);
  const who = other.name ? `${other.name} (${other.email})` : other.email;
  return (
    <li className={styles.row}>
      <span className={styles.text}>
        <span className={styles.who}>
          <Text weight="semibold">{who}</Text>
          <Badge appearance="tint" color={statusColors[share.status]}>
            {shareStatusLabels[share.status]}
          </Badge>
        </span>
        <Text>{shareScopeWords(share)}</Text>
        <Text size={200} className={styles.muted}>
          {[shareEndWords(share.endsOn), share.notify ? 'E-mailed about new documents' : 'Not e-mailed about new documents'].join(' · ')}
        </Text>
      </span>
      <Button {...restoreFocusTarget} size="small" className={styles.noWrap} aria-label={`End share with ${who}`} onClick={() => onEnd(share)}>
        End share
      </Button>
    </li>
  );
}

/**
 * In the user editor: the people this user lets see their documents (their delegates)
 * and the investors who let this user see theirs, each with End share for a share the firm must
 * stop (an accountant who left, a divorce). Ending takes effect at the delegate's next request.
 */
export function UserSharesSection({ userId, label }: { userId: number; label: string }) {
  const styles = useStyles();
  const shares = useUserShares(userId);
  const end = useEndShare();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ending = useConfirmDelete<{ share: AdminShare; side: Side }, { message: string }>({
    remove: ({ share }, outcome) => {
      if (!end.isPending) end.mutate(share.id, outcome);
    },
    pending: end.isPending,
    deleted: (_item, answer) => ['Share ended', answer.message],
    failure: 'Share not ended',
    // The row and its button are gone: the section's heading takes the focus.
    onDeleted: () => requestAnimationFrame(() => headingRef.current?.focus()),
  });
  const headingId = `user-shares-${userId}`;

  if (!shares.data) {
    return shares.isError ? (
      <Text>Shared access: could not be loaded.</Text>
    ) : (
      <Spinner size="tiny" label="Shared access: loading..." labelPosition="after" />
    );
  }
  const { given, received, sharingAllowed } = shares.data;

  const list = (side: Side, items: AdminShare[], title: string, none: string) => (
    <>
      <Text weight="semibold">{title}</Text>
      {items.length === 0 ? (
        <Text className={styles.muted}>{none}</Text>
      ) : (
        <ul className={styles.list} aria-label={title}>
          {items.map((share) => (
            <ShareRow key={share.id} share={share} side={side} onEnd={(s) => ending.ask({ share: s, side })} />
          ))}
        </ul>
      )}
    </>
  );

  const shown = ending.deleting;
  const other = shown && otherOf(shown.share, shown.side);
  return (
    // The dialog is rendered in a portal, but its key presses still bubble through React to the
    // editor's form, whose Escape closes the editor: those from outside the section stop here.
    <section
      className={styles.section}
      aria-labelledby={headingId}
      onKeyDown={(event) => {
        if (event.target instanceof Node && !event.currentTarget.contains(event.target)) event.stopPropagation();
      }}
    >
      <h5 id={headingId} ref={headingRef} tabIndex={-1} className={styles.title}>
        Shared access
      </h5>
      {!sharingAllowed && <Text>Sharing is turned off for the firm: none of these shares gives access now.</Text>}
      {list('given', given, `Shared by ${label}`, `${label} shares with nobody.`)}
      {list('received', received, `Shared with ${label}`, 'Nobody shares with them.')}
      <ConfirmDialog
        {...ending.dialog}
        title={shown ? `End the share ${shown.side === 'given' ? `with ${other?.name ?? other?.email}` : `from ${other?.name ?? other?.email}`}?` : ''}
        confirmLabel="End share"
        pendingLabel="Ending..."
      >
        {shown &&
          `${shown.share.delegateEmail} will no longer see ${shown.share.ownerName}'s documents (${shareScopeWords(shown.share)}), from their next request. Only ${shown.share.ownerName} can share with them again.`}
      </ConfirmDialog>
    </section>
  );
}
