// What a reply's bytes become in the step's output: content decoding (gzip, deflate, br) undone,
// then JSON when the content type says JSON and the text parses, else text, and null when there
// is no body at all. Binary bodies are decoded as text too: an http step is for JSON and text APIs.
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib';

const decoders = {
  gzip: promisify(gunzip),
  inflate: promisify(inflate),
  inflateRaw: promisify(inflateRaw),
  brotli: promisify(brotliDecompress),
};

export type Decoded = { ok: true; bytes: Buffer } | { ok: false; problem: string; tooLarge: boolean };

/** Undoes `Content-Encoding`; the decoded body may not exceed `maxBytes` either (zip bombs). */
export async function decodeContent(raw: Buffer, contentEncoding: string | undefined, maxBytes: number): Promise<Decoded> {
  const codings = (contentEncoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  let bytes = raw;
  // Applied in the order listed, so undone from the last one.
  for (const coding of codings.reverse()) {
    if (bytes.length === 0) break;
    const options = { maxOutputLength: maxBytes };
    try {
      if (coding === 'gzip' || coding === 'x-gzip') bytes = await decoders.gzip(bytes, options);
      // "deflate" is meant to be zlib-wrapped, but some servers send raw deflate: tell by the header byte.
      else if (coding === 'deflate') bytes = (bytes[0] ?? 0) % 16 === 8 ? await decoders.inflate(bytes, options) : await decoders.inflateRaw(bytes, options);
      else if (coding === 'br') bytes = await decoders.brotli(bytes, options);
      else return { ok: false, problem: `the body uses content encoding "${coding}", which the http step cannot decode`, tooLarge: false };
    } catch (error) {
      const tooLarge = error instanceof RangeError || (error instanceof Error && 'code' in error && error.code === 'ERR_BUFFER_TOO_LARGE');
      if (tooLarge) return { ok: false, problem: `the ${coding}-decoded body is larger than ${maxBytes} bytes`, tooLarge: true };
      return { ok: false, problem: `the ${coding} body cannot be decoded: ${error instanceof Error ? error.message : String(error)}`, tooLarge: false };
    }
  }
  return { ok: true, bytes };
}

/**
 * A non-empty body's decoded text as the output carries it: parsed JSON for a JSON type that
 * parses, else the text. (An empty body is null; the caller tells by the bytes, since a BOM-only
 * body decodes to ''.)
 */
export function bodyValue(text: string, contentType: string | undefined): unknown {
  if (!isJsonType(contentType)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The body as text, in the charset the content type names (UTF-8 when it names none or an unknown one). */
export function bodyText(bytes: Buffer, contentType: string | undefined): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1];
  if (charset !== undefined) {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      // an unknown label: fall through to UTF-8
    }
  }
  return new TextDecoder().decode(bytes);
}

/** application/json, text/json and any `+json` type (application/problem+json, …). */
function isJsonType(contentType: string | undefined): boolean {
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return media === 'application/json' || media === 'text/json' || media.endsWith('+json');
}
