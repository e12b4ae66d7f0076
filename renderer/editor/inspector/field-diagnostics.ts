// The live validator's findings for one field of the inspected element, as the code field's
// outside diagnostics: the element's JSON path prefix comes from context ($.steps[3], $.edges[1],
// or $ for the workflow), the field's path from the field itself.
import { createContext, useContext, useMemo } from 'react';
import type { ExternalDiagnostic } from '../../code/field-checks.ts';
import { useValidation } from '../validation/validation-store.ts';
import { isWithin } from './field-site.ts';

/** The JSON path of the element the inspector shows; null where no findings should attach. */
export const ElementSite = createContext<string | null>(null);

const NONE: readonly ExternalDiagnostic[] = [];


export function useFieldDiagnostics(path: string): readonly ExternalDiagnostic[] {
  const prefix = useContext(ElementSite);
  const diagnostics = useValidation((s) => s.diagnostics);
  return useMemo(() => {
    if (prefix === null) return NONE;
    const field = prefix === '$' ? `$.${path}` : `${prefix}.${path}`;
    const found = diagnostics.filter((d) => isWithin(d.path, field));
    if (found.length === 0) return NONE;
    return found.map((d) => ({ from: d.position ?? 0, message: `${d.code}: ${d.message}`, severity: d.severity }));
  }, [prefix, path, diagnostics]);
}
