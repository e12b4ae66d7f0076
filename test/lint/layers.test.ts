// The layer rule must fail on a real violation, not only pass on clean code.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer rule (eslint no-restricted-imports)', () => {
  it.each([
    ['shared/definition/x.ts', "import { a } from '../../engine/cli/main.ts';\nvoid a;\n"],
    ['shared/x.ts', "import { readFileSync } from 'node:fs';\nvoid readFileSync;\n"],
    ['shared/x.ts', "import React from 'react';\nvoid React;\n"],
    ['engine/cli/x.ts', "import { a } from '../../renderer/app.ts';\nvoid a;\n"],
    ['engine/x.ts', "import { a } from '../electron/main.ts';\nvoid a;\n"],
    ['renderer/x.ts', "import { a } from '../engine/store/db.ts';\nvoid a;\n"],
    ['renderer/x.ts', "import Database from 'better-sqlite3';\nvoid Database;\n"],
    ['renderer/x.ts', "import { join } from 'node:path';\nvoid join;\n"],
    ['electron/x.ts', "import { a } from '../engine/server.ts';\nvoid a;\n"],
    ['shared/x.ts', "import { EventEmitter } from 'events';\nvoid EventEmitter;\n"],
    ['renderer/x.ts', "import { readFileSync } from 'fs';\nvoid readFileSync;\n"],
  ])('%s: refuses %s', async (file, code) => {
    expect(await restrictedImports(file, code)).not.toEqual([]);
  });

  it.each([
    ['engine/cli/x.ts', "import { Workflow } from '../../shared/definition/workflow-schema.ts';\nvoid Workflow;\n"],
    ['renderer/x.ts', "import { Workflow } from '../shared/definition/workflow-schema.ts';\nvoid Workflow;\n"],
    ['shared/validator/x.ts', "import { Workflow } from '../definition/workflow-schema.ts';\nvoid Workflow;\n"],
    ['engine/x.ts', "import { readFileSync } from 'node:fs';\nvoid readFileSync;\n"],
    ['shared/scenario/x.ts', "import { EVENT_TYPES } from '../events/run-event.ts';\nvoid EVENT_TYPES;\n"],
  ])('%s: allows %s', async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });
});
