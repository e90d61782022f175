// The one secret detector of Weave: secretlint's maintained recommended rule set
// (@secretlint/secretlint-rule-preset-recommend) plus a few custom rules in secretlint's format
// (customRules.ts). It decides which files an export leaves out, redacts exported text fields, and redacts agent
// trajectories and results.
//
// Why it runs the rules itself instead of calling @secretlint/core's lintSource: lintSource is async, and
// redaction sits on synchronous paths (the trajectory writer, path scrubbing). The rules are synchronous
// (each `file(source)` handler reports ranges through `context.report`), so this runner creates each rule with
// a minimal context and collects the ranges. test/unit/secrets/secretDetector.test.ts checks that it finds
// exactly what lintSource finds. The preset's comment filter (secretlint-disable comments) is not run: a
// repository's own comment must not be able to smuggle a key into an export.
import type {
  SecretLintRuleContext,
  SecretLintRuleCreator,
  SecretLintSourceCode,
} from '@secretlint/types' with { 'resolution-mode': 'import' };
import { CUSTOM_RULES, LOG_RULES } from './customRules';

type PresetModule = { rules: SecretLintRuleCreator[] };
// The preset is an ES module; Node ≥ 22 (and esbuild's bundle) load it from CommonJS synchronously.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const preset = require('@secretlint/secretlint-rule-preset-recommend') as PresetModule;

const COMMENT_FILTER = '@secretlint/secretlint-rule-filter-comments';

/** What makes a file or an exported field secret. */
export const SECRET_RULES: SecretLintRuleCreator[] = [
  ...preset.rules.filter((rule) => rule.meta.id !== COMMENT_FILTER),
  ...CUSTOM_RULES,
];
/** What is redacted from logs and trajectories: the above plus credentials in headers and assignments. */
export const LOG_SECRET_RULES: SecretLintRuleCreator[] = [...SECRET_RULES, ...LOG_RULES];

/** Options per rule: AWS access key ids are only scanned on request (they identify, the secret key signs). */
export const RULE_OPTIONS: Record<string, object> = {
  '@secretlint/secretlint-rule-aws': { enableIDScanRule: true },
};

export interface SecretFinding {
  ruleId: string;
  /** [start, end) in the text. */
  range: readonly [number, number];
}

/** Every secret the rules find in `text` (never the secret itself: only where it is). */
export function detectSecrets(
  text: string,
  rules: readonly SecretLintRuleCreator[] = SECRET_RULES,
  filePath = 'text.txt',
): SecretFinding[] {
  const findings: SecretFinding[] = [];
  const source = sourceCode(text, filePath);
  for (const rule of rules) {
    const context = {
      sharedOptions: {},
      createTranslator: () => (messageId: string, data: unknown) => ({ message: messageId, messageId, data }),
      report: (descriptor: { range: readonly [number, number] }) =>
        findings.push({ ruleId: rule.meta.id, range: descriptor.range }),
      ignore: () => undefined,
    } as unknown as SecretLintRuleContext;
    const handler = rule.create(context, RULE_OPTIONS[rule.meta.id] ?? {});
    void handler.file?.(source);
  }
  return findings.sort((a, b) => a.range[0] - b.range[0] || b.range[1] - a.range[1]);
}

/** Replaces every finding with `label` (overlapping findings merged). */
export function redactDetected(
  text: string,
  label: string,
  rules: readonly SecretLintRuleCreator[] = SECRET_RULES,
): string {
  const findings = detectSecrets(text, rules);
  if (findings.length === 0) return text;
  let out = '';
  let at = 0;
  for (const { range } of findings) {
    const [start, end] = range;
    if (end <= at) continue;
    out += text.slice(at, Math.max(at, start)) + (start >= at ? label : '');
    at = end;
  }
  return out + text.slice(at);
}

/**
 * Text to scan from a file's bytes: UTF-16 (by byte-order mark, or by the NUL-every-other-byte shape of
 * ASCII in UTF-16) is decoded, so a key saved by a Windows editor is not missed; anything else as UTF-8
 * (binary bytes decode to replacement characters, which match no rule).
 */
export function scannableText(content: Buffer): string {
  if (content[0] === 0xff && content[1] === 0xfe) return content.subarray(2).toString('utf16le');
  if (content[0] === 0xfe && content[1] === 0xff) return swapBytes(content.subarray(2)).toString('utf16le');
  const sample = content.subarray(0, 4096);
  if (sample.length >= 8) {
    let evenZeros = 0;
    let oddZeros = 0;
    for (let i = 0; i + 1 < sample.length; i += 2) {
      if (sample[i] === 0) evenZeros++;
      if (sample[i + 1] === 0) oddZeros++;
    }
    const pairs = Math.floor(sample.length / 2);
    if (oddZeros > pairs * 0.6 && evenZeros < pairs * 0.1) return content.toString('utf16le');
    if (evenZeros > pairs * 0.6 && oddZeros < pairs * 0.1) return swapBytes(content).toString('utf16le');
  }
  return content.toString('utf8');
}

function swapBytes(buffer: Buffer): Buffer {
  const copy = Buffer.from(buffer.subarray(0, buffer.length - (buffer.length % 2)));
  return copy.swap16();
}

function sourceCode(content: string, filePath: string): SecretLintSourceCode {
  const dot = filePath.lastIndexOf('.');
  return {
    hasBOM: false,
    content,
    filePath,
    physicalFilePath: undefined,
    contentType: 'text',
    ext: dot < 0 ? '' : filePath.slice(dot),
    getFilePath: () => filePath,
    getPhysicalFilePath: () => undefined,
  } as unknown as SecretLintSourceCode;
}
