import type { SVGProps } from 'react';

// A few inline icons, so that the entry chunk does not pull in an icon package.
type IconProps = SVGProps<SVGSVGElement>;

const base = {
  width: 20,
  height: 20,
  viewBox: '0 0 20 20',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.75,
  strokeLinecap: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

export function HamburgerIcon(props: IconProps) {
  return (
    <svg {...base} {...props}>
      <path d="M3 5h14M3 10h14M3 15h14" />
    </svg>
  );
}

export function DismissIcon(props: IconProps) {
  return (
    <svg {...base} {...props}>
      <path d="M5 5l10 10M15 5L5 15" />
    </svg>
  );
}

export function ArrowLeftIcon(props: IconProps) {
  return (
    <svg {...base} {...props}>
      <path d="M16 10H4M9 5l-5 5 5 5" />
    </svg>
  );
}

export function EverestMark(props: IconProps) {
  return (
    <svg
      width={32}
      height={32}
      viewBox="0 0 32 32"
      aria-hidden
      focusable={false}
      {...props}
    >
      <path d="M2 27 13 8l5 8 3-4 9 15Z" fill="currentColor" />
      <path d="m13 8 3.2 5.4-2.2-1.2-2 2.3-1.7-1.6Z" fill="#fff" opacity={0.9} />
    </svg>
  );
}
