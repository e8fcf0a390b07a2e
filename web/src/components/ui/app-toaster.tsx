import { useEffect, useRef, useState } from 'react';
import {
  Button,
  Toast,
  ToastBody,
  ToastFooter,
  ToastTitle,
  ToastTrigger,
  Toaster,
  makeStyles,
  mergeClasses,
  tokens,
  useToastController,
  type ToastIntent,
} from '@fluentui/react-components';
import { connectToaster, toasterId, type ToastAction, type ToastRequest } from '../../lib/toast';
import { DismissIcon } from './icons';
import { isToastFocusShortcut, toastSettings } from './toast-settings';
import { useSwipeDismiss } from './use-swipe-dismiss';

const useStyles = makeStyles({
  swipe: {
    // Vertical scrolling stays the browser's; horizontal movement reaches the swipe handler.
    touchAction: 'pan-y',
    userSelect: 'none',
  },
  settling: { transitionProperty: 'transform, opacity', transitionDuration: tokens.durationNormal },
  destructive: {
    backgroundColor: tokens.colorPaletteRedBackground1,
    border: `1px solid ${tokens.colorPaletteRedBorder2}`,
  },
});

/**
 * Holds the toast's timer while a pointer is on it (spec section 9: pause on hover), including a
 * finger mid-swipe. Fluent pauses on hover too, but restarts the timer regardless of the pointer
 * when the toast's entrance ends and when focus leaves the toaster; its explicit pause holds
 * through both, so the toast never goes from under a pointer that rests on it.
 */
function useHoldWhilePointed(toastId: string) {
  const { pauseToast, playToast } = useToastController(toasterId);
  const pointed = useRef(false);

  useEffect(() => {
    // Fluent's toaster resumes every toast on focusout (an explicit play, which lifts an explicit
    // pause); this listener, on the document, runs after the toaster's and holds it again.
    const holdAfterFocusLeaves = () => {
      if (pointed.current) pauseToast(toastId);
    };
    document.addEventListener('focusout', holdAfterFocusLeaves);
    return () => document.removeEventListener('focusout', holdAfterFocusLeaves);
  }, [pauseToast, toastId]);

  return {
    onPointerEnter: () => {
      pointed.current = true;
      pauseToast(toastId);
    },
    onPointerLeave: () => {
      pointed.current = false;
      // Fluent still keeps it paused while focus is inside the toast.
      playToast(toastId);
    },
  };
}

function SwipeableToast({ request, toastId }: { request: ToastRequest; toastId: string }) {
  const styles = useStyles();
  const { dismissToast } = useToastController(toasterId);
  const { offset, handlers } = useSwipeDismiss(() => dismissToast(toastId), toastSettings.swipeThresholdPx);
  const holdHandlers = useHoldWhilePointed(toastId);
  const destructive = request.variant === 'destructive';
  return (
    <div
      {...handlers}
      {...holdHandlers}
      className={mergeClasses(styles.swipe, offset === 0 && styles.settling)}
      style={{ transform: `translateX(${offset}px)`, opacity: Math.max(0.2, 1 - offset / 150) }}
      data-testid="toast"
      data-variant={request.variant ?? 'default'}
    >
      <Toast className={destructive ? styles.destructive : undefined}>
        <ToastTitle
          action={
            <ToastTrigger>
              <Button appearance="transparent" size="small" icon={<DismissIcon />} aria-label="Dismiss" />
            </ToastTrigger>
          }
        >
          {request.title}
        </ToastTitle>
        {request.description && <ToastBody>{request.description}</ToastBody>}
        {request.action && (
          <ToastFooter>
            <ToastActionButton action={request.action} />
          </ToastFooter>
        )}
      </Toast>
    </div>
  );
}

function ToastActionButton({ action }: { action: ToastAction }) {
  const [done, setDone] = useState(false);
  const run = async () => {
    try {
      await action.run();
      setDone(true);
    } catch {
      // The label stays as it was: nothing happened that the user could rely on.
    }
  };
  return (
    <Button size="small" onClick={() => void run()}>
      {done && action.doneLabel ? action.doneLabel : action.label}
    </Button>
  );
}

/** Fluent's toaster, with the spec's settings; mounted by the first toast (see lib/toast). */
export default function AppToaster() {
  const { dispatchToast, updateToast } = useToastController(toasterId);
  // The toast on screen, if any: a new toast takes its place (limit 1, the newest wins) rather
  // than waiting behind it or animating out beside it.
  const current = useRef<string | null>(null);

  // Runs after the Toaster's own effects (children first), so that its listeners exist before
  // the toasts asked for while this chunk loaded are dispatched.
  useEffect(
    () =>
      connectToaster((request) => {
        const intent: ToastIntent = request.variant === 'destructive' ? 'error' : 'info';
        const options = { intent, timeout: request.durationMs ?? toastSettings.timeoutMs };
        const shownId = current.current;
        if (shownId) {
          updateToast({ toastId: shownId, content: <SwipeableToast request={request} toastId={shownId} />, ...options });
          return;
        }
        current.current = request.id;
        dispatchToast(<SwipeableToast request={request} toastId={request.id} />, {
          ...options,
          toastId: request.id,
          onStatusChange: (_, { status }) => {
            if ((status === 'dismissed' || status === 'unmounted') && current.current === request.id) {
              current.current = null;
            }
          },
        });
      }),
    [dispatchToast, updateToast],
  );

  return (
    <Toaster
      toasterId={toasterId}
      limit={toastSettings.limit}
      timeout={toastSettings.timeoutMs}
      position="bottom-end"
      pauseOnHover
      pauseOnWindowBlur
      shortcuts={{ focus: isToastFocusShortcut }}
    />
  );
}
