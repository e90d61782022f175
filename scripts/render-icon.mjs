// Renders resources/icon.svg to resources/icon.png (128×128, the Extensions page's icon) with Debian's chromium
// through playwright-core, the browser the UI tests already use. The PNG is committed; run this after editing the
// SVG: `node scripts/render-icon.mjs`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const svg = fs.readFileSync(path.join(root, 'resources/icon.svg'), 'utf8');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: path.join(root, 'resources/icon.png'), omitBackground: true });
} finally {
  await browser.close();
}
console.log('wrote resources/icon.png');
