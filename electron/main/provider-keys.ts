// Provider API keys (OPENAI_API_KEY, ANTHROPIC_API_KEY, any NAME_API_KEY), kept encrypted with
// Electron's safeStorage (the OS keychain's key) in provider-keys.json in the app-data folder.
// Plain text never reaches the disk: where safeStorage cannot encrypt (Linux without a keyring)
// storing is refused with a message, not done in the clear. Keys are decrypted only into the
// environment handed to the engine process (providerEnv).
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeAppDataFile } from './app-data-file.ts';
import type { ElectronSeam } from './electron-seam.ts';

export const PROVIDER_KEY_NAME = /^[A-Z][A-Z0-9_]*_API_KEY$/;
const MAX_KEY_LENGTH = 4096;

const keysFileSchema = z.object({ version: z.literal(1), keys: z.record(z.string().regex(PROVIDER_KEY_NAME), z.string().regex(/^[A-Za-z0-9+/=]*$/)) });

export const providerKeysFile = (userData: string): string => join(userData, 'provider-keys.json');

export class ProviderKeyError extends Error {}

export class ProviderKeys {
  constructor(
    private readonly safeStorage: ElectronSeam['safeStorage'],
    private readonly userData: string,
  ) {}

  /** The stored key names (never their values). */
  names(): string[] {
    return Object.keys(this.encrypted()).sort();
  }

  /** Stores (or replaces) a key, encrypted. Throws ProviderKeyError saying why it cannot. */
  set(name: string, value: string): void {
    if (!PROVIDER_KEY_NAME.test(name)) throw new ProviderKeyError(`"${name.slice(0, 80)}" is not a provider key name; use NAME_API_KEY in capitals, e.g. OPENAI_API_KEY`);
    if (value.length === 0 || value.length > MAX_KEY_LENGTH || /[\r\n\0]/.test(value)) {
      throw new ProviderKeyError(`the value of ${name} must be 1 to ${MAX_KEY_LENGTH} characters on one line; paste the key alone`);
    }
    if (!this.safeStorage.isEncryptionAvailable()) {
      throw new ProviderKeyError(`${name} was not stored: this system offers no encryption for saved secrets (on Linux, install and unlock a keyring such as GNOME Keyring or KWallet); set ${name} in the environment you start Weft Studio from instead`);
    }
    const keys = { ...this.encrypted(), [name]: this.safeStorage.encryptString(value).toString('base64') };
    this.write(keys);
  }

  remove(name: string): void {
    const keys = this.encrypted();
    if (!(name in keys)) return;
    delete keys[name];
    this.write(keys);
  }

  /**
   * The decrypted keys as environment variables for the engine process. A key that no longer
   * decrypts (the keychain was reset) is left out and reported through `onError`.
   */
  providerEnv(onError: (message: string) => void = () => undefined): Record<string, string> {
    const out: Record<string, string> = {};
    const keys = this.encrypted();
    if (Object.keys(keys).length > 0 && !this.safeStorage.isEncryptionAvailable()) {
      onError('saved provider keys cannot be read: this system offers no decryption for saved secrets now; the engine starts without them');
      return out;
    }
    for (const [name, value] of Object.entries(keys)) {
      try {
        out[name] = this.safeStorage.decryptString(Buffer.from(value, 'base64'));
      } catch {
        onError(`the saved ${name} cannot be decrypted (was the system keychain reset?); enter it again in the settings`);
      }
    }
    return out;
  }

  private encrypted(): Record<string, string> {
    const parsed = keysFileSchema.safeParse(readJsonFile(providerKeysFile(this.userData)));
    return parsed.success ? { ...parsed.data.keys } : {};
  }

  private write(keys: Record<string, string>): void {
    writeAppDataFile(providerKeysFile(this.userData), `${JSON.stringify({ version: 1, keys }, null, 2)}\n`);
  }
}
