import type { PublicProperty } from '@everest/core/contract';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { telHref, websiteHref } from '../property-contact';
import { VisuallyHidden } from '../../../components/ui/visually-hidden';

const useStyles = makeStyles({
  link: {
    color: tokens.colorBrandForegroundLink,
    textDecorationLine: 'underline',
    textUnderlineOffset: '2px',
    ':hover': { color: tokens.colorBrandForegroundLinkHover },
    ':focus-visible': {
      outlineStyle: 'solid',
      outlineWidth: '2px',
      outlineColor: tokens.colorStrokeFocus2,
      outlineOffset: '2px',
      borderRadius: tokens.borderRadiusSmall,
    },
  },
  websiteLink: { fontWeight: tokens.fontWeightSemibold },
});

export function PropertyPhoneLink({ phone, className }: { phone: string | null; className?: string }) {
  const styles = useStyles();
  if (!phone) return null;
  const href = telHref(phone);
  if (!href) return <span className={className}>{phone}</span>;
  return (
    <a href={href} className={mergeClasses(styles.link, className)}>
      {phone}
    </a>
  );
}

/**
 * 'Visit Property Website' (spec), opening in a new tab. The hidden rest of its name says
 * which property and that a tab opens, since every card carries the same visible words.
 */
export function PropertyWebsiteLink({
  property,
  className,
}: {
  property: Pick<PublicProperty, 'name' | 'website'>;
  className?: string;
}) {
  const styles = useStyles();
  const href = websiteHref(property.website);
  if (!href) return null;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={mergeClasses(styles.link, styles.websiteLink, className)}
    >
      Visit Property Website
      <VisuallyHidden>{` for ${property.name} (opens in a new tab)`}</VisuallyHidden>
    </a>
  );
}
