// Turns whatever an AbortSignal was aborted with (an Error, a DOMException, a string, nothing)
// into the short text that goes into an attempt's result.

export function abortReasonText(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message || reason.name;
  if (typeof reason === 'string') return reason;
  if (reason === undefined) return 'aborted';
  try {
    return JSON.stringify(reason) ?? String(reason);
  } catch {
    return String(reason);
  }
}
