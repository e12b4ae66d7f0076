// Keys never leave the engine (DESIGN: keys never appear in definitions, events, logs, error
// messages or outputs). Everything an agent attempt reports passes through here: the exact key is
// replaced wherever it occurs, and in messages and kept evidence, anything shaped like a provider
// key or a bearer credential is replaced too, because a server may echo back a key we never
// saw (a gateway's own, another tenant's).

const REDACTED = '[redacted]';

/** Keys shorter than this are not scrubbed by value: replacing "x" everywhere would garble text. */
const MIN_SCRUBBED_KEY_LENGTH = 8;

const KEY_SHAPES: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{8,}/g, // OpenAI (sk-..., sk-proj-...) and Anthropic (sk-ant-...) keys
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /("?(?:x-api-key|api[-_]?key|authorization)"?\s*[:=]\s*"?)[^\s",}]{8,}/gi,
];

export class SecretScrubber {
  private readonly secrets: string[];

  constructor(secrets: ReadonlyArray<string | undefined>) {
    this.secrets = secrets.filter((s): s is string => s !== undefined && s.length >= MIN_SCRUBBED_KEY_LENGTH);
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
