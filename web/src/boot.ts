/**
 * The one script a page loads with its HTML (the build puts it in index.html, build/page-links.ts);
 * it starts the app's code, which the build leaves inert in `<template id="app-code">`.
 *
 * Why not load the app at once: a page the server rendered is whole without its code (its text,
 * its links, its photos), and on a phone's network the code (about 120 KB gzip) and the first photo,
 * the page's largest paint, would share the bandwidth. So the code starts once the photos the
 * page shows at once are in and the next frame has begun. It arrives about when it would have
 * (the same bytes, one after the other) while the photo shows sooner. A page with no such photo,
 * or one that needs its code to show anything (the portal, the admin panel), starts it at once.
 * A photo that never arrives does not hold the page back for more than a few seconds.
 */
const maxWaitMs = 3000;

let started = false;
function startApp(): void {
  const code = document.getElementById('app-code');
  if (started || !(code instanceof HTMLTemplateElement)) return;
  started = true;
  // Scripts cloned out of a template run once in the document (unlike scripts set by innerHTML).
  document.head.append(document.importNode(code.content, true));
}

/** The page's photos that load at once (the first cards, the hero), loaded or failed. */
function eagerPhotos(): Promise<unknown> {
  const eager = [...document.images].filter((image) => image.loading !== 'lazy');
  return Promise.all(eager.map((image) => image.decode().catch(() => undefined)));
}

void eagerPhotos().then(() => requestAnimationFrame(() => setTimeout(startApp, 0)));
setTimeout(startApp, maxWaitMs);
