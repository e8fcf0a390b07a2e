import { useRef, useState, type PointerEvent } from 'react';

// Movement below this is a press, not a swipe: the toast's buttons keep their clicks.
const slopPx = 4;

export interface SwipeDismiss {
  /** How far the element has been dragged to the right, in px (0 at rest). */
  offset: number;
  handlers: {
    onPointerDown: (event: PointerEvent<HTMLElement>) => void;
    onPointerMove: (event: PointerEvent<HTMLElement>) => void;
    onPointerUp: (event: PointerEvent<HTMLElement>) => void;
    onPointerCancel: (event: PointerEvent<HTMLElement>) => void;
  };
}

/**
 * Swipe right to dismiss (spec section 9: threshold 50 px). Pointer events cover mouse, pen and
 * touch alike; a drag to the left or one released short of the threshold springs back.
 */
export function useSwipeDismiss(onDismiss: () => void, thresholdPx: number): SwipeDismiss {
  const start = useRef<{ pointerId: number; x: number } | null>(null);
  const [offset, setOffset] = useState(0);

  const reset = () => {
    start.current = null;
    setOffset(0);
  };

  return {
    offset,
    handlers: {
      onPointerDown: (event) => {
        if (event.pointerType === 'mouse' && event.button !== 0) return;
        start.current = { pointerId: event.pointerId, x: event.clientX };
      },
      onPointerMove: (event) => {
        const from = start.current;
        if (!from || from.pointerId !== event.pointerId) return;
        const dx = Math.max(0, event.clientX - from.x);
        // Captured only once it is a swipe, so that the pointer may leave the toast meanwhile.
        if (dx > slopPx && !event.currentTarget.hasPointerCapture(event.pointerId)) {
          event.currentTarget.setPointerCapture(event.pointerId);
        }
        setOffset(dx);
      },
      onPointerUp: (event) => {
        const from = start.current;
        if (!from || from.pointerId !== event.pointerId) return;
        const dx = event.clientX - from.x;
        reset();
        if (dx >= thresholdPx) onDismiss();
      },
      onPointerCancel: reset,
    },
  };
}
