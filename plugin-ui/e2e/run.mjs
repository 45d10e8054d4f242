// End-to-end test of the plugin in headless Debian Chromium (playwright-core, no browser download)
// against a running OpenSDRS server with data.
//
//   SDRS_URL=http://127.0.0.1:8080 SDRS_USER=admin SDRS_PASSWORD=... npm run test:e2e
//
// Optional: SDRS_UI_URL (where the server serves the plugin, e.g. $SDRS_URL/ui/; default: this
// script serves dist/ itself and forwards the API to SDRS_URL), CHROMIUM (default
// /usr/bin/chromium), GOVC and GOVC_URL (the apply → relocation check), SDRS_E2E_REQUIRE_APPLY=1
// (fail instead of skipping when that check cannot run).
//
// Checks: login; every page renders the server's real cluster/datastore names; the theme switch
// flips `cds-theme` and the background colour; axe-core finds no control without an accessible
// name; no console error or uncaught exception; screenshots in target/screenshots/.
import { chromium } from 'playwright-core';
import { createRequire } from 'node:module';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const SHOTS = path.join(root, 'target', 'screenshots');
const NAME_RULES = ['button-name', 'link-name', 'label', 'aria-input-field-name', 'select-name', 'input-button-name',
  'aria-command-name', 'aria-toggle-field-name', 'image-alt', 'svg-img-alt', 'role-img-alt', 'frame-title', 'document-title'];

const env = process.env;
const SDRS_URL = (env.SDRS_URL ?? '').replace(/\/$/, '');
const USER = env.SDRS_USER ?? 'admin';
const PASSWORD = env.SDRS_PASSWORD ?? '';
const CHROMIUM = env.CHROMIUM ?? '/usr/bin/chromium';
if (!SDRS_URL || !PASSWORD) {
  console.error('e2e: set SDRS_URL and SDRS_PASSWORD (and SDRS_USER, default admin)');
  process.exit(2);
}

const results = [];
let failures = 0;
function pass(name, detail = '') { results.push(['PASS', name, detail]); console.log(`PASS ${name}${detail ? ` — ${detail}` : ''}`); }
function fail(name, detail = '') { failures++; results.push(['FAIL', name, detail]); console.log(`FAIL ${name}${detail ? ` — ${detail}` : ''}`); }
function skip(name, detail = '') { results.push(['SKIP', name, detail]); console.log(`SKIP ${name}${detail ? ` — ${detail}` : ''}`); }
async function check(name, fn) {
  try {
    const d = await fn();
    pass(name, typeof d === 'string' ? d : '');
  } catch (e) {
    fail(name, e instanceof Error ? e.message : String(e));
  }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }

// ---------------------------------------------------------------- ground truth from the API
const auth = 'Basic ' + Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
async function api(p, init = {}) {
  const r = await fetch(SDRS_URL + p, { ...init, headers: { authorization: auth, accept: 'application/json', ...(init.headers ?? {}) } });
  if (!r.ok) throw new Error(`${init.method ?? 'GET'} ${p}: HTTP ${r.status}`);
  return r.json();
}
const clusters = await api('/api/v1/clusters');
if (clusters.length === 0) {
  console.error('e2e: the server has no datastore cluster — run it against a server with data');
  process.exit(1);
}
const cluster = [...clusters].sort((a, b) => b.datastores - a.datastores)[0];
const datastores = await api(`/api/v1/datastores?cluster=${encodeURIComponent(cluster.id)}`);
const recs = await api(`/api/v1/clusters/${encodeURIComponent(cluster.id)}/recommendations`);
let apiPaths = {};
try { apiPaths = (await api('/v3/api-docs')).paths ?? {}; } catch { /* no OpenAPI document */ }
console.log(`server ${SDRS_URL}: ${clusters.length} clusters; testing ${cluster.name} (${cluster.id}) with ${datastores.length} datastores, ${recs.length} recommendations`);

