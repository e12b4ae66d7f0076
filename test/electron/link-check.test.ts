import { describe, expect, it } from 'vitest';
import { checkExternalLink, MAX_EXTERNAL_URL_LENGTH } from '../../electron/main/link-check.ts';

const ENGINE = 'http://127.0.0.1:43117';

describe('checkExternalLink', () => {
  it.each([
    ['https://weft.dev/docs?a=1#x', 'https://weft.dev/docs?a=1#x'],
    ['http://example.com', 'http://example.com/'],
    ['mailto:team@example.com', 'mailto:team@example.com'],
    ['http://127.0.0.1:5000/', 'http://127.0.0.1:5000/'],
  ])('opens %s', (raw, href) => {
    expect(checkExternalLink(raw, ENGINE)).toEqual({ ok: true, url: href });
  });

  it.each([
    ['file:///etc/passwd', /file: links are not opened/],
    ['javascript:alert(1)', /javascript: links are not opened/],
    ['ftp://example.com/', /ftp: links/],
    ['smb://host/share', /smb: links/],
    ['/relative/path', /not an absolute URL/],
    ['https://user:pass@example.com/', /user name or password/],
    ['https://user@example.com/', /user name or password/],
    [`${ENGINE}/#token=abcdef`, /app's own engine/],
    [`${ENGINE}/api/workflows`, /app's own engine/],
    [`https://example.com/${'a'.repeat(MAX_EXTERNAL_URL_LENGTH)}`, /characters long/],
  ])('refuses %s', (raw, reason) => {
    const verdict = checkExternalLink(raw, ENGINE);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });

  it('allows a link of exactly the cap', () => {
    const url = `https://example.com/${'a'.repeat(MAX_EXTERNAL_URL_LENGTH - 'https://example.com/'.length)}`;
    expect(url.length).toBe(MAX_EXTERNAL_URL_LENGTH);
    expect(checkExternalLink(url, ENGINE).ok).toBe(true);
  });
});
