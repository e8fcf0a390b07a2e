import { makeStaticStyles, tokens } from '@fluentui/react-components';

/**
 * Fluent shows a focused text field only by its 2 px bottom border turning navy, which is easy
 * to miss (WCAG 2.4.7, 2.4.11): every field gets the ring that Fluent draws around a focused
 * button. Global, so that the forms of every feature (and of the desktop app) share it; under
 * the provider's class, to outrank the transparent outline Fluent keeps for high-contrast mode.
 */
export const useFieldFocusStyles = makeStaticStyles({
  '.fui-FluentProvider :is(.fui-Input, .fui-Textarea, .fui-Select, .fui-Dropdown, .fui-Combobox, .fui-SpinButton):focus-within': {
    outlineStyle: 'solid',
    outlineWidth: '2px',
    outlineColor: tokens.colorStrokeFocus2,
    outlineOffset: '2px',
  },
});
