// Opens an sgemm-tune report in headless Chromium (Debian's `chromium`, driven through
// playwright-core) and checks what a reader would see: no console or page errors, no
// request leaving the file, every chart drawn (an <svg> with marks in it), a table that
// sorts when a header is clicked; with --hostile, that names holding markup show as text
// and run nothing. Saves a screenshot of the whole page.
//
//   node check_report.mjs REPORT.html SCREENSHOT.png [--hostile]
//
// Exit status: 0 pass, 1 fail, 77 skipped (no Chromium; the ctest test maps 77 to SKIP).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {chromium} from 'playwright-core';

const [reportPath, screenshotPath, mode] = process.argv.slice(2);
const hostile = mode === '--hostile';
const executable = process.env.CHROMIUM || '/usr/bin/chromium';
if (!fs.existsSync(executable)) {
  console.log(`SKIPPED: no Chromium at ${executable} (apt-get install chromium, or set CHROMIUM)`);
  process.exit(77);
}
export const HOSTILE = ['<script>window.__pwned=1</script>', '"><img src=x onerror="window.__pwned=1">'];

const failures = [];
const fail = (what) => failures.push(what);
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sgemm-tune-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: executable,
  headless: true,
  viewport: {width: 1360, height: 900},
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = context.pages()[0] || await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') fail(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => fail(`page error: ${e.message}`));
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    fail(`the page tried to reach ${url}`);
    return route.abort();
  });
  await page.goto('file://' + path.resolve(reportPath));
  await page.evaluate(() => window.reportReady.then(() => true));

  const charts = await page.$$eval('.chart', (els) => els.map((e) => {
    const svg = e.querySelector('svg');
    const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
    return {id: e.id, rendered: e.dataset.rendered || '', marks: svg ? svg.querySelectorAll('path, rect, text, line').length : 0,
            width: box.width, height: box.height};
  }));
  if (charts.length < 7) fail(`expected 7 charts, found ${charts.length}`);
  for (const c of charts) {
    if (c.rendered !== 'chart') fail(`chart ${c.id} not drawn (data-rendered="${c.rendered}")`);
    else if (c.marks < 10 || c.width < 50 || c.height < 30)
      fail(`chart ${c.id} is empty: ${c.marks} marks, ${c.width}x${c.height} px`);
  }

  // The table sorts by a clicked column, one way and then the other.
  const column = async (name) => page.$$eval('#top-table tbody tr', (rows, i) => rows.map((r) => Number(r.children[i].textContent)),
    await page.$$eval('#top-table th', (ths, n) => ths.findIndex((t) => t.textContent === n), name));
  const rows = (await column('rank')).length;
  if (rows < 10) fail(`the table has ${rows} rows`);
  await page.click('#top-table th:text-is("TFLOP/s")');
  const up = await column('TFLOP/s');
  await page.click('#top-table th:text-is("TFLOP/s")');
  const down = await column('TFLOP/s');
  const sorted = (xs, sign) => xs.every((x, i) => i === 0 || sign * (x - xs[i - 1]) >= 0);
  if (!sorted(up, 1) || up[0] === up[up.length - 1]) fail('clicking TFLOP/s did not sort the table ascending');
  if (!sorted(down, -1)) fail('clicking TFLOP/s again did not sort the table descending');

  // Every run's funnel draws when picked.
  const runs = await page.$$eval('#pick-run option', (os) => os.map((o) => o.value));
  for (const run of runs) {
    await page.selectOption('#pick-run', run);
    const drawn = await page.waitForSelector('#chart-funnel[data-rendered="chart"] svg', {timeout: 10000}).catch(() => null);
    if (!drawn) fail(`the funnel of run ${run} was not drawn`);
  }

  if (hostile) {
    if (await page.evaluate(() => window.__pwned !== undefined)) fail('text from the database ran as script');
    if (await page.evaluate(() => document.querySelectorAll('img').length) > 0) fail('text from the database made an <img>');
    const shown = (await page.evaluate(() => document.body.innerText)) +
      (await page.$$eval('svg text', (ts) => ts.map((t) => t.textContent).join('\n')));
    for (const text of HOSTILE) if (!shown.includes(text)) fail(`the page does not show ${text} as text`);
    // A tooltip carries the GPU name too: hover the best bar.
    const bar = await page.$('#chart-best svg .mark-rect path, #chart-best svg .mark-rect rect');
    if (!bar) fail('no bar to hover in the best chart');
    else {
      await bar.hover();
      const tip = await page.waitForSelector('#vg-tooltip-element.visible', {timeout: 5000}).catch(() => null);
      if (!tip) fail('no tooltip on the best bar');
      else {
        const inside = await tip.evaluate((t) => ({text: t.textContent, elements: t.querySelectorAll('img, script').length}));
        if (inside.elements) fail('the tooltip holds an <img> or <script> from the database');
        if (!inside.text.includes(HOSTILE[0])) fail('the tooltip does not show the GPU name as text');
      }
      await page.mouse.move(0, 0);
    }
    if (await page.evaluate(() => window.__pwned !== undefined)) fail('text from the database ran as script');
  }
  await page.screenshot({path: screenshotPath, fullPage: true});
  console.log(`${charts.length} charts: ` + charts.map((c) => `${c.id} ${c.marks} marks`).join(', '));
  console.log(`table: ${rows} rows, sorts both ways; funnels of ${runs.length} runs drawn; screenshot: ${screenshotPath}`);
} finally {
  await context.close();
  fs.rmSync(profile, {recursive: true, force: true});
}
if (failures.length) {
  for (const f of failures) console.log('FAIL: ' + f);
  process.exit(1);
}
console.log(hostile ? 'PASS (hostile names shown as text, nothing ran)' : 'PASS');
