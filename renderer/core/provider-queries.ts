// The circuits of the providers agent candidates call (GET /api/providers/circuits), as a query.
// A circuit changes with attempts of any run, and opens or half-opens by the engine's clock, so
// the list is read again every few seconds while something shows it.
import { useQuery } from '@tanstack/react-query';
import type { ProviderCircuits } from '../../shared/api/provider-circuits.ts';
import { requireClients } from '../api/clients.ts';
import { keys } from './query-keys.ts';

/** How often the circuits are read again. */
export const CIRCUITS_POLL_MS = 3000;

export function useProviderCircuits() {
  return useQuery({
    queryKey: keys.providerCircuits(),
    queryFn: (): Promise<ProviderCircuits> => requireClients().api.providerCircuits(),
    refetchInterval: CIRCUITS_POLL_MS,
  });
}
