// Keys never leave the engine (DESIGN: keys never appear in definitions, events, logs, error
// messages or outputs). Everything an agent attempt reports passes through here: the exact key is
// replaced wherever it occurs, and in messages and kept evidence, anything shaped like a provider
// key or a bearer credential is replaced too, because a server may echo back a key we never
// saw (a gateway's own, another tenant's). A key is also looked for in the forms JSON quoting
// gives it (once and twice escaped): a message that quotes a reply body holds `\"` for `"`.

const REDACTED = '[redacted]';

/**
 * The shortest key an agent step may use (provider-for-step.ts refuses shorter ones): a key is
 * replaced wherever it occurs, also inside a longer word, and a very short one would garble
 * every text that happens to contain it. No provider issues keys this short.
 */
export const MIN_KEY_LENGTH = 8;

const KEY_SHAPES: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{8,}/g, // OpenAI (sk-..., sk-proj-...) and Anthropic (sk-ant-...) keys
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /("?(?:x-api-key|api[-_]?key|authorization)"?\s*[:=]\s*"?)[^\s",}]{8,}/gi,
];

export class SecretScrubber {
  private readonly secrets: string[] = [];

  constructor(secrets: ReadonlyArray<string | undefined>) {
    for (const secret of secrets) {
      if (secret === undefined || secret === '') continue;
      // Every occurrence, whatever its length: a key inside a longer word is still the key.
      this.secrets.push(...quotedForms(secret));
    }
    // Longest first: a key's escaped form contains pieces of the raw one, never the other way.
    this.secrets.sort((a, b) => b.length - a.length);
  }

  /** Text that may carry someone's key (error messages, provider error bodies). */
  message(text: string): string {
    let out = this.exact(text);
    for (const shape of KEY_SHAPES) {
      out = out.replace(shape, (match: string, prefix: unknown) =>
        typeof prefix === 'string' && /[:=]/.test(prefix) ? `${prefix}${REDACTED}` : keepScheme(match),
      );
    }
    return out;
  }

  /** Every string inside a JSON value, scrubbed like a message. */
  value(value: unknown): unknown {
    return mapStrings(value, (s) => this.message(s));
  }

  /** Every string inside a JSON value, with only our own keys removed (model output). */
  exactValue(value: unknown): unknown {
    return this.secrets.length === 0 ? value : mapStrings(value, (s) => this.exact(s));
  }

  private exact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join(REDACTED);
    return out;
  }
}

/** The key, and the key as JSON quoting writes it inside a string, once and twice. */
function quotedForms(secret: string): string[] {
  const once = JSON.stringify(secret).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  return [...new Set([secret, once, twice])];
}

function keepScheme(match: string): string {
  const scheme = /^(Bearer|Basic)\s+/i.exec(match);
  return scheme === null ? REDACTED : `${scheme[0]}${REDACTED}`;
}

function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[fn(k)] = mapStrings(v, fn);
    return out;
  }
  return value;
}
