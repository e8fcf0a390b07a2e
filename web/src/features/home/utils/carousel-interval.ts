import { carouselIntervalMs } from '@everest/core/domain';

/** The wait before the carousel's next automatic step: random, 3000 to 5000 ms, new each time. */
export function nextCarouselInterval(random: () => number = Math.random): number {
  const { min, max } = carouselIntervalMs;
  return Math.round(min + random() * (max - min));
}
