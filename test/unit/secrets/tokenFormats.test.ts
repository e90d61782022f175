// The 16 token formats an attacker shipped through `weave export` undetected (issue #22), each as a realistic
// fake built here from its documented shape (prefix + generated body), so the repository holds no literal that
// looks like a secret; and the env-file names export must leave out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor } from '../../../src/core/agent/redact';
import { TOKEN_RULE_SOURCES } from '../../../src/core/secrets/customRules';
import { detectSecrets } from '../../../src/core/secrets/secretDetector';
import { containsSecret, isSecretFileName } from '../../../src/core/tasks/export/hygiene';

/** `length` characters cycling through `alphabet` from `seed`: varied like a real token, the same every run. */
function body(alphabet: string, length: number, seed = 7): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[(seed + i * 31 + ((i * i) % 17)) % alphabet.length];
  return out;
}
const HEX = '0123456789abcdef';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const URLSAFE = `${ALNUM}_-`;
const p = (...parts: string[]): string => parts.join('');

/** kind → [the line a file would hold, the rule that must find it]. */
const TOKENS: Record<string, [string, string]> = {
  'Google API key': [`GOOGLE_API_KEY=${p('AI', 'za', body(URLSAFE, 35))}`, 'weave/google-api-key'],
  'PyPI token': [`password = ${p('pypi-', 'AgEIcHlwaS5vcmc', body(URLSAFE, 120))}`, 'weave/pypi-token'],
  'DigitalOcean token': [`DO_TOKEN=${p('dop', '_v1_', body(HEX, 64))}`, 'weave/digitalocean-token'],
  'Vault token': [`export VAULT_ADDR=x TOKEN=${p('hvs', '.', body(URLSAFE, 95))}`, 'weave/vault-token'],
  'Twilio API key': [`twilio.sid = "${p('SK', body('0123456789abcdef', 32))}"`, 'weave/twilio-api-key'],
  'Mailgun key': [`MAILGUN=${p('key', '-', body(HEX, 32))}`, 'weave/mailgun-key'],
  'Telegram bot token': [`BOT=${p('5012345678', ':', 'A', body(URLSAFE, 34))}`, 'weave/telegram-bot-token'],
  'Discord webhook': [
    p('https://discord.com/api/webhooks/', '1234567890123456789', '/', body(URLSAFE, 68)),
    'weave/discord-webhook',
  ],
  'Postman API key': [
    `POSTMAN=${p('PMAK', '-', body(HEX, 24), '-', body(HEX, 34, 3))}`,
    'weave/postman-api-key',
  ],
  'Heroku API key': [`HEROKU_API_KEY=${p('HRKU', '-AA', body(URLSAFE, 58))}`, 'weave/heroku-api-key'],
  'Replicate token': [`REPLICATE_API_TOKEN=${p('r8', '_', body(ALNUM, 37))}`, 'weave/replicate-token'],
  'Perplexity key': [`PPLX=${p('pplx', '-', body(ALNUM, 48))}`, 'weave/perplexity-key'],
  'Supabase token': [`SUPABASE_ACCESS_TOKEN=${p('sbp', '_', body(HEX, 40))}`, 'weave/supabase-key'],
  'Atlassian token': [`JIRA_TOKEN=${p('ATATT', '3', body(URLSAFE, 186))}`, 'weave/atlassian-token'],
  'New Relic key': [
    `NEW_RELIC_API_KEY=${p('NRAK', '-', body('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 27))}`,
    'weave/new-relic-key',
  ],
  'Sentry token': [`SENTRY_AUTH_TOKEN=${p('sntryu', '_', body(HEX, 64))}`, 'weave/sentry-token'],
};

describe('token formats', () => {
  it('has one cited rule per format', () => {
    const ids = new Set(Object.values(TOKENS).map(([, id]) => id));
    assert.equal(ids.size, 16);
    for (const id of ids) assert.ok(TOKEN_RULE_SOURCES.get(id), `${id} cites its source`);
  });

  for (const [kind, [line, ruleId]] of Object.entries(TOKENS)) {
    it(`finds a ${kind} in an export and redacts it from trajectories`, () => {
      const found = detectSecrets(line).map((f) => f.ruleId);
      assert.ok(found.includes(ruleId), `${kind}: ${found.join(', ') || 'nothing'} found in ${line}`);
      assert.equal(containsSecret(line), true);
      const redacted = createRedactor([])(line);
      assert.equal(detectSecrets(redacted).length, 0, `left over after redaction: ${redacted}`);
    });
  }

  it('leaves look-alikes in ordinary code alone', () => {
    for (const code of [
      'const key = "key-value";',
      'skip the SK step',
      'const webhook = "https://discord.com/api/webhooks/";',
      'pplx-short',
      'r8_small',
    ])
      assert.equal(containsSecret(code), false, code);
  });
});

describe('the shapes export still shipped (issue #35)', () => {
  const SHAPES: Array<[string, string]> = [
    [
      p('https://discord.com/api/', 'v10/webhooks/', '1234567890123456789', '/', body(URLSAFE, 68)),
      'weave/discord-webhook',
    ],
    [
      p('https://canary.discordapp.com/api/v9/webhooks/', '123456789012345678/', body(URLSAFE, 68)),
      'weave/discord-webhook',
    ],
    [
      `HEROKU_API_KEY=${p(body(HEX, 8), '-', body(HEX, 4, 2), '-', body(HEX, 4, 3), '-', body(HEX, 4, 4), '-', body(HEX, 12, 5))}`,
      'weave/heroku-legacy-key',
    ],
    [
      `heroku.api_key: "${p(body(HEX, 8), '-4a1b-', body(HEX, 4, 3), '-', body(HEX, 4, 4), '-', body(HEX, 12, 5))}"`,
      'weave/heroku-legacy-key',
    ],
    [`VAULT_TOKEN=${p('s', '.', body(ALNUM, 24))}`, 'weave/vault-legacy-token'],
    [`vault_token: "${p('s', '.', body(ALNUM, 24, 3))}"`, 'weave/vault-legacy-token'],
  ];
  for (const [line, ruleId] of SHAPES) {
    it(`finds ${ruleId} in ${line.slice(0, 40)}…, and redacts it`, () => {
      const found = detectSecrets(line).map((f) => f.ruleId);
      assert.ok(found.includes(ruleId), `${found.join(', ') || 'nothing'} found in ${line}`);
      assert.equal(containsSecret(line), true);
      assert.equal(detectSecrets(createRedactor([])(line)).length, 0);
    });
  }

  it('leaves unlabelled UUIDs and s.-prefixed identifiers in code alone', () => {
    for (const code of [
      'const id = "123e4567-e89b-12d3-a456-426614174000";',
      'element.addEventListenerOptionsX1 = 1;',
      'const s = { addEventListenerOptionsX1: 1 }; s.addEventListenerOptionsX1;',
      'herokuAppName = "my-app"',
    ])
      assert.equal(containsSecret(code), false, code);
  });
});

describe('env file names', () => {
  it('treats every .env/env variant and .envrc as a secret file', () => {
    for (const name of [
      '.env',
      '.envrc',
      '.env.local',
      '.env-prod',
      '.env_staging',
      'prod.env',
      'env.local',
      'config/env.production',
      'app/.envrc',
    ])
      assert.equal(isSecretFileName(name), true, name);
  });

  it('keeps source files that are merely called env', () => {
    for (const name of ['src/env.ts', 'env.js', 'config/env.py', 'environment.md', 'envelope.txt'])
      assert.equal(isSecretFileName(name), false, name);
  });
});
