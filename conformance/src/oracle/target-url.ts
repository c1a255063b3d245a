// A target's base URL may have a path of its own (a sandbox of the reference server answers under
// `/sandboxes/<id>`, issue 25), which `new URL(path, base)` would drop: the API's paths go after it.

/** The URL of `path` (with its query, if any) on the target at `base`. */
export function targetUrl(base: string | URL, path: string): URL {
  const url = new URL(base);
  const prefix = url.pathname.replace(/\/+$/, '');
  return new URL(prefix + (path.startsWith('/') ? path : `/${path}`), url);
}

/** The API path of `url`, a URL on the target at `base` (its base path taken off). */
export function apiPath(url: URL, base?: string | URL): string {
  const prefix = base === undefined ? '' : new URL(base).pathname.replace(/\/+$/, '');
  return prefix && url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname;
}
