// One zod schema per tool feeds every surface: package.json's `contributes.languageModelTools` must be exactly what
// the schemas generate (regenerate with `npm run sync:tools`), and the MCP provider VS Code is told about must be
// declared in the manifest (vscode.lm.registerMcpServerDefinitionProvider throws for an undeclared id).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { languageModelToolContributions, WEAVE_TOOLS } from '../../../src/mcp/toolSchemas';
import { REPO_ROOT } from '../../support/paths';

const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  engines: { vscode: string };
  contributes: {
    languageModelTools: Array<Record<string, unknown>>;
    mcpServerDefinitionProviders: Array<{ id: string; label: string }>;
  };
};

test('the manifest language model tools equal the zod-generated ones (run `npm run sync:tools` if not)', () => {
  assert.deepEqual(manifest.contributes.languageModelTools, languageModelToolContributions());
});

test('every tool has an input schema that rejects unknown fields, and a #reference name', () => {
  for (const tool of manifest.contributes.languageModelTools) {
    assert.equal((tool.inputSchema as { additionalProperties?: boolean }).additionalProperties, false);
    assert.equal(tool.canBeReferencedInPrompt, true);
    assert.match(String(tool.toolReferenceName), /^weave[A-Z]\w+$/);
  }
  assert.equal(manifest.contributes.languageModelTools.length, WEAVE_TOOLS.length);
});

test('the MCP server definition provider is declared, and engines.vscode has the final API (1.101)', () => {
  assert.deepEqual(
    manifest.contributes.mcpServerDefinitionProviders.map((p) => p.id),
    ['weave.mcp'],
  );
  const [major, minor] = manifest.engines.vscode.replace(/^\^/, '').split('.').map(Number);
  assert.ok(major === 1 && (minor ?? 0) >= 101, manifest.engines.vscode);
});
