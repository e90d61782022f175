// Secret kinds secretlint's recommended preset (13.0.7) has no rule for, written as secretlint rules (the same
// creator shape: meta, messages, create → file(source) reporting ranges), so they run beside the preset in the
// one detector (secretDetector.ts). Each pattern is anchored on the credential's documented shape.
import type {
  SecretLintRuleContext,
  SecretLintRuleCreator,
  SecretLintSourceCode,
} from '@secretlint/types' with { 'resolution-mode': 'import' };

interface PatternRule {
  id: string;
  what: string;
  patterns: RegExp[];
}

const PATTERN_RULES: PatternRule[] = [
  // API keys of OpenAI-compatible providers in the plain `sk-…` shape (the preset's OpenAI rule wants the
  // T3BlbkFJ marker of OpenAI's own keys; DeepSeek, Moonshot, gateways and older keys lack it).
  {
    id: 'weave/sk-key',
    what: 'API key (sk-…)',
    patterns: [/\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{20,}/g],
  },
  // A private key's armour line alone: outputs and trajectories keep only the tail or head of a key block, which
  // the preset's rule (a whole block) does not see. PGP's "PRIVATE KEY BLOCK" included.
  {
    id: 'weave/private-key-header',
    what: 'private key',
    patterns: [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g],
  },
  // xAI API keys: "xai-" and 80 alphanumerics.
  { id: 'weave/xai', what: 'xAI API key', patterns: [/\bxai-[A-Za-z0-9]{80}\b/g] },
  // Azure Storage connection strings carry the account key as AccountKey=<base64 of 64 bytes>.
  {
    id: 'weave/azure-account-key',
    what: 'Azure storage account key',
    patterns: [/\bAccountKey=[A-Za-z0-9+/]{86}==/g],
  },
  // JSON Web Tokens: three base64url parts, the first two JSON objects ("eyJ" = '{"').
  {
    id: 'weave/jwt',
    what: 'JSON Web Token',
    patterns: [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{10,}/g],
  },
  // AWS secret access keys outside an aws_secret_access_key assignment (which the preset's AWS rule covers):
  // 40 base64 characters right after a label naming them.
  {
    id: 'weave/aws-secret-key',
    what: 'AWS secret access key',
    patterns: [
      /\b(?:aws)?_?secret_?(?:access)?_?key\b["']?\s*[:=]\s*["']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi,
    ],
  },
];

function patternRule(rule: PatternRule): SecretLintRuleCreator {
  const messages = { FOUND: { en: () => `found ${rule.what}` } };
  return {
    messages,
    meta: { id: rule.id, type: 'scanner', recommended: true, supportedContentTypes: ['text'] },
    create(context: SecretLintRuleContext) {
      const t = context.createTranslator(messages);
      return {
        file(source: SecretLintSourceCode) {
          for (const pattern of rule.patterns) {
            for (const match of source.content.matchAll(pattern)) {
              const start = match.index;
              context.report({ message: t('FOUND'), range: [start, start + match[0].length] });
            }
          }
        },
      };
    },
  };
}

// Only for logs and trajectories: in source code these shapes are mostly test fixtures and examples
// (`Authorization: 'Bearer s3cret'`), which must not make a file "secret" and vanish from an export.
const LOG_PATTERN_RULES: PatternRule[] = [
  // Credentials in headers and key assignments, as they show up in logs and trajectories: Authorization values,
  // x-api-key / api_key / *_API_KEY assignments, and long literals assigned to secret-ish names.
  {
    id: 'weave/credential-assignment',
    what: 'credential',
    patterns: [
      /\b(?:Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{4,}/gi,
      /"?\b(?:authorization|x-api-key|api[-_]?key|[a-z]+[-_]api[-_]key)"?\s*[:=]\s*(?:"[^"\n]*"|'[^'\n]*'|[^\s,;}]+)/gi,
      /\b(?:secret|password|passwd|token|access[-_]?key)\w*"?\s*[:=]\s*(["'])[^"'\n]{8,}\1/gi,
      /_authToken\s*=\s*\S+/g,
    ],
  },
];

export const CUSTOM_RULES: SecretLintRuleCreator[] = PATTERN_RULES.map(patternRule);
export const LOG_RULES: SecretLintRuleCreator[] = LOG_PATTERN_RULES.map(patternRule);
