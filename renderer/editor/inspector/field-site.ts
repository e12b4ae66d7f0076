// Which JSON paths belong to a field: pure, so it is tested without a browser.

/** True when `site` is the field at `field` or lies inside it (`$.input.properties.x` is in `$.input`). */
export function isWithin(site: string, field: string): boolean {
  return site === field || site.startsWith(`${field}.`) || site.startsWith(`${field}[`);
}
