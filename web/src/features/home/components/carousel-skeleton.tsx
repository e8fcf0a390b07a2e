import { mergeClasses } from '@fluentui/react-components';
import { useCarouselStyles } from './carousel-styles';

/** The carousel's place while the properties load: empty cards of the slides' size, one message. */
export function CarouselSkeleton({ message }: { message: string }) {
  const styles = useCarouselStyles();
  const placeholder = (extra?: string, text?: string) => (
    <div className={mergeClasses(styles.slide, extra)} aria-hidden={text ? undefined : true}>
      <div className={styles.card}>
        <div className={styles.imageBox} />
        <div className={styles.loading} role={text ? 'status' : undefined}>
          {text}
        </div>
      </div>
    </div>
  );
  return (
    <div className={styles.viewport}>
      <div className={styles.container}>
        {placeholder(undefined, message)}
        {placeholder(styles.onlyMedium)}
        {placeholder(styles.onlyLarge)}
      </div>
      <div className={styles.controls} />
    </div>
  );
}
