// negotiator 1.x; @types/negotiator (0.6) lacks the `preferred` option koa-compress relies on.
declare module 'negotiator' {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    encoding(available: readonly string[], options?: { preferred?: readonly string[] }): string | undefined;
  }
}
