// Who acts, as the commands' `by` records it: the name the person typed in this browser, else
// the server's user (GET /api/health `user`: $WEFT_USER, else $USER, else the OS user, the same
// default the CLI records), else "app" for a server too old to say. A name typed instead of the
// default is remembered (localStorage) from the moment it is typed, for every dialog and task card.
// The key is new (`weft.by`): the old `weft.user` was written on every send, the default "app"
// included, so it cannot tell a person's choice from the default.
import { useCallback, useState } from 'react';
import { useSession } from '../../core/session-store.ts';

export const USER_KEY = 'weft.by';
const FALLBACK = 'app';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The name typed in this browser before, or null. */
export function rememberedActor(store: Storage | null = storage()): string | null {
  const name = store?.getItem(USER_KEY) ?? null;
  return name !== null && name.trim() !== '' ? name : null;
}

/** The default `by`: the remembered name, else the server's user, else "app". */
export function defaultActor(serverUser: string | undefined = useSession.getState().health?.user, store: Storage | null = storage()): string {
  return rememberedActor(store) ?? serverUser ?? FALLBACK;
}

/** Keeps a name the person typed (a blank one is not kept). */
export function rememberActor(name: string, store: Storage | null = storage()): void {
  if (name.trim() !== '') store?.setItem(USER_KEY, name.trim());
}

/**
 * The `by` field's value and its setter: the default until the person types, then what they
 * typed, remembered as they type. The server's user fills in once /api/health has answered.
 */
export function useActor(): [string, (name: string) => void] {
  const serverUser = useSession((s) => s.health?.user);
  const [typed, setTyped] = useState<string | null>(() => rememberedActor());
  const set = useCallback((name: string) => {
    setTyped(name);
    rememberActor(name);
  }, []);
  return [typed ?? serverUser ?? FALLBACK, set];
}
