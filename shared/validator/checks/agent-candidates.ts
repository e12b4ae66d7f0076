// Rules for choosing an agent's executor at run time (docs/routing.md) that the schema cannot
// see: an escalation the retry policy leaves no attempts for, tags asked for that no candidate
// has, `cheapest` over candidates without a cost, and a step provider the candidates replace.
// (The expressions' syntax and reads are checked with every other expression, expressions.ts.)
import type { AgentCandidate } from '../../definition/agent-route.ts';
import jsonata from 'jsonata';
import { isAstNode, type AstNode } from '../expressions/jsonata-ast.ts';
import type { ValidationContext } from '../validation-context.ts';

export function checkAgentCandidates(ctx: ValidationContext): void {
  const { graph } = ctx;
  for (let v = 0; v < graph.size; v++) {
    const step = graph.step(v);
    if (step.kind !== 'agent' || step.config.candidates === undefined) continue;
    const { candidates, choose } = step.config;
    const maxAttempts = step.retry?.maxAttempts ?? 1;
    if (choose?.confidence !== undefined && candidates.length > 1 && maxAttempts < candidates.length) {
      ctx.atStep(v, ['retry', 'maxAttempts'], {
        code: 'route-escalation-capped',
        severity: 'warning',
        message: `agent step "${step.id}" escalates on low confidence over ${candidates.length} candidates, but retry.maxAttempts is ${maxAttempts}: each escalation uses one attempt, so only ${maxAttempts} of them can be tried`,
        hint: `set "retry": {"maxAttempts": ${candidates.length}} (or more, to also retry a provider failure)`,
      });
    }
    if (choose?.order === 'cheapest') {
      const unpriced = candidates.filter((c) => c.cost === undefined).map((c) => c.id);
      if (unpriced.length > 0 && unpriced.length < candidates.length) {
        ctx.atStep(v, ['config', 'choose', 'order'], {
          code: 'route-cost-missing',
          severity: 'warning',
          message: `agent step "${step.id}" tries the cheapest candidate first, but ${list(unpriced)} ${unpriced.length === 1 ? 'has' : 'have'} no cost, so ${unpriced.length === 1 ? 'it comes' : 'they come'} last`,
          hint: 'give every candidate a "cost" (for example its price per million output tokens), or use "order": "listed"',
        });
      }
    }
    if (choose?.matchTags !== undefined) checkTags(ctx, v, step.id, candidates, choose.matchTags);
    if (step.config.provider !== undefined) {
      ctx.atStep(v, ['config', 'provider'], {
        code: 'route-provider-ignored',
        severity: 'warning',
        message: `agent step "${step.id}" gives a provider and candidates: every attempt runs on a chosen candidate, so config.provider${step.config.model === undefined ? '' : ' and config.model'} are never used`,
        hint: 'remove config.provider (and model, baseUrl, apiKeyEnv, mock), or list that provider as a candidate',
      });
    }
  }
}

/** Tags asked for: none of the candidates has tags, or a tag written as a literal that no candidate has. */
function checkTags(ctx: ValidationContext, v: number, stepId: string, candidates: readonly AgentCandidate[], expression: string): void {
  const known = new Set(candidates.flatMap((c) => c.tags ?? []));
  if (known.size === 0) {
    ctx.atStep(v, ['config', 'choose', 'matchTags'], {
      code: 'route-tags-unknown',
      severity: 'warning',
      message: `agent step "${stepId}" prefers candidates by tag (choose.matchTags), but no candidate lists tags, so the rule never changes the choice`,
      hint: 'give the candidates "tags" (for example ["legal"]), or remove choose.matchTags',
    });
    return;
  }
  const missing = literalTags(astOf(expression)).filter((t) => !known.has(t));
  if (missing.length === 0) return;
  ctx.atStep(v, ['config', 'choose', 'matchTags'], {
    code: 'route-tags-unknown',
    severity: 'warning',
    message: `agent step "${stepId}" asks for ${missing.length === 1 ? 'tag' : 'tags'} ${list(missing)}, which no candidate has (they have ${list([...known].sort())})`,
    hint: 'fix the tag\'s spelling, or add it to the "tags" of the candidate that should take such input',
  });
}

/**
 * The expression's own AST, with its string values (the cache's canonical AST blanks literals so
 * that expressions alike but for them share one entry). Undefined for a syntax error, which is
 * reported as expression-syntax.
 */
function astOf(expression: string): AstNode | undefined {
  try {
    const ast: unknown = jsonata(expression).ast();
    return isAstNode(ast) ? ast : undefined;
  } catch {
    return undefined;
  }
}

/** The tags an expression writes as string literals ("legal", ["legal", "tax"], a condition's branches). */
function literalTags(node: AstNode | undefined): string[] {
  if (node === undefined) return [];
  if (node.type === 'string' && typeof node.value === 'string') return [node.value];
  if (node.type === 'unary' && node.value === '[') return (node.expressions ?? []).flatMap(literalTags);
  if (node.type === 'condition') return [...literalTags(node.then), ...literalTags(node.else)];
  return [];
}

const list = (ids: readonly string[]): string => ids.map((i) => `"${i}"`).join(', ');
