// The zod schema of `.weave/specs.json` v1 (README "The spec file"). The JSON Schema shipped with the extension is generated
// from this same schema (jsonSchema.ts), so the editor and the engine can never disagree about the format.
import { z } from 'zod';

export const SPEC_KINDS = [
  'functional',
  'interface',
  'security',
  'performance',
  'reliability',
  'compatibility',
] as const;
export const SPEC_ID_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
/** A day: longer than any sane spec test, short enough to catch a typo such as 36000000. */
export const MAX_TIMEOUT_SECONDS = 86_400;

const envSchema = z
  .record(z.string(), z.string())
  .describe('Extra environment variables for the test command.');
const timeoutSchema = z
  .number()
  .positive('timeoutSeconds must be greater than 0')
  .max(MAX_TIMEOUT_SECONDS, `timeoutSeconds must be at most ${MAX_TIMEOUT_SECONDS} (a day)`)
  .describe('Seconds before the test command (and every process it started) is killed.');
const cwdSchema = z.string().min(1).describe('Working directory, relative to the workspace folder.');

export const specIdSchema = z
  .string()
  .regex(SPEC_ID_PATTERN, 'id must match ^[a-z0-9][a-z0-9-]*$ (lower-case letters, digits and dashes)')
  .max(80)
  .describe('Unique id: lower-case letters, digits and dashes.');

export const specTestSchema = z.strictObject({
  command: z
    .string()
    // One wording for every empty field ("specs[0].test.command: must not be empty"): the path names the field.
    .refine((s) => s.trim().length > 0, 'must not be empty')
    .describe('Shell command that runs this spec’s test; exit code 0 and at least one test ran means pass.'),
  files: z
    .array(z.string().min(1))
    .default([])
    .describe('The spec’s own test files: agents may never edit them; affected-spec selection starts here.'),
  cwd: cwdSchema.optional(),
  env: envSchema.optional(),
  timeoutSeconds: timeoutSchema.optional(),
});

export const specSchema = z.strictObject({
  id: specIdSchema,
  title: z.string().min(1, 'must not be empty').describe('One line a person reads in lists.'),
  kind: z.enum(SPEC_KINDS).describe('What sort of constraint this is.'),
  statement: z.string().min(1, 'must not be empty').describe('The requirement (EARS welcome).'),
  test: specTestSchema,
  anchors: z
    .array(z.string().min(1))
    .default([])
    .describe('Code this spec is about: a file, or file#Symbol (Class.method), resolved with tree-sitter.'),
  dependsOn: z
    .array(specIdSchema)
    .default([])
    .describe('Specs that must hold for this one to be meaningful; a failing dependency blocks it.'),
  interactsWith: z
    .array(specIdSchema)
    .default([])
    .describe('Specs the author suspects can conflict with this one.'),
});

export const specDefaultsSchema = z.strictObject({
  cwd: cwdSchema.default('.'),
  env: envSchema.default({}),
  timeoutSeconds: timeoutSchema.default(120),
  writeCapMiB: z
    .number()
    .int('must be a whole number')
    .positive('must be positive')
    .optional()
    .describe(
      'Most one contained spec run may add to its checkout, in MiB (default 1024); a run that adds more is tampered.',
    ),
});

export const specSetupSchema = z
  .strictObject({
    allowInstallScripts: z
      .boolean()
      .default(false)
      .describe(
        'Let an exported task’s set-up run dependencies’ install scripts (npm/pnpm/yarn installs run with --ignore-scripts by default), as weave export --allow-install-scripts does.',
      ),
  })
  .describe('How an exported task’s environment is set up (weave export, eval.sh, the Harbor Dockerfile).');

export const specFileSchema = z.strictObject({
  $schema: z.string().optional(),
  version: z.literal(1, 'version must be 1'),
  goal: z.string().default('').describe('The primary task, in markdown.'),
  defaults: specDefaultsSchema.default({ cwd: '.', env: {}, timeoutSeconds: 120 }),
  setup: specSetupSchema.optional(),
  specs: z.array(specSchema),
});

export type SpecKind = (typeof SPEC_KINDS)[number];
export type SpecFile = z.output<typeof specFileSchema>;
export type SpecFileInput = z.input<typeof specFileSchema>;
export type Spec = z.output<typeof specSchema>;
export type SpecTest = z.output<typeof specTestSchema>;
export type SpecDefaults = z.output<typeof specDefaultsSchema>;
export type SpecSetup = z.output<typeof specSetupSchema>;
