import type { HomeSectionId } from '../../lib/scroll';

/** Where a navigation link goes: a page of the route table, or a section of the home page. */
export type NavTarget =
  | { kind: 'page'; to: string }
  | { kind: 'section'; section: HomeSectionId };
