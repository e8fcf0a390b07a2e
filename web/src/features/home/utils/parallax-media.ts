// Parallax only where it is smooth and wanted: not for readers who ask for less motion, and not
// on touch screens, where scroll events arrive late and a transform on scroll judders.
export const parallaxMedia = '(prefers-reduced-motion: no-preference) and (hover: hover) and (pointer: fine)';
