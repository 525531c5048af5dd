import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build, injected into the page under test. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules and axe's best practices) on the page as it is now and
 * returns the serious and critical violations, each with the elements it found.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeFinding[]> {
  const findings = await axeViolations(page);
  return findings.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical');
}

/** Every violation axe-core finds on the page as it is now, whatever its impact. */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  // page.evaluate has no timeout of its own: a run that never answers fails here with its words.
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('axe did not answer within 60 s')), 60_000);
  });
  try {
    return await Promise.race([runAxe(page), bound]);
  } finally {
    clearTimeout(timer);
  }
}

async function runAxe(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe !== 'undefined');
  // Evaluated over the DevTools protocol: the site's Content-Security-Policy (script-src 'self')
  // rightly refuses an inline script tag.
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{
            violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
      resultTypes: ['violations'],
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => JSON.stringify(node.target)),
    }));
  });
  return violations;
}

/** The findings as lines a failing test prints. */
export const describeFindings = (where: string, findings: AxeFinding[]) =>
  findings.map((f) => `${where}: [${f.impact}] ${f.id} — ${f.help} — ${f.targets.join(' ')}`).join('\n');