// ---------------------------------------------------------------- browser
fs.mkdirSync(SHOTS, { recursive: true });
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'sdrs-e2e-chromium-'));
let local = null;
let uiUrl = env.SDRS_UI_URL;
if (!uiUrl) {
  const dist = path.join(root, 'dist');
  assert(fs.existsSync(path.join(dist, 'index.html')), 'dist/index.html missing: run npm run build first');
  local = await serve(dist, SDRS_URL);
  uiUrl = local.url;
}
console.log(`plugin at ${uiUrl}, chromium ${CHROMIUM}`);
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  viewport: { width: 1400, height: 900 },
});
const page = context.pages()[0] ?? await context.newPage();
const consoleErrors = [];
const httpErrors = [];
page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location()?.url ?? ''})`); });
page.on('pageerror', (e) => consoleErrors.push(`uncaught: ${e.message}`));
page.on('response', (r) => { if (r.status() >= 400) httpErrors.push(`${r.status()} ${r.request().method()} ${r.url()}`); });

const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const axeReport = [];
async function axe(label) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.addScriptTag({ content: axeSource });
  const r = await page.evaluate(async () => {
    const res = await window.axe.run(document, { resultTypes: ['violations'] });
    return res.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  });
  const named = r.filter((v) => NAME_RULES.includes(v.id));
  axeReport.push({ page: label, violations: r });
  assert(named.length === 0, `accessible-name violations on ${label}: ${named.map((v) => `${v.id} at ${v.nodes.join(', ')}`).join('; ')}`);
  return r.length ? `other axe findings (not failing): ${r.map((v) => `${v.id}×${v.nodes.length}`).join(', ')}` : 'no axe violations';
}

async function shot(name) {
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

async function visit(hash, testId) {
  await page.goto(`${uiUrl}${hash}`);
  await page.waitForSelector(`[data-testid="${testId}"]`, { timeout: 20000 });
  await page.waitForFunction(() => document.querySelector('#main')?.getAttribute('data-loaded') !== null, null, { timeout: 20000 });
  await page.waitForTimeout(150);
}

const main = () => page.locator('#main').innerText();
const q = (s) => encodeURIComponent(s);

try {
  // ------------------------------------------------------------ login
  await check('login (standalone, HTTP Basic)', async () => {
    await page.goto(uiUrl);
    await page.waitForSelector('[data-testid="login"]');
    await shot('login-light');
    await axe('login');
    await page.fill('#login-user', USER);
    await page.fill('#login-password', PASSWORD);
    await page.click('[data-testid="login-submit"]');
    await page.waitForSelector('[data-testid="page-overview"]', { timeout: 20000 });
  });

  // ------------------------------------------------------------ every page with real data
  const pages = [
    ['overview', `#/overview?cluster=${q(cluster.id)}`, 'page-overview', [cluster.name, ...datastores.map((d) => d.name)]],
    ...datastores.map((d) => [`datastore-${d.name}`, `#/datastore/${q(d.name)}?cluster=${q(cluster.id)}`, 'page-datastore', [d.name]]),
    ['recommendations', `#/recommendations?cluster=${q(cluster.id)}`, 'page-recommendations', [cluster.name]],
    ['history', `#/history?cluster=${q(cluster.id)}`, 'page-history', [cluster.name]],
    ['faults', `#/faults?cluster=${q(cluster.id)}`, 'page-faults', [cluster.name]],
    ['rules', `#/rules?cluster=${q(cluster.id)}`, 'page-rules', [cluster.name, ...(process.env.SDRS_E2E_RULE ? [process.env.SDRS_E2E_RULE] : [])]],
    ['planner', `#/planner?cluster=${q(cluster.id)}`, 'page-planner', [cluster.name, ...datastores.map((d) => d.name)]],
    ['settings', `#/settings?cluster=${q(cluster.id)}`, 'page-settings', [cluster.name]],
    ['sleds', `#/sleds?cluster=${q(cluster.id)}`, 'page-sleds', [cluster.name]],
    ['summary', `#/summary?cluster=${q(cluster.id)}`, 'page-summary', [cluster.name]],
  ];
  for (const [name, hash, testId, expect] of pages) {
    await check(`page ${name} renders server data`, async () => {
      await visit(hash, testId);
      // the planner lists the datastores with the server's plan, which comes after the page
      if (name === 'planner') await page.waitForSelector('[data-testid="plan-table"]', { timeout: 10000 });
      const text = await main();
      for (const e of expect) assert(text.includes(e), `"${e}" not on the page`);
      assert(!(await page.locator('#main [data-testid="error"]').count()), `error shown: ${await page.locator('#main [data-testid="error"]').first().innerText().catch(() => '')}`);
      if (name.startsWith('datastore-')) {
        await page.waitForSelector('[data-testid="lq-plot"] canvas', { timeout: 10000 });
        // the L-Q plot shows the cluster's I/O latency threshold, tells its series apart in the legend and reads out
        // the values under the cursor
        const threshold = (await api(`/api/v1/clusters/${q(cluster.id)}`)).settings.latencyThresholdMs;
        const legend = await page.$$eval('[data-testid="lq-plot"] .u-legend .u-series', (rows) => rows
          .filter((r) => r.querySelector('.u-marker'))
          .map((r) => {
            const st = getComputedStyle(r.querySelector('.u-marker'));
            return { label: r.querySelector('.u-label')?.textContent ?? '', marker: `${st.borderStyle} ${st.borderColor} ${st.backgroundColor}` };
          }));
        assert(legend.some((l) => l.label === `I/O latency threshold ${threshold} ms`), `legend: ${legend.map((l) => l.label).join(', ')}`);
        const markers = legend.map((l) => l.marker);
        assert(new Set(markers).size === markers.length, `legend markers alike: ${legend.map((l) => `${l.label}: ${l.marker}`).join('; ')}`);
        const over = await page.locator('[data-testid="lq-plot"] .u-over').boundingBox();
        await page.mouse.move(over.x + over.width / 2, over.y + over.height / 2);
        const values = await page.$$eval('[data-testid="lq-plot"] .u-legend .u-value', (vs) => vs.map((v) => v.textContent ?? ''));
        assert(values.includes(`${threshold.toFixed(2)} ms`), `hover reads out: ${values.join(', ') || 'nothing'}`);
      }
      if (name === 'overview') {
        const rows = await page.locator('[data-testid="datastores-table"] tbody tr').count();
        assert(rows === datastores.length, `${rows} rows for ${datastores.length} datastores`);
        // Storage DRS status: the server's pending count and its next run
        const status = (await api(`/api/v1/clusters/${q(cluster.id)}`)).status;
        const pendingShown = await page.locator('[data-testid="status-pending"]').innerText();
        assert(pendingShown.startsWith(`${status.pendingRecommendations} pending`), `status shows "${pendingShown}", the server ${status.pendingRecommendations} pending`);
        const next = await page.locator('[data-testid="status-next-run"]').innerText();
        assert(status.nextRunAt ? next.startsWith('next run ') : next === 'no run scheduled', `next run shown "${next}", the server ${status.nextRunAt}`);
      }
      if (name === 'recommendations') {
        const pending = recs.filter((r) => /^(pending|new|open)$/i.test(r.state));
        const buttons = await page.locator('[data-testid^="apply-"]:not([data-testid="apply-all"])').count();
        assert(buttons === pending.length, `${buttons} Apply buttons for ${pending.length} pending recommendations`);
      }
      const file = await shot(`${name}-light`);
      return `${expect.length} names found; ${path.relative(root, file)}`;
    });
    await check(`axe ${name}`, () => axe(name));
  }

  // ------------------------------------------------------------ capacity planner: the server's answer
  await check('planner shows the capacity plan the server computes (POST /clusters/{id}/capacity-plan)', async () => {
    await visit(`#/planner?cluster=${q(cluster.id)}`, 'page-planner');
    const stated = { oio: '3', size: '16', read: '60', random: '90', count: '7', disk: '5' };
    for (const [id, v] of Object.entries(stated)) await page.fill(`#plan-${id}`, v);
    await page.click('[data-testid="plan-compute"]');
    const plan = await api(`/api/v1/clusters/${q(cluster.id)}/capacity-plan`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workload: { oio: 3, ioSizeKB: 16, readPct: 60, randomPct: 90 }, count: 7, sizeGB: 5 }),
    });
    await page.waitForSelector(`[data-testid="plan-summary"][data-fits="${plan.fits}"]`, { timeout: 10000 });
    const summary = (await page.locator('[data-testid="plan-summary"]').innerText()).replace(/,/g, '');
    assert(summary.includes(`${plan.fits} of 7 workloads fit`), `summary "${summary}" for the server's ${plan.fits} of 7`);
    assert(plan.datastores.length === datastores.length, `${plan.datastores.length} datastores planned for ${datastores.length}`);
    // some figure of the server's depends on the stated workload and is not 0, so matching it means something
    assert(plan.datastores.some((d) => d.byLatency > 0 || d.bySpace > 0), `the server's plan is all zeros: ${JSON.stringify(plan)}`);
    const num = (n, digits) => (Math.abs(n) >= 1000 ? Math.round(n).toLocaleString('en-US') : String(Number(n.toFixed(digits))));
    for (const d of plan.datastores) {
      const row = page.locator('[data-testid="plan-table"] tbody tr', { has: page.locator(`[data-testid="plan-fits-${d.datastoreId}"]`) });
      const cells = (await row.locator('td').allInnerTexts()).map((t) => t.trim());
      const expected = [d.datastore, cells[1], num(d.qMax, 1), num(d.qAlpha, 1), num(d.currentOutstandingIos, 1), num(d.byLatency, 0),
        num(d.byThroughput, 0), d.bySpace == null ? 'no limit' : num(d.bySpace, 0), num(d.fits, 0)];
      assert(JSON.stringify(cells) === JSON.stringify(expected), `${d.datastore}: page shows ${JSON.stringify(cells)}, the server ${JSON.stringify(expected)}`);
    }
    await shot('planner-server-plan-light');
    return `${plan.fits} of 7 fit; per datastore (Q_max, by latency, by space, fits) as the server answered: `
      + plan.datastores.map((d) => `${d.datastore} ${num(d.qMax, 1)}, ${d.byLatency}, ${d.bySpace}, ${d.fits}`).join('; ');
  });

  // ------------------------------------------------------------ modals (standalone: in-page)
  for (const [name, hash, opener, testId] of [
    ['run-now', `#/overview?cluster=${q(cluster.id)}`, 'run-now', 'modal-run-now'],
    ['settings', `#/overview?cluster=${q(cluster.id)}`, 'open-settings', 'page-settings'],
    ['maintenance', `#/datastore/${q(datastores[0]?.name ?? '')}?cluster=${q(cluster.id)}`, 'maintenance', 'modal-maintenance'],
  ]) {
    await check(`modal ${name} opens and closes`, async () => {
      await visit(hash, hash.includes('datastore') ? 'page-datastore' : 'page-overview');
      await page.click(`[data-testid="${opener}"]`);
      await page.waitForSelector(`[data-testid="modal"] [data-testid="${testId}"]`, { timeout: 10000 });
      await shot(`modal-${name}-light`);
      await axe(`modal ${name}`);
      await page.click('[data-testid="modal-close"]');
      await page.waitForSelector('[data-testid="modal"]', { state: 'detached' });
    });
  }
  // run-now against the server: either it runs, or the UI says it is not available
  await check('run now: result or "not available" state', async () => {
    await visit(`#/overview?cluster=${q(cluster.id)}`, 'page-overview');
    await page.click('[data-testid="run-now"]');
    await page.click('[data-testid="modal"] [data-testid="modal-confirm"]');
    const el = await page.waitForSelector('[data-testid="modal"] [data-testid="modal-done"], [data-testid="modal"] [data-testid="not-available"], [data-testid="modal"] [data-testid="error"]', { timeout: 20000 });
    const t = await el.innerText();
    assert(!(await el.getAttribute('data-testid')).startsWith('error'), t);
    await shot('modal-run-now-result-light');
    await page.click('[data-testid="modal-close"]');
    return t.replace(/\s+/g, ' ').trim();
  });

  // ------------------------------------------------------------ theme switch
  await check('theme switch flips cds-theme and the background', async () => {
    await visit(`#/overview?cluster=${q(cluster.id)}`, 'page-overview');
    const before = await page.evaluate(() => ({ theme: document.body.getAttribute('cds-theme'), bg: getComputedStyle(document.body).backgroundColor }));
    await page.click('[data-testid="theme-toggle"]');
    const after = await page.evaluate(() => ({ theme: document.body.getAttribute('cds-theme'), bg: getComputedStyle(document.body).backgroundColor }));
    assert(before.theme !== after.theme && ['light', 'dark'].includes(after.theme), `cds-theme ${before.theme} → ${after.theme}`);
    assert(before.bg !== after.bg, `background unchanged ${before.bg}`);
    await page.reload();
    await page.waitForSelector('[data-testid="page-overview"]');
    const kept = await page.evaluate(() => document.body.getAttribute('cds-theme'));
    assert(kept === after.theme, `theme not kept after reload (${kept})`);
    return `${before.theme} (${before.bg}) → ${after.theme} (${after.bg}), kept after reload`;
  });
  const theme = await page.evaluate(() => document.body.getAttribute('cds-theme'));
  for (const [name, hash, testId] of pages.filter(([n]) => ['overview', 'recommendations', 'planner'].includes(n) || n === `datastore-${datastores[0]?.name}`)) {
    await check(`page ${name} in ${theme} theme`, async () => {
      await visit(hash, testId);
      if (name.startsWith('datastore-')) await page.waitForSelector('[data-testid="lq-plot"] canvas');
      const file = await shot(`${name}-${theme}`);
      await axe(`${name} (${theme})`);
      return path.relative(root, file);
    });
  }
  await page.click('[data-testid="theme-toggle"]'); // back, so the next run starts light

  // ------------------------------------------------------------ rules page → vCenter (govc)
  const hasRuleCreate = Object.keys(apiPaths).some((p) => /\/clusters\/\{[^}]+\}\/rules$/.test(p) && apiPaths[p].post);
  if (!hasRuleCreate || !env.GOVC_URL) {
    skip('rules: a VM anti-affinity rule made on the Rules page is held by vCenter (govc), then removed',
      [!hasRuleCreate && 'the server has no POST /api/v1/clusters/{id}/rules', !env.GOVC_URL && 'GOVC_URL is not set'].filter(Boolean).join('; '));
  } else {
    await check('rules: a VM anti-affinity rule made on the Rules page is held by vCenter (govc), then removed', async () => {
      const names = new Set(datastores.map((d) => d.name));
      const disks = await api('/api/v1/disks?limit=10000');
      const vms = [...new Set(disks.filter((d) => names.has(d.datastore)).map((d) => d.vmName))].sort().slice(0, 2);
      assert(vms.length === 2, `the cluster has ${vms.length} VMs; a rule needs two`);
      const rule = 'e2e-apart';
      await visit(`#/rules?cluster=${q(cluster.id)}`, 'page-rules');
      await page.fill('[data-testid="rule-name"]', rule);
      for (const vm of vms) await page.check(`[data-testid="rule-vm-${vm}"]`);
      await page.click('[data-testid="rule-create"]');
      await page.waitForSelector(`[data-testid="remove-rule-${rule}"]`, { timeout: 20000 });
      await shot('rules-created-light');
      const held = await govcPodRules(cluster.name);
      const created = held.find((r) => r.name === rule);
      assert(created && created.vms.length === 2, `govc shows the pod's rules as ${JSON.stringify(held)}`);
      await page.click(`[data-testid="remove-rule-${rule}"]`);
      await page.waitForSelector(`[data-testid="remove-rule-${rule}"]`, { state: 'detached', timeout: 20000 });
      const after = await govcPodRules(cluster.name);
      assert(!after.some((r) => r.name === rule), `still in vCenter after Remove: ${JSON.stringify(after)}`);
      return `${rule} over ${vms.join(', ')}: in vCenter as ${JSON.stringify(created)}, gone after Remove`;
    });
  }

  // ------------------------------------------------------------ VMDK rule on the rules page → vCenter (govc)
  const vmdkCheck = 'rules: a VM\'s VMDK anti-affinity rule removed and made on the Rules page is the VM\'s setting in vCenter (govc)';
  if (!hasRuleCreate || !env.GOVC_URL) {
    skip(vmdkCheck, [!hasRuleCreate && 'the server has no POST /api/v1/clusters/{id}/rules', !env.GOVC_URL && 'GOVC_URL is not set'].filter(Boolean).join('; '));
  } else {
    await check(vmdkCheck, async () => {
      const names = new Set(datastores.map((d) => d.name));
      const disks = (await api('/api/v1/disks?limit=10000')).filter((d) => names.has(d.datastore));
      const count = new Map();
      for (const d of disks) count.set(d.vmName, (count.get(d.vmName) ?? 0) + 1);
      const vmName = [...count.keys()].filter((v) => count.get(v) >= 2).sort()[0];
      assert(vmName, 'the cluster has no VM with two disks on its datastores');
      const vmDisks = disks.filter((d) => d.vmName === vmName);
      const vmId = vmDisks[0].vm;
      const steps = [];
      await visit(`#/rules?cluster=${q(cluster.id)}`, 'page-rules');
      const existing = (await govcVmConfig(cluster.name, vmId))?.intraVmAntiAffinity;
      if (existing) { // the world's own rule (with-vcsim.sh) goes first: a VM holds one
        await page.click(`[data-testid="remove-rule-${existing.name}"]`);
        await page.waitForSelector(`[data-testid="remove-rule-${existing.name}"]`, { state: 'detached', timeout: 20000 });
        const left = await govcVmConfig(cluster.name, vmId);
        assert(!left?.intraVmAntiAffinity, `still in vCenter after Remove: ${JSON.stringify(left)}`);
        steps.push(`${existing.name} removed`);
      }
      const rule = 'e2e-vmdk-apart';
      await visit(`#/rules?cluster=${q(cluster.id)}`, 'page-rules');
      await page.selectOption('[data-testid="vmdk-rule-vm"]', vmId);
      await page.fill('[data-testid="vmdk-rule-name"]', rule);
      for (const d of vmDisks.slice(0, 2)) await page.check(`[data-testid="vmdk-rule-disk-${d.diskKey}"]`);
      await page.click('[data-testid="vmdk-rule-create"]');
      await page.waitForSelector(`[data-testid="remove-rule-${rule}"]`, { timeout: 20000 });
      const held = (await govcVmConfig(cluster.name, vmId))?.intraVmAntiAffinity;
      const want = vmDisks.slice(0, 2).map((d) => d.diskKey).sort();
      const got = (held?.diskId ?? []).slice().sort();
      assert(held?.name === rule && JSON.stringify(got) === JSON.stringify(want), `vCenter holds ${JSON.stringify(held)}, want ${rule} over ${want}`);
      steps.push(`${rule} over ${vmName}'s disks ${want.join(', ')} held by vCenter`);
      return steps.join('; ');
    });
  }

  // ------------------------------------------------------------ a VM's own keep-together on the rules page → vCenter (govc)
  const keepCheck = 'rules: a VM\'s own "Keep VMDKs together" set on the Rules page is the VM\'s setting in vCenter (govc), then the cluster default again';
  if (!hasRuleCreate || !env.GOVC_URL) {
    skip(keepCheck, [!hasRuleCreate && 'the server has no POST /api/v1/clusters/{id}/rules', !env.GOVC_URL && 'GOVC_URL is not set'].filter(Boolean).join('; '));
  } else {
    await check(keepCheck, async () => {
      const names = new Set(datastores.map((d) => d.name));
      const disks = (await api('/api/v1/disks?limit=10000')).filter((d) => names.has(d.datastore));
      const rulesNow = await api(`/api/v1/clusters/${q(cluster.id)}/rules`);
      // a VM without a VMDK rule and without its own setting, so that clearing it leaves vCenter as it began
      const vm = disks.map((d) => ({ id: d.vm, name: d.vmName }))
        .find((v) => !rulesNow.some((r) => r.id === `vmdkAntiAffinity:${v.id}` || r.id === `intraVmAffinity:${v.id}`));
      assert(vm, 'every VM of the cluster has a VMDK rule or its own keep-together');
      await visit(`#/rules?cluster=${q(cluster.id)}`, 'page-rules');
      await page.selectOption('[data-testid="keep-vm"]', vm.id);
      await page.selectOption('[data-testid="keep-value"]', 'false');
      await page.click('[data-testid="keep-set"]');
      await page.waitForSelector(`[data-testid="default-keep-together-${vm.name}"]`, { timeout: 20000 });
      const set = await govcVmConfig(cluster.name, vm.id);
      assert(set?.intraVmAffinity === false, `vCenter holds ${JSON.stringify(set)} for ${vm.name}`);
      await page.click(`[data-testid="default-keep-together-${vm.name}"]`);
      await page.waitForSelector(`[data-testid="default-keep-together-${vm.name}"]`, { state: 'detached', timeout: 20000 });
      const cleared = await govcVmConfig(cluster.name, vm.id);
      assert(cleared?.intraVmAffinity == null, `still set in vCenter: ${JSON.stringify(cleared)}`);
      return `${vm.name}: vCenter held intraVmAffinity = false, then ${cleared ? JSON.stringify(cleared) : 'no entry'} after "Use cluster default"`;
    });
  }

  // ------------------------------------------------------------ SLEDS service classes on the service levels page → the server
  await check('service levels: a class saved on the page and a VM put in it are what the server holds and its SLEDS controller sees; removing the class takes the VM out', async () => {
    const names = new Set(datastores.map((d) => d.name));
    const vm = (await api('/api/v1/disks?limit=10000')).filter((d) => names.has(d.datastore)).map((d) => ({ id: d.vm, name: d.vmName }))[0];
    assert(vm, 'the cluster has no VM');
    const classId = `e2e-gold-${Date.now() % 100000}`;
    const heldClass = async () => ((await api(`/api/v1/clusters/${q(cluster.id)}/settings`)).serviceClasses ?? []).find((k) => k.id === classId);
    const heldFor = async () => (await api(`/api/v1/clusters/${q(cluster.id)}/vm-overrides`)).find((o) => o.vm === vm.id)?.serviceClass ?? null;
    const waitFor = async (what, fn) => {
      for (const deadline = Date.now() + 20000; Date.now() < deadline; await page.waitForTimeout(250)) {
        const failed = page.locator('[data-testid="sleds-status"] [data-testid="error"]');
        assert(!(await failed.count()), await failed.first().innerText().catch(() => 'error shown'));
        if (await fn()) return;
      }
      throw new Error(`timed out: ${what}`);
    };
    await visit(`#/sleds?cluster=${q(cluster.id)}`, 'page-sleds');
    // a bad field is refused on the page, naming it, and nothing reaches the server
    await page.fill('#sleds-class-id', classId);
    await page.fill('#sleds-class-delivery', '0');
    await page.click('[data-testid="sleds-class-save"]');
    const refused = await page.locator('[data-testid="sleds-error"]').innerText();
    assert(/^Delivery bound/.test(refused), `refused with "${refused}"`);
    assert(!(await heldClass()), 'a class with a 0-ms bound reached the server');
    await page.fill('#sleds-class-delivery', '12.5');
    await page.fill('#sleds-class-iops', '300');
    await page.fill('#sleds-class-mibps', '20');
    await page.click('[data-testid="sleds-class-save"]');
    await waitFor('the class on the server', async () => (await heldClass()) != null);
    const k = await heldClass();
    assert(k.deliveryBoundMs === 12.5 && k.demandBoundIops === 300 && k.demandBoundBytesPerSecond === 20 * 1024 * 1024 && k.allowedMissPct === 5,
      `held ${JSON.stringify(k)}`);
    await page.selectOption('[data-testid="sleds-member-vm"]', vm.id);
    await page.selectOption('[data-testid="sleds-member-class"]', classId);
    await page.click('[data-testid="sleds-member-set"]');
    await waitFor(`${vm.name} in ${classId}`, async () => (await heldFor()) === classId);
    const sleds = await api(`/api/v1/clusters/${q(cluster.id)}/sleds`);
    assert(sleds.classes.some((c) => c.id === classId && c.deliveryBoundMs === 12.5), `GET /sleds: ${JSON.stringify(sleds.classes)}`);
    const row = (await page.locator('[data-testid="sleds-members-table"] tbody tr').allInnerTexts()).find((r) => r.includes(classId));
    assert(row && row.includes(vm.name), `the page's VMs in a class: ${row}`);
    await shot('sleds-class-light');
    await axe('sleds with a class');
    await page.click(`[data-testid="sleds-remove-${classId}"]`);
    await waitFor(`${classId} removed`, async () => (await heldClass()) == null && (await heldFor()) == null);
    return `${classId} (12.5 ms, 300 IOPS, 20 MiB/s, 5 % of windows may miss) held by the server and its controller's view, ${vm.name} in it; removed, ${vm.name} in no class`;
  });

  // ------------------------------------------------------------ a VM's automation on the rules page → vCenter (govc)
  const automationCheck = 'rules: a VM\'s automation set on the Rules page is the VM\'s Storage DRS setting in vCenter (govc), then the cluster\'s again';
  if (!env.GOVC_URL) {
    skip(automationCheck, 'GOVC_URL is not set');
  } else {
    await check(automationCheck, async () => {
      const names = new Set(datastores.map((d) => d.name));
      const disks = (await api('/api/v1/disks?limit=10000')).filter((d) => names.has(d.datastore));
      const overridden = new Set((await api(`/api/v1/clusters/${q(cluster.id)}/vm-overrides`))
        .filter((o) => o.automationLevel !== 'default').map((o) => o.vm));
      // a VM that follows the cluster, so that returning it to the default leaves vCenter as it began
      const vm = disks.map((d) => ({ id: d.vm, name: d.vmName })).find((v) => !overridden.has(v.id));
      assert(vm, 'every VM of the cluster has an automation override');
      const steps = [];
      for (const [level, held] of [['excluded', (e) => e?.enabled === false], ['manual', (e) => e?.behavior === 'manual' && e?.enabled !== false],
        ['default', (e) => e?.behavior == null && e?.enabled == null]]) {
        await visit(`#/rules?cluster=${q(cluster.id)}`, 'page-rules');
        await page.selectOption('[data-testid="automation-vm"]', vm.id);
        await page.selectOption('[data-testid="automation-value"]', level);
        await page.click('[data-testid="automation-set"]');
        // the page re-renders once the server answers; what it then holds is read from the API and from vCenter
        let shown;
        for (const deadline = Date.now() + 30000; Date.now() < deadline; await page.waitForTimeout(250)) {
          const failed = page.locator('[data-testid="rules-status"] [data-testid="error"]');
          assert(!(await failed.count()), await failed.first().innerText().catch(() => 'error shown'));
          shown = (await api(`/api/v1/clusters/${q(cluster.id)}/vm-overrides`)).find((o) => o.vm === vm.id)?.automationLevel ?? 'default';
          if (shown === level) break;
        }
        assert(shown === level, `set ${level}, the server shows ${shown}`);
        const entry = await govcVmConfig(cluster.name, vm.id);
        assert(held(entry), `set ${level}, vCenter holds ${JSON.stringify(entry)} for ${vm.name}`);
        steps.push(`${level}: ${entry ? JSON.stringify({ enabled: entry.enabled, behavior: entry.behavior }) : 'no entry'}`);
      }
      return `${vm.name}: vCenter held ${steps.join(', ')}`;
    });
  }

  // ------------------------------------------------------------ settings page → vCenter (govc)
  const settingsCheck = 'settings: what the Settings page saves (keep VMDKs together, I/O latency threshold, ignore affinity rules for maintenance) is the pod\'s Storage DRS setting in vCenter (govc), and the maintenance dialog starts from it';
  if (!env.GOVC_URL) {
    skip(settingsCheck, 'GOVC_URL is not set');
  } else {
    await check(settingsCheck, async () => {
      const seen = [];
      await visit(`#/settings?cluster=${q(cluster.id)}`, 'page-settings');
      const latency0 = Number(await page.locator('#set-latencyThresholdMs').inputValue());
      const ignore0 = await page.locator('#set-ignoreAffinityForMaintenance').isChecked();
      const io0 = await page.locator('#set-ioLoadBalanceEnabled').isChecked();
      for (const [keep, latency, ignore] of [[false, latency0 === 30 ? 31 : 30, !ignore0], [true, latency0, ignore0]]) { // and back
        await visit(`#/settings?cluster=${q(cluster.id)}`, 'page-settings');
        const box = page.locator('#set-keepVmdksTogether');
        if ((await box.isChecked()) !== keep) await box.click();
        const ignoreBox = page.locator('#set-ignoreAffinityForMaintenance');
        if ((await ignoreBox.isChecked()) !== ignore) await ignoreBox.click();
        await page.fill('#set-latencyThresholdMs', String(latency));
        await page.click('[data-testid="settings-save"]');
        await page.waitForSelector('[data-testid="settings-saved"], [data-testid="settings-status"] [data-testid="error"]', { timeout: 30000 });
        assert(await page.locator('[data-testid="settings-saved"]').count(), await page.locator('[data-testid="settings-status"]').innerText());
        const held = await govcPodSettings(cluster.name);
        assert(held.keep === keep, `saved ${keep}, vCenter holds podConfig.defaultIntraVmAffinity = ${held.keep}`);
        assert(held.latency === latency, `saved ${latency} ms, vCenter holds ioLoadBalanceConfig.ioLatencyThreshold = ${held.latency}`);
        // a threshold saved must not turn I/O load balancing off in vCenter (its plain boolean reads false until set)
        assert(held.io === io0, `I/O load balancing ${io0} on the page, left as it was, and vCenter holds podConfig.ioLoadBalanceEnabled = ${held.io}`);
        assert(held.ignoreAffinity === (ignore ? '1' : '0'),
          `saved ignore affinity ${ignore}, vCenter holds podConfig.option IgnoreAffinityRulesForMaintenance = ${held.ignoreAffinity}`);
        // the maintenance dialog's "Ignore affinity rules for maintenance" starts as the cluster's
        const ds = datastores[0]?.name;
        await visit(`#/datastore/${q(ds)}?cluster=${q(cluster.id)}`, 'page-datastore');
        await page.click('[data-testid="maintenance"]');
        const dialogIgnores = await page.locator('[data-testid="modal"] #ignore-affinity').isChecked({ timeout: 20000 });
        await page.click('[data-testid="modal"] [data-testid="modal-cancel"]');
        assert(dialogIgnores === ignore, `cluster ignores affinity for maintenance: ${ignore}, the dialog's box: ${dialogIgnores}`);
        seen.push(`keep together ${held.keep}, ${held.latency} ms, I/O load balancing ${held.io}, IgnoreAffinityRulesForMaintenance=${held.ignoreAffinity} (dialog ${dialogIgnores})`);
      }
      return `vCenter held ${seen.join(' then ')} after each save`;
    });
  }

  // ------------------------------------------------------------ apply → relocation (govc)
  const pending = recs.filter((r) => /^(pending|new|open)$/i.test(r.state));
  const hasApply = Object.keys(apiPaths).some((p) => /\/recommendations\/\{[^}]+\}\/apply$/.test(p) && apiPaths[p].post);
  const reasons = [];
  if (!pending.length) reasons.push('the server has no pending recommendation');
  if (!hasApply) reasons.push('the server has no POST /api/v1/clusters/{id}/recommendations/{rid}/apply');
  if (!env.GOVC_URL) reasons.push('GOVC_URL is not set');
  if (reasons.length) {
    const msg = reasons.join('; ');
    if (env.SDRS_E2E_REQUIRE_APPLY === '1') fail('apply a recommendation → relocation in the simulator (govc)', msg);
    else skip('apply a recommendation → relocation in the simulator (govc)', msg);
  } else {
    await check('apply a recommendation → relocation in the simulator (govc)', async () => {
      const r = pending[0];
      const disks = await api('/api/v1/disks?limit=10000');
      const vmName = disks.find((d) => d.vm === r.vm)?.vmName ?? r.vm;
      const all = await api('/api/v1/datastores');
      const dest = all.find((d) => d.id === r.destination)?.name ?? r.destination;
      await visit(`#/recommendations?cluster=${q(cluster.id)}`, 'page-recommendations');
      await page.click(`[data-testid="apply-${r.id}"]`);
      // while it is applied no second Apply, Dismiss or Apply all can be clicked (they are held until the page refreshes)
      const held = await page.$$eval('[data-testid^="apply-"], [data-testid^="dismiss-"]',
        (bs) => bs.map((b) => `${b.getAttribute('data-testid')}=${b.disabled ? 'disabled' : 'enabled'}`));
      assert(held.length >= 3 && held.every((t) => t.endsWith('=disabled')), `buttons while applying: ${held.join(', ')}`);
      await page.waitForSelector('[data-testid="rec-done"]', { timeout: 30000 });
      await shot('recommendation-applied-light');
      const deadline = Date.now() + 180000;
      let last = '';
      while (Date.now() < deadline) {
        const files = await govcDiskFiles(vmName);
        last = JSON.stringify(files);
        const moved = r.diskKey == null ? files.length > 0 && files.every((f) => f.file.startsWith(`[${dest}]`))
          : files.some((f) => f.key === r.diskKey && f.file.startsWith(`[${dest}]`));
        if (moved) break;
        await new Promise((res) => setTimeout(res, 2000));
      }
      if (Date.now() >= deadline) throw new Error(`govc does not show ${vmName} on ${dest}: ${last}`);
      // the server records the recommendation APPLIED only once its stored inventory holds the move: what is planned next
      // (the maintenance check below) starts from where the disks are
      let state = '';
      while (Date.now() < deadline && (state = (await api(`/api/v1/recommendations/${r.id}`)).state) !== 'APPLIED') {
        await new Promise((res) => setTimeout(res, 1000));
      }
      assert(state === 'APPLIED', `recommendation ${r.id} is ${state} though govc shows the move`);
      const stored = (await api('/api/v1/disks?limit=10000')).filter((d) => d.vm === r.vm && (r.diskKey == null || d.diskKey === r.diskKey));
      assert(stored.length > 0 && stored.every((d) => d.datastore === dest),
        `APPLIED, but the server stores ${stored.map((d) => `disk ${d.diskKey} on ${d.datastore}`).join(', ')}`);
      // the History page says who applied it and that it is done, in names
      await visit(`#/history?cluster=${q(cluster.id)}`, 'page-history');
      const rows = (await page.locator('[data-testid="history-table"] tbody tr').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      const applied = rows.find((t) => new RegExp(`\\bapplied by user ${USER}: .*${vmName} from .* to ${dest}\\b`).test(t));
      const completed = rows.find((t) => new RegExp(`\\bdone: .*${vmName} from .* to ${dest}, in \\d+ s`).test(t));
      assert(applied && completed, `history page, applied by ${USER} and done: ${rows.slice(0, 6).join(' | ')}`);
      return `${vmName}${r.diskKey == null ? '' : ` disk ${r.diskKey}`} is on ${dest} per govc; recommendation ${r.id} APPLIED`
        + ` with the server's inventory holding it there; history: "${applied.slice(0, 90)}", "${completed.slice(0, 90)}"`;
    });
  }

  // ------------------------------------------------------------ Storage DRS off and on again (govc)
  // (after the apply check: turning Storage DRS off withdraws the pending recommendations it uses)
  const offCheck = 'settings: Storage DRS turned off on the Settings page is off in vCenter (govc), shown on the overview, its pending recommendations withdrawn, a run refused (409); then on again';
  if (!env.GOVC_URL) {
    skip(offCheck, 'GOVC_URL is not set');
  } else {
    await check(offCheck, async () => {
      const seen = [];
      const pendingOf = async () => (await api(`/api/v1/clusters/${q(cluster.id)}/recommendations`)).filter((r) => r.state === 'PENDING');
      const maintenance = (name, enter) => api(`/api/v1/datastores/${q(name)}/maintenance`, { method: 'POST',
        headers: { 'content-type': 'application/json' }, body: JSON.stringify({ enter }) });
      // a datastore entering maintenance mode while Storage DRS is on gets evacuation recommendations, for it to withdraw
      let evacuating = null;
      for (const d of datastores) {
        if ((await maintenance(d.name, true)).recommendationIds.length) { evacuating = d.name; break; }
        await maintenance(d.name, false);
      }
      assert(evacuating, 'no datastore of the cluster got an evacuation recommendation on entering maintenance mode');
      const pendingBefore = (await pendingOf()).length;
      // the engine made these: the recommendations page shows each one's explanation, as the server gives it
      await visit(`#/recommendations?cluster=${q(cluster.id)}`, 'page-recommendations');
      let explained = 0;
      for (const r of await pendingOf()) {
        const e = await api(`/api/v1/recommendations/${r.id}/explanation`);
        const why = await page.locator(`[data-testid="why-${r.id}"]`).innerText();
        assert(why === e.summary, `recommendation ${r.id}: the page says "${why}", the server's explanation "${e.summary}"`);
        const forecast = await page.locator(`[data-testid="forecast-${r.id}"]`).innerText();
        for (const d of e.datastores) assert(forecast.includes(d.datastoreName), `recommendation ${r.id}: forecast "${forecast}" lacks ${d.datastoreName}`);
        assert((await page.locator(`[data-testid="model-${r.id}"]`).innerText()) !== '—', `recommendation ${r.id}: no model shown`);
        explained++;
      }
      assert(explained > 0, 'no pending recommendation to explain');
      seen.push(`${explained} evacuation recommendations shown with the engine's explanation`);
      try {
        for (const on of [false, true]) {
          await visit(`#/settings?cluster=${q(cluster.id)}`, 'page-settings');
          const box = page.locator('#set-storageDrsEnabled');
          if ((await box.isChecked()) !== on) await box.click();
          await page.click('[data-testid="settings-save"]');
          await page.waitForSelector('[data-testid="settings-saved"], [data-testid="settings-status"] [data-testid="error"]', { timeout: 30000 });
          assert(await page.locator('[data-testid="settings-saved"]').count(), await page.locator('[data-testid="settings-status"]').innerText());
          const held = await govcPodSettings(cluster.name);
          assert(held.enabled === on, `saved ${on}, vCenter holds podConfig.enabled = ${held.enabled}`);
          await visit(`#/overview?cluster=${q(cluster.id)}`, 'page-overview');
          const warned = await page.locator('[data-testid="storage-drs-off"]').count();
          if (Boolean(warned) !== !on) {
            // which side is wrong: what the server answers now, and what the page was rendered from
            const now = await api(`/api/v1/clusters/${q(cluster.id)}/settings`);
            const header = (await page.locator('[data-testid="page-overview"]').innerText()).slice(0, 200).replace(/\s+/g, ' ');
            throw new Error(`overview warning shown: ${Boolean(warned)} with Storage DRS ${on ? 'on' : 'off'}; the server's settings now:`
              + ` storageDrsEnabled = ${now.storageDrsEnabled}, ioLoadBalanceEnabled = ${now.ioLoadBalanceEnabled}; vCenter: ${JSON.stringify(await govcPodSettings(cluster.name))}; page: ${header}`);
          }
          let refused = '';
          if (!on) {
            const run = await fetch(`${SDRS_URL}/api/v1/clusters/${q(cluster.id)}/run`, { method: 'POST', headers: { authorization: auth } });
            assert(run.status === 409, `run now answered ${run.status} with Storage DRS off`);
            const left = await pendingOf();
            assert(left.length === 0, `pending recommendations left with Storage DRS off: ${left.map((r) => r.id).join(', ')}`);
            await visit(`#/recommendations?cluster=${q(cluster.id)}`, 'page-recommendations');
            const applyButtons = await page.locator('[data-testid^="apply-"]:not([data-testid="apply-all"])').count();
            assert(applyButtons === 0, `${applyButtons} recommendations offered for applying with Storage DRS off`);
            // out of maintenance mode and into it again, from the plugin's dialog: vCenter holds it entering (govc),
            // nothing is recommended, and the dialog says why
            await maintenance(evacuating, false);
            await visit(`#/datastore/${q(evacuating)}?cluster=${q(cluster.id)}`, 'page-datastore');
            await page.click('[data-testid="maintenance"]');
            await page.click('[data-testid="modal"] [data-testid="modal-confirm"]');
            const said = await page.locator('[data-testid="modal"] [data-testid="modal-done"]').innerText({ timeout: 20000 });
            assert(/0 recommendations/.test(said) && /Storage DRS is turned off/.test(said), `maintenance dialog with Storage DRS off: ${said}`);
            await page.click('[data-testid="modal-close"]');
            const heldMode = JSON.parse(await govc(['datastore.info', '-json', evacuating])).datastores?.[0]?.summary?.maintenanceMode;
            assert(heldMode === 'enteringMaintenance', `vCenter holds ${evacuating} ${heldMode} after entering from the dialog`);
            // the datastore page lists what keeps it entering: with no evacuation planned, not planned yet
            await visit(`#/datastore/${q(evacuating)}?cluster=${q(cluster.id)}`, 'page-datastore');
            const leftOff = await page.locator('[data-testid="maintenance-left-table"] tbody tr').allInnerTexts();
            assert(leftOff.length > 0 && leftOff.every((r) => /not planned yet/.test(r)), `left on ${evacuating}, Storage DRS off: ${leftOff.join(' | ')}`);
            assert(await page.locator('[data-testid="maintenance-unplanned"]').count(), 'no "Storage DRS is turned off" note on the datastore page');
            refused = `, run now 409, ${pendingBefore} pending recommendations (${evacuating}'s evacuation) before, 0 after;`
              + ` maintenance dialog: "${said.slice(0, 60)}…", vCenter: ${heldMode}; datastore page: ${leftOff.length} left, not planned yet`;
          } else {
            // on again: the evacuation that waited is planned by the server's maintenance loop (every 20 s)
            const deadline = Date.now() + 90000;
            let planned = 0;
            while (Date.now() < deadline && (planned = (await pendingOf()).length) === 0) await new Promise((r) => setTimeout(r, 2000));
            if (planned === 0) {
              const status = await api(`/api/v1/datastores/${q(evacuating)}/maintenance`);
              throw new Error(`no evacuation recommendation for ${evacuating} 90 s after Storage DRS was turned on; its maintenance: ${JSON.stringify(status)}`);
            }
            await visit(`#/datastore/${q(evacuating)}?cluster=${q(cluster.id)}`, 'page-datastore');
            const leftOn = await page.locator('[data-testid="maintenance-left-table"] tbody tr').allInnerTexts();
            assert(leftOn.some((r) => /recommended, awaiting approval/.test(r)), `left on ${evacuating}, Storage DRS on: ${leftOn.join(' | ')}`);
            // each item's size (a running VM's home holds its swap file), and what is left in all
            const sized = /\b\d+(\.\d+)? (B|KiB|MiB|GiB|TiB)\b/;
            assert(leftOn.every((r) => sized.test(r)), `a row without its size on ${evacuating}: ${leftOn.join(' | ')}`);
            const leftTotal = await page.locator('[data-testid="maintenance-left-total"]').innerText();
            assert(new RegExp(`^${leftOn.length} items? to move, \\d+(\\.\\d+)? (B|KiB|MiB|GiB|TiB) in all\\.$`).test(leftTotal),
              `left in all on ${evacuating}: "${leftTotal}" for ${leftOn.length} rows`);
            // what an administrator reads names datastores, VMs and hosts as the vSphere Client does, never by moid
            const moid = /\b(datastore|vm|host|group)-\d+\b/;
            assert(!leftOn.some((r) => moid.test(r)), `a moid on ${evacuating}'s page: ${leftOn.join(' | ')}`);
            await visit(`#/faults?cluster=${q(cluster.id)}`, 'page-faults');
            const faultRows = await page.locator('[data-testid="faults-table"] tbody tr').allInnerTexts();
            assert(faultRows.length > 0 && !faultRows.some((r) => moid.test(r)), `faults page: ${faultRows.join(' | ')}`);
            await visit(`#/history?cluster=${q(cluster.id)}`, 'page-history');
            const historyRows = await page.locator('[data-testid="history-table"] tbody tr').allInnerTexts();
            assert(!historyRows.some((r) => moid.test(r)), `history page: ${historyRows.filter((r) => moid.test(r)).join(' | ')}`);
            // reasons in the vSphere Client's words, not vSphere's API codes
            const code = /\b(balanceDatastore\w+|datastoreMaint|datastoreSpaceOutage|virtualDisk\w*Affin|storagePlacement)\b/;
            assert(!historyRows.some((r) => code.test(r)) && !faultRows.some((r) => code.test(r)),
              `a raw reason code on the history or faults page: ${[...historyRows, ...faultRows].filter((r) => code.test(r)).join(' | ')}`);
            refused = `, ${planned} evacuation recommendations for ${evacuating} planned again; datastore page: `
              + leftTotal + ' ' + leftOn.map((r) => r.replace(/\s+/g, ' ').trim()).join(' | ')
              + `; faults page (no moid): ${faultRows[0].replace(/\s+/g, ' ').trim()}; history: ${historyRows.length} rows, no moid, no raw reason code`;
          }
          seen.push(`${on ? 'on' : 'off'}: podConfig.enabled = ${held.enabled}, warning ${warned ? 'shown' : 'not shown'}${refused}`);
        }
      } finally {
        await maintenance(evacuating, false);
      }
      return seen.join('; ');
    });
  }

  await check('no console errors', async () => {
    assert(consoleErrors.length === 0, consoleErrors.join('\n'));
    return httpErrors.length ? `HTTP errors seen (not console errors): ${httpErrors.join(', ')}` : 'no HTTP errors either';
  });
} finally {
  await context.close();
  await local?.close();
  fs.rmSync(profile, { recursive: true, force: true });
  fs.writeFileSync(path.join(root, 'target', 'e2e-axe.json'), JSON.stringify(axeReport, null, 2));
  fs.writeFileSync(path.join(root, 'target', 'e2e-results.json'), JSON.stringify(results, null, 2));
}

