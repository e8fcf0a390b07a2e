import { useCallback, useEffect, useState } from 'react';
import useEmblaCarousel from 'embla-carousel-react';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { carouselDragThreshold, propertyTypeLabels } from '@everest/core/domain';
import type { PublicProperty } from '@everest/core/contract';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { VisuallyHidden } from '../../../components/ui/visually-hidden';
import { PropertyImage } from '../../../components/ui/property-image';
import { accentGold, everestBrand } from '../../../lib/theme';
import { useCarouselAutoplay } from '../hooks/use-carousel-autoplay';
import { useReducedMotion } from '../hooks/use-reduced-motion';
import { useCarouselStyles } from './carousel-styles';

const useStyles = makeStyles({
  badge: {
    display: 'inline-block',
    padding: `2px ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: everestBrand[160],
    color: everestBrand[40],
    fontSize: tokens.fontSizeBase200,
    fontWeight: tokens.fontWeightSemibold,
  },
  website: {
    color: accentGold.onLight,
    fontWeight: tokens.fontWeightSemibold,
    ':hover': { color: everestBrand[30] },
    ':focus-visible': { outline: `2px solid ${everestBrand[80]}`, outlineOffset: '2px' },
  },
  next: { transform: 'scaleX(-1)' },
});

function PauseIcon() {
  return (
    <svg width={20} height={20} viewBox="0 0 20 20" aria-hidden focusable={false} fill="currentColor">
      <rect x={5} y={4} width={3.5} height={12} rx={1} />
      <rect x={11.5} y={4} width={3.5} height={12} rx={1} />
    </svg>
  );
}

function PlayIcon() {
  return (
    <svg width={20} height={20} viewBox="0 0 20 20" aria-hidden focusable={false} fill="currentColor">
      <path d="M6 4.5v11a.75.75 0 0 0 1.14.64l9-5.5a.75.75 0 0 0 0-1.28l-9-5.5A.75.75 0 0 0 6 4.5z" />
    </svg>
  );
}

/** A slide is the whole width on phones, half on medium screens, a third on large ones (1200 px at most). */
const slideImageSizes = '(min-width: 1200px) 400px, (min-width: 1024px) 33vw, (min-width: 768px) 50vw, 100vw';

function Slide({ property, index, total }: { property: PublicProperty; index: number; total: number }) {
  const styles = useCarouselStyles();
  const own = useStyles();
  return (
    <div className={styles.slide} role="group" aria-roledescription="slide" aria-label={`${index + 1} of ${total}`}>
      <article className={styles.card}>
        {/* Decorative next to the name below; AVIF copies where the browser reads them, as on the list. */}
        <PropertyImage src={property.image} variants={property.imageVariants} sizes={slideImageSizes} lazy />
        <div className={styles.body}>
          <h3 className={styles.name} title={property.name}>
            {property.name}
          </h3>
          <p className={styles.location}>
            {property.city}, {property.state}
          </p>
          <div className={styles.meta}>
            <span className={own.badge}>{propertyTypeLabels[property.type]}</span>
            {property.website && (
              <a href={property.website} target="_blank" rel="noopener noreferrer" className={own.website}>
                Visit Website
                <VisuallyHidden>{` of ${property.name} (opens in a new tab)`}</VisuallyHidden>
              </a>
            )}
          </div>
        </div>
      </article>
    </div>
  );
}

/**
 * The looping carousel of active properties (spec sections 2, 4 and 9): previous and next
 * buttons, dragging with a 10 px threshold, and automatic steps every 3-5 s that stop while the
 * pointer or the keyboard focus is on it, for readers who ask for less motion, and on Pause
 * (WCAG 2.2.2: moving content needs a way to stop it).
 */
export function PropertyCarousel({ properties }: { properties: readonly PublicProperty[] }) {
  const styles = useCarouselStyles();
  const own = useStyles();
  const reducedMotion = useReducedMotion();
  const [viewportRef, api] = useEmblaCarousel({
    loop: true,
    align: 'start',
    dragThreshold: carouselDragThreshold,
    duration: reducedMotion ? 10 : 25,
  });

  const [canPrev, setCanPrev] = useState(false);
  const [canNext, setCanNext] = useState(false);
  const [selected, setSelected] = useState(0);
  const [pausedByReader, setPausedByReader] = useState<boolean | null>(null);
  const [hovered, setHovered] = useState(false);
  const [focusInside, setFocusInside] = useState(false);

  // The buttons follow embla's own answer: with loop on it can always scroll, unless there are
  // too few slides to loop, and then the ends disable them.
  const sync = useCallback(() => {
    if (!api) return;
    setCanPrev(api.canScrollPrev());
    setCanNext(api.canScrollNext());
    setSelected(api.selectedScrollSnap());
  }, [api]);

  useEffect(() => {
    if (!api) return;
    api.on('init', sync);
    api.on('reInit', sync);
    api.on('select', sync);
    const frame = requestAnimationFrame(sync);
    return () => {
      cancelAnimationFrame(frame);
      api.off('init', sync);
      api.off('reInit', sync);
      api.off('select', sync);
    };
  }, [api, sync]);

  const playing = pausedByReader === null ? !reducedMotion : !pausedByReader;
  useCarouselAutoplay(api, playing && !hovered && !focusInside);

  return (
    <div
      role="region"
      aria-roledescription="carousel"
      aria-label="Our properties"
      data-selected={selected}
      onPointerEnter={(event) => event.pointerType === 'mouse' && setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={() => setFocusInside(true)}
      onBlur={(event) => {
        if (!(event.relatedTarget instanceof Node) || !event.currentTarget.contains(event.relatedTarget)) {
          setFocusInside(false);
        }
      }}
    >
      <div className={styles.viewport} ref={viewportRef}>
        <div className={styles.container} aria-live={playing ? 'off' : 'polite'}>
          {properties.map((property, index) => (
            <Slide key={property.id} property={property} index={index} total={properties.length} />
          ))}
        </div>
      </div>
      <div className={styles.controls}>
        <Button
          shape="circular"
          icon={<ArrowLeftIcon />}
          aria-label="Previous property"
          disabled={!canPrev}
          onClick={() => api?.scrollPrev()}
        />
        <Button
          shape="circular"
          icon={playing ? <PauseIcon /> : <PlayIcon />}
          aria-label={playing ? 'Pause automatic scrolling' : 'Start automatic scrolling'}
          onClick={() => setPausedByReader(playing)}
        />
        <Button
          shape="circular"
          icon={<ArrowLeftIcon className={own.next} />}
          aria-label="Next property"
          disabled={!canNext}
          onClick={() => api?.scrollNext()}
        />
      </div>
    </div>
  );
}
