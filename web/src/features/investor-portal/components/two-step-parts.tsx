import { useRef } from 'react';
import { makeStyles, MessageBar, MessageBarBody, tokens } from '@fluentui/react-components';
import { showToast } from '../../../lib/toast';
import { usePortalSession } from '../lib/portal-session';

/** What the second-step screens share: their styles, failure toasts, focus return and the keep-one notice. */
export const useTwoStepStyles = makeStyles({
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

export function useFailure() {
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
export function useReturnFocus() {
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

/** Why the last second step of a role that must have one stays, said at the Remove button's side. */
export function KeepOneNotice({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <MessageBar intent="warning" role="alert">
      <MessageBarBody>{text}</MessageBarBody>
    </MessageBar>
  );
}

export interface MethodProps {
  /** The account has a second step, so a current code may stand for the password. */
  codeAllowed: boolean;
  /** This method is the account's only second step and the role must keep one. */
  mustKeep: boolean;
  /** Removing this method would leave the account without a second step. */
  isLast: boolean;
  onBackupCodes: (codes: string[]) => void;
}
