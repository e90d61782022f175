// The shared secret detector (secretlint's recommended preset + Weave's rules in secretlint's format) on every
// kind of credential the export and the trajectories must keep out. Fake keys are built here by concatenation,
// so the repository holds no literal that looks like a secret.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  detectSecrets,
  LOG_SECRET_RULES,
  RULE_OPTIONS,
  scannableText,
  SECRET_RULES,
} from '../../../src/core/secrets/secretDetector';
import { containsSecret, isSecretFileName, redactSecrets } from '../../../src/core/tasks/export/hygiene';
import { createRedactor } from '../../../src/core/agent/redact';
import type * as SecretlintCore from '@secretlint/core' with { 'resolution-mode': 'import' };

const k = (...parts: string[]): string => parts.join('');
const repeat = (text: string, length: number): string =>
  text.repeat(Math.ceil(length / text.length)).slice(0, length);
const base64 = (length: number): string => repeat('Zm9vYmFyQmF6UXV4', length);
const pemBody = `${base64(64)}\n${base64(64)}\n${base64(40)}`;

/** kind → a line of text holding a fake credential of that kind. */
export const FAKE_SECRETS: Record<string, string> = {
  'stripe live secret key': `STRIPE=${k('sk', '_live_', repeat('4eC39HqLyjWDarjt', 24))}`,
  'stripe restricted key': `key: ${k('rk', '_live_', repeat('T1zdp7dc4eC39Hq', 30))}`,
  'npm token': `//registry.npmjs.org/:token ${k('npm', '_', repeat('a1B2c3D4e5', 36))}`,
  'gitlab token': `GITLAB=${k('glpat', '-', repeat('xY9zW8vU7t', 20))}`,
  'hugging face token': `HF=${k('hf', '_', repeat('abcdEFGHijklMNOP', 34))}`,
  'groq key': `GROQ_API_KEY=${k('gsk', '_', repeat('q1W2e3R4t5Y6', 52))}`,
  'xai key': `XAI_API_KEY=${k('xai', '-', repeat('Zx81Yw72Xv63', 80))}`,
  'aws access key id': `id = ${k('AKIA', 'Z7QRSTUVWX2345YZ')}`,
  'aws secret key': `aws_secret_access_key = ${k('wJalrXUtnF', 'EMI/K7MDENG/', 'bPxRfiCYzzzzKEY1AB')}`,
  'azure account key': `DefaultEndpointsProtocol=https;AccountName=x;${k('AccountKey', '=', base64(86), '==')};`,
  'url with password': `remote = ${k('https://deploy:', 'Pa55w0rdValue', '@git.example.com/x.git')}`,
  'slack webhook': k('https://hooks.slack.com/services/', 'T0ABCDEFG/', 'B0HIJKLMN/', repeat('aBcDeFgH', 24)),
  jwt: `token ${k('eyJ', 'hbGciOiJIUzI1NiJ9', '.eyJ', 'zdWIiOiIxMjM0NTY3ODkwIn0', '.', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U')}`,
  'pgp private key': k(
    '-----BEGIN PGP ',
    'PRIVATE KEY BLOCK-----\n',
    pemBody,
    '\n-----END PGP PRIVATE KEY BLOCK-----',
  ),
  'ssh private key': k(
    '-----BEGIN OPENSSH ',
    'PRIVATE KEY-----\n',
    pemBody,
    '\n-----END OPENSSH PRIVATE KEY-----',
  ),
  'openai-compatible key': `OPENAI_API_KEY=${k('sk-', 'proj-', repeat('AbCdEfGh12', 40))}`,
};

describe('secret detector', () => {
  for (const [kind, text] of Object.entries(FAKE_SECRETS)) {
    it(`finds a ${kind}, in exports and in trajectories`, () => {
      assert.ok(detectSecrets(text).length > 0, `${kind} not found in: ${text}`);
      assert.equal(containsSecret(text), true);
      const redacted = createRedactor([])(text);
      assert.match(redacted, /\[REDACTED\]/);
      assert.equal(detectSecrets(redacted).length, 0, `left over after redaction: ${redacted}`);
    });
  }

  it('leaves ordinary code and test fixtures alone in exports', () => {
    for (const code of [
      "headers: { Authorization: 'Bearer s3cret' } // sk-short",
      'const cached = this.cache.get(url);',
      'password = input("Password: ")',
      'https://example.com/path?user=me',
    ]) {
      assert.equal(containsSecret(code), false, code);
    }
  });

  it('redacts credentials in headers and assignments from trajectories', () => {
    const redact = createRedactor([]);
    const out = redact('Authorization: Bearer abc.def-123\n"x-api-key": "k-1234567890"');
    assert.ok(!out.includes('abc.def-123') && !out.includes('k-1234567890'), out);
  });

  it('reads UTF-16 files (with or without a byte-order mark) before scanning', () => {
    const text = FAKE_SECRETS['gitlab token'] as string;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    const bare = Buffer.from(text, 'utf16le');
    for (const bytes of [le, be, bare]) {
      assert.equal(scannableText(bytes), text);
      assert.equal(containsSecret(bytes), true);
    }
    assert.equal(containsSecret(Buffer.from(text, 'latin1')), true);
  });

  it('treats .git-credentials and terraform state as secret files', () => {
    for (const name of [
      '.git-credentials',
      'infra/terraform.tfstate',
      'terraform.tfstate.backup',
      'prod.tfstate',
    ])
      assert.equal(isSecretFileName(name), true, name);
    assert.equal(isSecretFileName('main.tf'), false);
  });

  it('redacts exported free text with [redacted]', () => {
    const line = `see ${FAKE_SECRETS['hugging face token'] as string} here`;
    assert.equal(redactSecrets(line), 'see HF=[redacted] here');
  });

  it('finds what secretlint’s own lintSource finds with the same rules', async () => {
    const { lintSource } = (await import('@secretlint/core')) as typeof SecretlintCore;
    const text = Object.values(FAKE_SECRETS).join('\n');
    const result = await lintSource({
      source: { content: text, filePath: 'all.txt', ext: '.txt', contentType: 'text' },
      options: {
        config: {
          rules: LOG_SECRET_RULES.map((rule) => ({
            id: rule.meta.id,
            rule,
            options: RULE_OPTIONS[rule.meta.id] ?? {},
          })),
        },
      },
    });
    const theirs = result.messages.map((m) => `${m.ruleId}@${m.range[0]}-${m.range[1]}`).sort();
    const ours = detectSecrets(text, LOG_SECRET_RULES)
      .map((f) => `${f.ruleId}@${f.range[0]}-${f.range[1]}`)
      .sort();
    assert.ok(theirs.length >= Object.keys(FAKE_SECRETS).length);
    assert.deepEqual(ours, theirs);
    assert.ok(SECRET_RULES.length > 25, 'the preset’s rules are loaded');
  });
});
