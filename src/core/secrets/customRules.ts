// Secret kinds secretlint's recommended preset (13.0.7) has no rule for, written as secretlint rules (the same
// creator shape: meta, messages, create → file(source) reporting ranges), so they run beside the preset in the
// one detector (secretDetector.ts). Each pattern is anchored on the credential's documented shape. The token
// formats (TOKEN_RULES) are gitleaks' rules (github.com/gitleaks/gitleaks, config/gitleaks.toml, rule id cited
// per entry) or the vendor's documented prefix where gitleaks has none; no npm package ships gitleaks' rules
// as data, so they are copied here, reduced to their prefix-anchored form, and run with re2js (linear time:
// a file the code under test wrote cannot make the scan hang).
import { RE2JS } from 're2js';
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

/** A token format: an RE2 pattern (no lookaround, no backreferences) and where it comes from. */
interface TokenRule {
  id: string;
  what: string;
  re2: string;
  source: string;
}

// Each one was shipped undetected through `weave export` (issue #22): the preset covers none of these shapes
// (its hashicorp-vault rule wants a `VAULT_TOKEN=` style assignment, its gcp rule a service-account JSON).
const TOKEN_RULES: TokenRule[] = [
  {
    id: 'weave/google-api-key',
    what: 'Google API key',
    re2: '\\bAIza[\\w-]{35}',
    source: 'gitleaks gcp-api-key',
  },
  {
    id: 'weave/pypi-token',
    what: 'PyPI upload token',
    re2: 'pypi-AgEIcHlwaS5vcmc[\\w-]{50,1000}',
    source: 'gitleaks pypi-upload-token',
  },
  {
    id: 'weave/digitalocean-token',
    what: 'DigitalOcean token',
    re2: '\\bdo[por]_v1_[a-f0-9]{64}\\b',
    source: 'gitleaks digitalocean-pat, digitalocean-access-token, digitalocean-refresh-token',
  },
  {
    id: 'weave/vault-token',
    what: 'HashiCorp Vault token',
    re2: '\\bhv[sb]\\.[\\w-]{90,300}',
    source: 'gitleaks vault-service-token, vault-batch-token',
  },
  // Issue #35: the shapes the rules above missed. Vault's service tokens before 1.10 are `s.` and 24 characters,
  // too short to find unlabelled without flagging code (`s.addEventListener1234567`), so a label naming Vault is
  // required, as gitleaks' entropy filter stands in for one.
  {
    id: 'weave/vault-legacy-token',
    what: 'HashiCorp Vault token (pre-1.10 s. form)',
    re2: '(?i)vault[\\w.-]{0,30}["\']?\\s*(?:[:=]|:=|=>)\\s*["\']?s\\.[a-z0-9]{24}\\b',
    source:
      'gitleaks vault-service-token (its s. alternative), with a Vault label instead of the entropy check',
  },
  {
    id: 'weave/heroku-legacy-key',
    what: 'Heroku API key (UUID form)',
    re2: '(?i)heroku[\\w.-]{0,30}["\']?\\s*(?:[:=]|:=|=>)\\s*["\']?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\b',
    source: 'gitleaks heroku-api-key',
  },
  {
    id: 'weave/twilio-api-key',
    what: 'Twilio API key',
    re2: '\\bSK[0-9a-fA-F]{32}\\b',
    source: 'gitleaks twilio-api-key',
  },
  {
    id: 'weave/mailgun-key',
    what: 'Mailgun API key',
    re2: '\\bkey-[a-f0-9]{32}\\b',
    source: 'gitleaks mailgun-private-api-token',
  },
  {
    id: 'weave/telegram-bot-token',
    what: 'Telegram bot token',
    re2: '\\b[0-9]{5,16}:A[a-zA-Z0-9_-]{34}\\b',
    source: 'gitleaks telegram-bot-api-token',
  },
  {
    id: 'weave/discord-webhook',
    what: 'Discord webhook URL',
    re2: 'https://(?:ptb\\.|canary\\.)?discord(?:app)?\\.com/api/(?:v[0-9]{1,2}/)?webhooks/[0-9]{17,20}/[\\w-]{60,80}',
    source:
      "Discord's webhook URL shape, with or without the API version (/api/v10/webhooks: developer docs, Webhook Resource); gitleaks has no webhook rule",
  },
  {
    id: 'weave/postman-api-key',
    what: 'Postman API key',
    re2: '\\bPMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}\\b',
    source: 'gitleaks postman-api-token',
  },
  {
    id: 'weave/heroku-api-key',
    what: 'Heroku API key',
    re2: '\\bHRKU-AA[0-9a-zA-Z_-]{58}',
    source: 'gitleaks heroku-api-key-v2',
  },
  {
    id: 'weave/replicate-token',
    what: 'Replicate API token',
    re2: '\\br8_[0-9A-Za-z_-]{37}\\b',
    source: "Replicate's documented r8_ token prefix (trufflehog's replicate detector)",
  },
  {
    id: 'weave/perplexity-key',
    what: 'Perplexity API key',
    re2: '\\bpplx-[a-zA-Z0-9]{48}\\b',
    source: 'gitleaks perplexity-api-key',
  },
  {
    id: 'weave/supabase-key',
    what: 'Supabase access or secret key',
    re2: '\\b(?:sbp_[a-f0-9]{40}|sb_secret_[\\w-]{31,64})\\b',
    source:
      "Supabase's sbp_ access tokens and sb_secret_ API keys (Supabase docs, API keys); trufflehog supabasetoken",
  },
  {
    id: 'weave/atlassian-token',
    what: 'Atlassian API token',
    re2: '\\bATATT3[A-Za-z0-9_=-]{186}',
    source: 'gitleaks atlassian-api-token',
  },
  {
    id: 'weave/new-relic-key',
    what: 'New Relic key',
    re2: '\\b(?:NRAK-[A-Z0-9]{27}|NRII-[a-zA-Z0-9-]{32}|NRJS-[a-f0-9]{19})\\b',
    source: 'gitleaks new-relic-user-api-key, new-relic-insert-key, new-relic-browser-api-token',
  },
  {
    id: 'weave/sentry-token',
    what: 'Sentry token',
    re2: '\\b(?:sntryu_[a-f0-9]{64}|sntrys_eyJpYXQiO[a-zA-Z0-9+/=_-]{10,400})',
    source: 'gitleaks sentry-user-token, sentry-org-token',
  },
];

function tokenRule(rule: TokenRule): SecretLintRuleCreator {
  const messages = { FOUND: { en: () => `found ${rule.what}` } };
  const pattern = RE2JS.compile(rule.re2);
  return {
    messages,
    meta: { id: rule.id, type: 'scanner', recommended: true, supportedContentTypes: ['text'] },
    create(context: SecretLintRuleContext) {
      const t = context.createTranslator(messages);
      return {
        file(source: SecretLintSourceCode) {
          const matcher = pattern.matcher(source.content);
          while (matcher.find())
            context.report({ message: t('FOUND'), range: [matcher.start(), matcher.end()] });
        },
      };
    },
  };
}

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

export const CUSTOM_RULES: SecretLintRuleCreator[] = [
  ...PATTERN_RULES.map(patternRule),
  ...TOKEN_RULES.map(tokenRule),
];

/** The rule ids of the token formats and where each pattern comes from (for the tests and the README). */
export const TOKEN_RULE_SOURCES: ReadonlyMap<string, string> = new Map(
  TOKEN_RULES.map((r) => [r.id, r.source]),
);
export const LOG_RULES: SecretLintRuleCreator[] = LOG_PATTERN_RULES.map(patternRule);