function govc(args) {
  return new Promise((resolve, reject) => execFile(env.GOVC ?? 'govc', args, { env: { GOVC_INSECURE: '1', ...env } }, (err, out, errOut) => {
    if (err) return reject(new Error(`govc ${args.join(' ')}: ${errOut || err.message}`));
    resolve(out);
  }));
}

/** The pod's podStorageDrsEntry.storageDrsConfig as vCenter holds it (govc object.collect). */
async function govcPodConfig(podName) {
  const ref = (await govc(['find', '-i', '/', '-type', 'StoragePod', '-name', podName])).trim();
  const j = JSON.parse(await govc(['object.collect', '-json', ref, 'podStorageDrsEntry.storageDrsConfig']));
  return j?.[0]?.val ?? j?.[0]?.Val ?? {};
}

/** podConfig.defaultIntraVmAffinity and ioLoadBalanceConfig.ioLatencyThreshold, each null when vCenter leaves it unset. */
async function govcPodSettings(podName) {
  const c = await govcPodConfig(podName);
  const pod = c.podConfig ?? c.PodConfig ?? {};
  const io = pod.ioLoadBalanceConfig ?? pod.IoLoadBalanceConfig ?? {};
  const option = (pod.option ?? pod.Option ?? []).find((o) => (o.key ?? o.Key) === 'IgnoreAffinityRulesForMaintenance');
  return { keep: pod.defaultIntraVmAffinity ?? pod.DefaultIntraVmAffinity ?? null, latency: io.ioLatencyThreshold ?? io.IoLatencyThreshold ?? null,
    enabled: pod.enabled ?? pod.Enabled ?? false, ignoreAffinity: option ? String(option.value ?? option.Value) : null,
    io: pod.ioLoadBalanceEnabled ?? pod.IoLoadBalanceEnabled ?? false };
}

