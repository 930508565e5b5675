import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it), driven headless by playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A headless Chromium with a fresh profile (its own user data dir). */
export async function launchChromium(): Promise<BrowserContext> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'chromium-profile-'));
  return chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, viewport: { width: 1400, height: 900 } });
}
