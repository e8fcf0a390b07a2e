import { __resetStyles } from '@fluentui/react-components';

/**
 * Fluent shows a focused text field only by its 2 px bottom border turning navy, which is easy
 * to miss (WCAG 2.4.7, 2.4.11): every field gets the ring that Fluent draws around a focused
 * button. Global, so that the forms of every feature (and of the desktop app) share it; under
 * the provider's class, to outrank the transparent outline Fluent keeps for high-contrast mode.
 */
const fieldFocusRule =
  '.fui-FluentProvider :is(.fui-Input, .fui-Textarea, .fui-Select, .fui-Dropdown, .fui-Combobox, .fui-SpinButton):focus-within' +
  `{outline-style:solid;outline-width:2px;outline-color:var(--colorStrokeFocus2);outline-offset:2px;}`;

/**
 * Inserts the rule, written out as CSS, into the same place as makeStaticStyles would (Griffel's
 * default bucket), through the build-time form that the Griffel plugin gives makeResetStyles: the
 * plugin does not compile makeStaticStyles, whose object form brings Griffel's CSS compiler
 * (stylis, 2.5 kB gzip) into every page's entry chunk only for this one rule.
 */
export const useFieldFocusStyles: () => string = __resetStyles('', null, { d: [fieldFocusRule] });
