import type { siteContent } from '@everest/fixtures/content';

/** The icon names of the site content (a closed union in fixtures: a new one fails here). */
export type ContentIconName = (typeof siteContent)['advantage']['cards'][number]['icon'];

// Line icons on a 24 px grid, drawn with the text colour; inline so that no icon package
// comes with the pages that show them.
const paths: Record<ContentIconName, string> = {
  chart: 'M3 3v18h18M7 15l4-4 3 3 6-7',
  search: 'M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM20 20l-4-4',
  settings:
    'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM12 2v3M12 19v3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M2 12h3M19 12h3M4.9 19.1 7 17M17 7l2.1-2.1',
  building: 'M4 21V5l8-3v19M12 8h8v13M2 21h20M7 8h2M7 12h2M7 16h2M15 12h2M15 16h2',
  storage: 'M3 21V8l9-5 9 5v13M2 21h20M7 21v-8h10v8M7 16h10M7 18.5h10',
  storefront: 'M3 9l1.5-5h15L21 9M3 9h18M3 9a3 3 0 0 0 6 0 3 3 0 0 0 6 0 3 3 0 0 0 6 0M5 12v9h14v-9M10 21v-5h4v5',
  'arrow-sync': 'M20 12a8 8 0 0 1-14 5.3M4 12a8 8 0 0 1 14-5.3M18 3v4h-4M6 21v-4h4',
  people: 'M9 5a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM3 20a6 6 0 0 1 12 0M17 7a2.5 2.5 0 1 0 0 5M17 14a4 4 0 0 1 4 4',
  money: 'M2 6h20v12H2zM12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM6 10v4M18 10v4',
  scales: 'M12 3v18M6 21h12M4 7h16M7 7l-3 7a3 3 0 0 0 6 0L7 7M17 7l-3 7a3 3 0 0 0 6 0l-3-7',
  bank: 'M12 3l9 5H3zM3 10h18M5 10v8M9.5 10v8M14.5 10v8M19 10v8M3 21h18',
  handshake: 'M2 11l4-4 4 2 3-2h4l5 4M2 11l6 6h2l2 2 3-1 6-5M9 14l2 2M12 13l2 2M15 12l2 2',
};

export function ContentIcon({ name, className }: { name: ContentIconName; className?: string }) {
  return (
    <svg
      className={className}
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
      focusable={false}
    >
      <path d={paths[name]} />
    </svg>
  );
}
