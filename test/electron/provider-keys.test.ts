import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProviderKeys, providerKeysFile } from '../../electron/main/provider-keys.ts';
import { FakeElectron } from './fake-electron.ts';

const SECRET = 'sk-test-0123456789abcdefSECRET';
const temp = (): string => mkdtempSync(join(tmpdir(), 'weft-keys-'));
const everyFile = (dir: string): string => readdirSync(dir).map((f) => readFileSync(join(dir, f)).toString('latin1')).join('\n');

describe('provider keys', () => {
  it('are stored encrypted: the key appears in no file, and comes back only in providerEnv', () => {
    const dir = temp();
    const electron = new FakeElectron();
    const keys = new ProviderKeys(electron.safeStorage, dir);
    keys.set('OPENAI_API_KEY', SECRET);
    keys.set('ANTHROPIC_API_KEY', `${SECRET}-2`);
    keys.set('MISTRAL_API_KEY', `${SECRET}-3`);
    const disk = everyFile(dir);
    expect(disk).not.toContain(SECRET);
    expect(disk).not.toContain(Buffer.from(SECRET).toString('base64'));
    expect(disk).toContain('OPENAI_API_KEY');
    expect(new ProviderKeys(electron.safeStorage, dir).providerEnv()).toEqual({ OPENAI_API_KEY: SECRET, ANTHROPIC_API_KEY: `${SECRET}-2`, MISTRAL_API_KEY: `${SECRET}-3` });
    expect(keys.names()).toEqual(['ANTHROPIC_API_KEY', 'MISTRAL_API_KEY', 'OPENAI_API_KEY']);
  });

  it('are refused, with nothing written, where the system cannot encrypt', () => {
    const dir = temp();
    const keys = new ProviderKeys(new FakeElectron({ encryptionAvailable: false }).safeStorage, dir);
    expect(() => keys.set('OPENAI_API_KEY', SECRET)).toThrow(/not stored: this system offers no encryption.*keyring/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each(['openai_api_key', 'PATH', 'API_KEY', 'OPENAI_API_KEY_2', 'LD_PRELOAD', '_API_KEY'])('refuse the name %s', (name) => {
    const dir = temp();
    expect(() => new ProviderKeys(new FakeElectron().safeStorage, dir).set(name, SECRET)).toThrow(/not a provider key name/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuse an empty or multi-line value', () => {
    const keys = new ProviderKeys(new FakeElectron().safeStorage, temp());
    expect(() => keys.set('OPENAI_API_KEY', '')).toThrow(/1 to 4096 characters on one line/);
    expect(() => keys.set('OPENAI_API_KEY', 'a\nb')).toThrow(/one line/);
  });

  it('can be removed', () => {
    const dir = temp();
    const keys = new ProviderKeys(new FakeElectron().safeStorage, dir);
    keys.set('OPENAI_API_KEY', SECRET);
    keys.remove('OPENAI_API_KEY');
    expect(keys.providerEnv()).toEqual({});
  });

  it('a corrupt file reads as no keys, and the next store replaces it', () => {
    const dir = temp();
    writeFileSync(providerKeysFile(dir), '{"version": 1, "keys": ');
    const keys = new ProviderKeys(new FakeElectron().safeStorage, dir);
    expect(keys.providerEnv()).toEqual({});
    keys.set('OPENAI_API_KEY', SECRET);
    expect(keys.providerEnv()).toEqual({ OPENAI_API_KEY: SECRET });
  });

  it('are left out, with a message, when decryption is no longer available', () => {
    const dir = temp();
    new ProviderKeys(new FakeElectron().safeStorage, dir).set('OPENAI_API_KEY', SECRET);
    const errors: string[] = [];
    expect(new ProviderKeys(new FakeElectron({ encryptionAvailable: false }).safeStorage, dir).providerEnv((m) => errors.push(m))).toEqual({});
    expect(errors[0]).toMatch(/cannot be read/);
  });
});
