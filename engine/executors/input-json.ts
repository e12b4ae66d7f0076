// The step's input as the JSON text a command, script or model receives; an input that is not
// JSON (a cycle, a BigInt) fails the attempt with `invalid_input`, which no retry can fix.

export type InputJson = { ok: true; json: string } | { ok: false; code: 'invalid_input'; message: string };

export function inputJson(stepId: string, input: unknown): InputJson {
  try {
    return { ok: true, json: JSON.stringify(input) };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, code: 'invalid_input', message: `the input of step "${stepId}" is not JSON: ${why}` };
  }
}
