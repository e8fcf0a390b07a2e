// Third-party scripts load once per page, however many widgets ask for them.
const loading = new Map<string, Promise<void>>();

/** Adds `<script async src>` once; a failed load is forgotten so that a later call may retry. */
export function loadScript(src: string): Promise<void> {
  let promise = loading.get(src);
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.defer = true;
      script.addEventListener('load', () => resolve());
      script.addEventListener('error', () => {
        loading.delete(src);
        script.remove();
        reject(new Error(`Could not load ${src}.`));
      });
      document.head.append(script);
    });
    loading.set(src, promise);
  }
  return promise;
}
