// `npm test`: lint, typecheck, every Vitest project, then the browser suite; the closing line is the summary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules/.bin', name);
const reports = mkdtempSync(join(tmpdir(), 'daohuu-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedSteps = [];
// Named again just above the closing line, because CI keeps only the tail of a long log.
const failedTests = [];
// Runners colour their messages; the escape codes would only clutter the summary.
const colour = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const firstLine = (text) =>
  (
    String(text ?? '')
      .replace(colour, '')
      .split('\n')
      .find((line) => line.trim()) ?? ''
  ).trim();

function step(name, command, args, env = {}) {
  const started = Date.now();
  console.info(`\n── ${name} ──`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  const ok = result.status === 0;
  console.info(
    `── ${name}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (!ok) failedSteps.push(name);
  return ok;
}

function countVitest(file) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + report.numTodoTests;
    for (const entry of report.testResults ?? []) {
      const where = entry.name.replace(root, '');
      const failures = (entry.assertionResults ?? []).filter((test) => test.status === 'failed');
      for (const test of failures) {
        failedTests.push(`${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
      }
      if (failures.length === 0 && entry.status === 'failed') {
        failedTests.push(`${where}: ${firstLine(entry.message)}`);
      }
    }
    if (report.success === false && report.numFailedTests === 0) {
      failedTests.push('Vitest failed outside any test: see "Unhandled Errors" above');
    }
  } catch {
    totals.failed += 1;
  }
}

function countPlaywright(file) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const { stats } = report;
    totals.passed += stats.expected + stats.flaky;
    totals.failed += stats.unexpected;
    totals.skipped += stats.skipped;
    const walk = (suite, specFile) => {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          if (test.status !== 'unexpected') continue;
          const error = test.results?.at(-1)?.error?.message;
          failedTests.push(`${spec.file ?? specFile} › ${spec.title}: ${firstLine(error)}`);
        }
      }
      for (const child of suite.suites ?? []) walk(child, suite.file ?? specFile);
    };
    for (const suite of report.suites ?? []) walk(suite, suite.file);
  } catch {
    totals.failed += 1;
  }
}

step('lint', bin('eslint'), ['.', '--max-warnings=0']);
step('typecheck', process.execPath, [join(root, 'scripts/typecheck.mjs')]);

const vitestReport = join(reports, 'vitest.json');
step('unit and integration (vitest)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
]);
countVitest(vitestReport);

if (process.env.SKIP_E2E !== '1') {
  const playwrightReport = join(reports, 'playwright.json');
  step('browser (playwright)', bin('playwright'), ['test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport,
  });
  countPlaywright(playwrightReport);
}

rmSync(reports, { recursive: true, force: true });
if (failedSteps.length > 0) console.info(`\nFailed steps: ${failedSteps.join(', ')}`);
if (failedTests.length > 0) {
  console.info('Failed tests:');
  for (const line of failedTests.slice(0, 40)) console.info(`  ✗ ${line.slice(0, 400)}`);
}
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
// The plain closing line CI reads: nothing is printed after it.
console.info(
  `${totals.passed} passed, ${totals.failed + (failedSteps.length && !totals.failed ? 1 : 0)} failed${skipped}`,
);
process.exit(failedSteps.length > 0 ? 1 : 0);
