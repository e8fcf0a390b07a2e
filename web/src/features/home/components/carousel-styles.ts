import { makeStyles, tokens } from '@fluentui/react-components';

// Shared by the carousel and the skeleton that holds its place, so that both take the same room.
const gap = tokens.spacingHorizontalL;
const medium = '@media (min-width: 768px)';
const large = '@media (min-width: 1024px)';
// Griffel puts each media query's rules in a style sheet of its own, in the order the page first
// meets the queries; when another component met 1024 px first, the 768 px sheet came later and
// its 50 % won on large screens too. The slide's medium rule therefore stops where large starts.
const mediumOnly = '@media (min-width: 768px) and (max-width: 1023.98px)';

export const useCarouselStyles = makeStyles({
  viewport: { overflow: 'hidden' },
  container: {
    display: 'flex',
    marginLeft: `calc(${gap} * -1)`,
    touchAction: 'pan-y pinch-zoom',
  },
  // Spec section 9: one slide on mobile, two on medium screens, three on large ones.
  slide: {
    flex: '0 0 100%',
    minWidth: 0,
    boxSizing: 'border-box',
    paddingLeft: gap,
    [mediumOnly]: { flexBasis: '50%' },
    [large]: { flexBasis: '33.333%' },
  },
  // The skeleton shows as many placeholders as the screen shows slides.
  onlyMedium: { display: 'none', [medium]: { display: 'block' } },
  onlyLarge: { display: 'none', [large]: { display: 'block' } },
  card: {
    display: 'flex',
    flexDirection: 'column',
    height: '100%',
    overflow: 'hidden',
    borderRadius: tokens.borderRadiusXLarge,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
  },
  // The skeleton's stand-in for a slide's photo (PropertyImage), in the same box.
  imageBox: { aspectRatio: '8 / 5', backgroundColor: tokens.colorNeutralBackground3 },
  body: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    minHeight: '132px',
    boxSizing: 'border-box',
    padding: tokens.spacingHorizontalL,
  },
  name: {
    margin: 0,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    fontSize: tokens.fontSizeBase500,
    lineHeight: tokens.lineHeightBase500,
    fontWeight: tokens.fontWeightSemibold,
  },
  location: { margin: 0, color: tokens.colorNeutralForeground2 },
  meta: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
    marginTop: 'auto',
  },
  loading: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    minHeight: '132px',
    color: tokens.colorNeutralForeground2,
  },
  controls: {
    display: 'flex',
    justifyContent: 'center',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    marginTop: tokens.spacingVerticalL,
    minHeight: '40px',
  },
});
