// User data contracts (run input, step outputs, human forms) must be valid JSON Schemas.
import type { ValidationContext } from '../validation-context.ts';

export function checkJsonSchemas(ctx: ValidationContext): void {
  const { graph, workflow } = ctx;
  const check = (schema: unknown, path: PropertyKey[], report: (path: PropertyKey[], message: string) => void): void => {
    if (schema === undefined) return;
    for (const p of ctx.schemas.check(schema)) {
      const inner = p.pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
      report([...path, ...inner], `${p.pointer === '' ? '' : `at ${p.pointer}: `}${p.message}`);
    }
  };
  const hint = 'fix the schema (JSON Schema draft 2020-12); see docs/definition-format.md for examples';
  check(workflow.input, ['input'], (path, message) =>
    ctx.at(path, { code: 'invalid-json-schema', message: `the run input schema is not a valid JSON Schema: ${message}`, hint }),
  );
  for (let v = 0; v < graph.size; v++) {
    const step = graph.step(v);
    check(step.output, ['output'], (path, message) =>
      ctx.atStep(v, path, { code: 'invalid-json-schema', message: `the output schema of "${step.id}" is not a valid JSON Schema: ${message}`, hint }),
    );
    if (step.kind === 'human') {
      check(step.config.form, ['config', 'form'], (path, message) =>
        ctx.atStep(v, path, { code: 'invalid-json-schema', message: `the form of "${step.id}" is not a valid JSON Schema: ${message}`, hint }),
      );
    }
  }
}
