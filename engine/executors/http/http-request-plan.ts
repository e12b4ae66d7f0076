// Turns an http step's config into the one request an attempt sends: the URL and header templates
// rendered, the body expression evaluated (or the step's input), and the headers the engine adds.
// Every problem here comes from the definition or the run's data, so none of them is retryable:
// the same attempt would render the same text again.
import { validateHeaderName, validateHeaderValue } from 'node:http';
import type { z } from 'zod';
import type { HttpConfig } from '../../../shared/definition/step-config.ts';
import type { AttemptContext, AttemptResult } from '../executor.ts';
import { shownUrl, shownUrlText } from './shown-url.ts';
import type { AttemptErrorCode } from '../../../shared/events/attempt-error-codes.ts';

export type HttpMethod = z.infer<typeof HttpConfig>['method'];

export interface HttpRequestPlan {
  method: HttpMethod;
  url: URL;
  /** The URL as messages show it (no credentials). */
  shownUrl: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: Buffer | undefined;
}

export type PlanResult = { ok: true; plan: HttpRequestPlan } | { ok: false; result: AttemptResult };

/** Headers sent unless the config sets them (names compared without case). */
const DEFAULT_HEADERS: Readonly<Record<string, string>> = {
  accept: 'application/json, text/plain;q=0.9, */*;q=0.8',
  'accept-encoding': 'gzip, deflate, br',
  'user-agent': 'weft-studio',
};

/** Computed from the body; a value from the config could only be wrong. */
const COMPUTED_HEADERS = new Set(['content-length', 'transfer-encoding']);

export async function planRequest(ctx: AttemptContext, config: z.infer<typeof HttpConfig>): Promise<PlanResult> {
  let renderedUrl: string;
  try {
    renderedUrl = (await ctx.expressions.render(config.url)).trim();
  } catch (error) {
    return expressionFailed('config.url', error);
  }
  const url = parseHttpUrl(renderedUrl);
  if (typeof url === 'string') {
    return fail('invalid_url', `config.url: the template ${JSON.stringify(shownUrlText(config.url))} produced ${JSON.stringify(shownUrlText(renderedUrl))}, which ${url}; check the values its placeholders read`);
  }

  const headers: Record<string, string> = {};
  for (const [name, template] of Object.entries(config.headers ?? {})) {
    let value: string;
    try {
      value = await ctx.expressions.render(template);
    } catch (error) {
      return expressionFailed(`config.headers.${name}`, error);
    }
    const problem = headerProblem(name, value);
    if (problem !== undefined) return fail('invalid_header', `config.headers.${name}: ${problem}`);
    const key = name.toLowerCase();
    if (!COMPUTED_HEADERS.has(key)) headers[key] = value;
  }

  let bodyValue: unknown;
  if (config.body !== undefined) {
    try {
      bodyValue = await ctx.expressions.evaluate(config.body);
    } catch (error) {
      return expressionFailed('config.body', error);
    }
  } else if (config.method !== 'GET' && config.method !== 'HEAD') {
    bodyValue = ctx.input;
  }
  let body: Buffer | undefined;
  if (bodyValue !== undefined && bodyValue !== null) {
    try {
      body = Buffer.from(JSON.stringify(bodyValue), 'utf8');
    } catch (error) {
      const what = config.body === undefined ? `the input of step "${ctx.stepId}"` : 'config.body';
      return fail('invalid_body', `${what} cannot be sent as JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(body.length);
  }

  for (const [name, value] of Object.entries(DEFAULT_HEADERS)) headers[name] ??= value;
  if (ctx.idempotencyKey !== undefined && headers['idempotency-key'] === undefined) {
    const problem = headerProblem('Idempotency-Key', ctx.idempotencyKey);
    if (problem !== undefined) return fail('invalid_header', `the step's idempotencyKey cannot be sent as the Idempotency-Key header: ${problem}`);
    headers['idempotency-key'] = ctx.idempotencyKey;
  }
  return { ok: true, plan: { method: config.method, url, shownUrl: shownUrl(url), headers, body } };
}

/** The URL, or why the text is not an absolute http(s) URL. */
function parseHttpUrl(text: string): URL | string {
  if (text === '') return 'is empty';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not an absolute URL (it needs a scheme and a host, such as http://localhost:8080/path)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `uses ${url.protocol.slice(0, -1)}: instead of http or https`;
  if (url.hostname === '') return 'has no host';
  return url;
}

function headerProblem(name: string, value: string): string | undefined {
  try {
    validateHeaderName(name);
  } catch {
    return `${JSON.stringify(name)} is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only)`;
  }
  try {
    validateHeaderValue(name, value);
  } catch {
    // The value itself is not shown: header values are often credentials.
    const chars = [...value];
    const at = chars.findIndex((ch) => {
      const c = ch.codePointAt(0) ?? 0;
      return (c < 0x20 && c !== 0x09) || c === 0x7f || c > 0xff;
    });
    const code = `U+${(chars[at]?.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    return `the rendered value has ${code} at character ${at + 1}, which a header cannot carry (line breaks and other control characters, and characters beyond Latin-1 such as emoji; encode such text, for example with $encodeUrlComponent)`;
  }
  return undefined;
}

function expressionFailed(where: string, error: unknown): PlanResult {
  return fail('expression_error', `${where}: ${error instanceof Error ? error.message : String(error)}`);
}

function fail(code: AttemptErrorCode, message: string): PlanResult {
  return { ok: false, result: { outcome: 'failed', code, message, retryable: false } };
}
