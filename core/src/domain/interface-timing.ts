// Timings and thresholds of the interface (toasts, carousel, counters, scrolling). A module of
// their own, apart from the limits: the home page's sections read the counters' few, and with
// them came every limit the admin's forms use, in a chunk the first screen loads.

export const toastLimit = 1;
export const toastDurationMs = 5000;
export const toastSwipeThresholdPx = 50;
export const toastHotkey = 'F8';
/** 'User Created' shows the generated password this long. */
export const userCreatedToastMs = 10_000;
export const resetLinkSentToastMs = 5000;

export const carouselIntervalMs = { min: 3000, max: 5000 } as const;
export const carouselDragThreshold = 10;
export const carouselSlideWidths = { mobile: '100%', medium: '50%', large: '33.3%' } as const;

export const counterDurationMs = 2000;
export const counterVisibilityThreshold = 0.5;
/** Counters start at a random 50 to 70 percent of their end value. */
export const counterStartFraction = { min: 0.5, max: 0.7 } as const;

export const scrollDelayMs = 100;
export const tooltipDelayMs = 700;
