import type { BrowserContext, Page } from 'playwright-core';
import { openStore, type ResultsStore } from '../../src/results/store.ts';
import { startViewer, type Viewer } from '../../src/viewer/server.ts';
import { launchChromium } from './chromium.ts';

/** A viewer over run folders with a store of its own, and a Chromium page that collects what the browser complains of. */
export interface ViewerPage {
  store: ResultsStore;
  viewer: Viewer;
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors, as they happen: a test expects none. */
  problems: string[];
  close(): Promise<void>;
}

/** Opens the store at `storePath`, serves `dirs` (polled every 300 ms) and opens a page in a fresh headless Chromium. */
export async function openViewerPage(storePath: string, dirs: string[]): Promise<ViewerPage> {
  const store = await openStore(storePath);
  const viewer = await startViewer({ store, dirs, pollMs: 300 });
  const context = await launchChromium();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return {
    store,
    viewer,
    context,
    page,
    problems,
    async close() {
      await context.close();
      await viewer.close();
      store.close();
    },
  };
}
