// The addresses of the route table's paths: `:param` segments filled in, each URL-encoded.

/** The names of `:param` segments of a path: `'/a/:id/b/:key'` gives `'id' | 'key'`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathParams<P extends string> = Record<PathParamNames<P>, string | number>;

/**
 * The path of a route with its `:param` segments filled in, each URL-encoded:
 * `pathFor(routes.download, { id: 7 })` gives `/api/investor/download/7`.
 */
export function pathFor<P extends string>(
  route: { path: P },
  ...params: [PathParamNames<P>] extends [never] ? [params?: Record<string, never>] : [params: PathParams<P>]
): string;
export function pathFor(route: { path: string }, params?: Record<string, string | number>): string {
  return fillPath(route.path, params ?? {});
}

/** `pathFor` for a path known only at run time. */
export function fillPath(path: string, params: Readonly<Record<string, unknown>>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_segment, name: string) => {
    const value = params[name];
    if ((typeof value !== 'string' && typeof value !== 'number') || value === '') {
      throw new Error(`The path ${path} needs the parameter '${name}'.`);
    }
    return encodeURIComponent(String(value));
  });
}