/** The VM's entry in the pod's vmConfig as vCenter holds it (lower-case keys), or undefined. */
async function govcVmConfig(podName, vmId) {
  const c = await govcPodConfig(podName);
  const entry = (c.vmConfig ?? c.VmConfig ?? []).find((v) => (v.vm?.value ?? v.Vm?.Value) === vmId);
  if (!entry) return undefined;
  const rule = entry.intraVmAntiAffinity ?? entry.IntraVmAntiAffinity;
  return { intraVmAffinity: entry.intraVmAffinity ?? entry.IntraVmAffinity, enabled: entry.enabled ?? entry.Enabled,
    behavior: (entry.behavior ?? entry.Behavior) || undefined,
    intraVmAntiAffinity: rule && { name: rule.name ?? rule.Name, diskId: rule.diskId ?? rule.DiskId ?? [] } };
}

/** The pod's VM anti-affinity rules as vCenter holds them: [{name, vms: [moid]}]. */
async function govcPodRules(podName) {
  const c = await govcPodConfig(podName);
  const rules = (c.podConfig ?? c.PodConfig)?.rule ?? (c.podConfig ?? c.PodConfig)?.Rule ?? [];
  return rules.map((r) => ({ name: r.name ?? r.Name, vms: (r.vm ?? r.Vm ?? []).map((v) => v.value ?? v.Value) }));
}

function govcDiskFiles(vm) {
  const govc = env.GOVC ?? 'govc';
  return new Promise((resolve, reject) => execFile(govc, ['device.info', '-json', '-vm', vm], { env: { GOVC_INSECURE: '1', ...env } }, (err, out) => {
    if (err) return reject(err);
    const j = JSON.parse(out);
    const devices = j.devices ?? j.Devices ?? [];
    resolve(devices.map((d) => ({ key: d.key ?? d.Key, file: (d.backing ?? d.Backing)?.fileName ?? (d.backing ?? d.Backing)?.FileName }))
      .filter((d) => typeof d.file === 'string' && d.file.endsWith('.vmdk')));
  }));
}

const n = results.filter((r) => r[0] === 'PASS').length;
console.log(`\ne2e: ${n} passed, ${failures} failed, ${results.filter((r) => r[0] === 'SKIP').length} skipped; screenshots in ${path.relative(process.cwd(), SHOTS) || SHOTS}`);
process.exit(failures ? 1 : 0);
