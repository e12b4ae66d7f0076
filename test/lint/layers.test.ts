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
    ['renderer/x.ts', "import pg from 'pg';\nvoid pg;\n"],
    ['shared/x.ts', "import pg from 'pg';\nvoid pg;\n"],
    ['renderer/x.ts', "import { join } from 'node:path';\nvoid join;\n"],
    ['electron/x.ts', "import { a } from '../engine/server.ts';\nvoid a;\n"],
    ['shared/x.ts', "import { EventEmitter } from 'events';\nvoid EventEmitter;\n"],
    ['renderer/x.ts', "import { readFileSync } from 'fs';\nvoid readFileSync;\n"],
    // Inside engine/: executors never import the runtime; the CLI reaches the engine only through the service (and the host).
    ['engine/executors/x.ts', "import { Engine } from '../runtime/engine.ts';\nvoid Engine;\n"],
    ['engine/executors/http/x.ts', "import type { RunModel } from '../../runtime/run-model.ts';\nexport type M = RunModel;\n"],
    ['engine/executors/x.ts', "import { a } from '../../renderer/app.ts';\nvoid a;\n"],
    ['engine/cli/commands/x.ts', "import { foldRun } from '../../runtime/fold-run.ts';\nvoid foldRun;\n"],
    ['engine/cli/x.ts', "import { Engine } from '../runtime/engine.ts';\nvoid Engine;\n"],
    ['engine/cli/commands/x.ts', "import { Store } from '../../store/store.ts';\nvoid Store;\n"],
    ['engine/cli/x.ts', "import { a } from '../../electron/main.ts';\nvoid a;\n"],
    // shared-node/: Node-only code for the engine and the desktop shell, never for shared/ or the renderer.
    ['shared/x.ts', "import { writeFileAtomic } from '../shared-node/atomic-file.ts';\nvoid writeFileAtomic;\n"],
    ['renderer/core/x.ts', "import { writeFileAtomic } from '../../shared-node/atomic-file.ts';\nvoid writeFileAtomic;\n"],
    ['shared-node/x.ts', "import { EngineService } from '../engine/service/engine-service.ts';\nvoid EngineService;\n"],
    ['shared-node/x.ts', "import { a } from '../electron/main/main.ts';\nvoid a;\n"],
    ['shared-node/x.ts', "import { app } from 'electron';\nvoid app;\n"],
    ['shared-node/x.ts', "import Database from 'better-sqlite3';\nvoid Database;\n"],
    // The server builds no engine and opens no store (engine/host does); the service imports neither host, CLI nor server.
    ['engine/server/x.ts', "import { Engine } from '../runtime/engine.ts';\nvoid Engine;\n"],
    ['engine/server/x.ts', "import { defaultExecutors } from '../executors/default-executors.ts';\nvoid defaultExecutors;\n"],
    ['engine/server/x.ts', "import { Lease } from '../store/lease.ts';\nvoid Lease;\n"],
    ['engine/server/x.ts', "import { openDatabase } from '../store/open-database.ts';\nvoid openDatabase;\n"],
    ['engine/server/x.ts', "import { a } from '../../renderer/app.ts';\nvoid a;\n"],
    ['engine/service/x.ts', "import { openEngineSession } from '../host/engine-host.ts';\nvoid openEngineSession;\n"],
    ['engine/service/x.ts', "import { storeOwner } from '../cli/store-owner.ts';\nvoid storeOwner;\n"],
    ['engine/service/x.ts', "import { serve } from '../server/serve.ts';\nvoid serve;\n"],
  ])('%s: refuses %s', async (file, code) => {
    expect(await restrictedImports(file, code)).not.toEqual([]);
  });

  it.each([
    ['engine/cli/x.ts', "import { Workflow } from '../../shared/definition/workflow-schema.ts';\nvoid Workflow;\n"],
    ['renderer/x.ts', "import { Workflow } from '../shared/definition/workflow-schema.ts';\nvoid Workflow;\n"],
    ['shared/validator/x.ts', "import { Workflow } from '../definition/workflow-schema.ts';\nvoid Workflow;\n"],
    ['engine/x.ts', "import { readFileSync } from 'node:fs';\nvoid readFileSync;\n"],
    ['shared/scenario/x.ts', "import { EVENT_TYPES } from '../events/run-event.ts';\nvoid EVENT_TYPES;\n"],
    ['engine/cli/x.ts', "import { EngineService } from '../service/engine-service.ts';\nvoid EngineService;\n"],
    ['engine/executors/x.ts', "import { systemClock } from '../time/clock.ts';\nvoid systemClock;\n"],
    ['engine/service/x.ts', "import { Engine } from '../runtime/engine.ts';\nvoid Engine;\n"],
    ['engine/scenario/x.ts', "import { Engine } from '../runtime/engine.ts';\nvoid Engine;\n"],
    ['engine/service/x.ts', "import { writeFileAtomic } from '../../shared-node/atomic-file.ts';\nvoid writeFileAtomic;\n"],
    ['engine/cli/x.ts', "import { writeFileAtomic } from '../../shared-node/atomic-file.ts';\nvoid writeFileAtomic;\n"],
    ['electron/main/x.ts', "import { writeFileAtomic } from '../../shared-node/atomic-file.ts';\nvoid writeFileAtomic;\n"],
    ['shared-node/x.ts', "import { renameSync } from 'node:fs';\nvoid renameSync;\n"],
    ['shared-node/x.ts', "import { Workflow } from '../shared/definition/workflow-schema.ts';\nvoid Workflow;\n"],
    ['engine/cli/x.ts', "import { withEngineService } from '../host/engine-host.ts';\nvoid withEngineService;\n"],
    ['engine/server/x.ts', "import { openEngineSession } from '../host/engine-host.ts';\nvoid openEngineSession;\n"],
    ['engine/server/x.ts', "import type { Store } from '../store/store.ts';\nexport type S = Store;\n"],
    ['engine/host/x.ts', "import { Engine } from '../runtime/engine.ts';\nvoid Engine;\n"],
  ])('%s: allows %s', async (file, code) => {
    expect(await restrictedImports(file, code)).toEqual([]);
  });
});
