import { h } from './dom.ts';
import { runsPage } from './pages/runs.ts';

/** A page renders into `root` and may return a cleanup (listeners, scrollers) run when the route changes. */
export type Page = (root: HTMLElement, args: string[]) => Promise<(() => void) | void>;

// The runs page is in the entry (inlined in the HTML); the others, with their libraries (Observable Plot, dagre,
// virtual-core), are chunks loaded when first visited.
const ROUTES: Record<string, () => Promise<Page>> = {
  runs: async () => runsPage,
  run: async () => (await import('./pages/run.ts')).runPage,
  episode: async () => (await import('./pages/episode.ts')).episodePage,
  compare: async () => (await import('./pages/compare.ts')).comparePage,
};
const app = document.getElementById('app')!;
let cleanup: (() => void) | void;
let rendering = 0;

/** Routes: #/runs, #/run/<dir>, #/episode/<file>, #/compare/<dir a>/<dir b> (each part URI-encoded). */
async function render(): Promise<void> {
  const ticket = ++rendering;
  const [name = 'runs', ...args] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  // the runs the server put in the page are for a first paint of the runs page only
  if (ROUTES[name] && name !== 'runs') document.getElementById('boot-runs')?.remove();
  cleanup?.();
  cleanup = undefined;
  const root = h('div', { class: `page page-${name}` });
  try {
    const page = await (ROUTES[name] ?? ROUTES.runs!)();
    const done = await page(root, args);
    if (ticket !== rendering) {
      done?.();
      return;
    }
    cleanup = done;
  } catch (error) {
    root.replaceChildren(h('div', { class: 'error-box' }, `Could not load this page: ${(error as Error).message}`));
  }
  if (ticket === rendering) app.replaceChildren(root);
}

window.addEventListener('hashchange', () => void render());
void render();

// Live updates: the server re-indexes the run folders and says when something changed; the list pages refresh.
const live = document.getElementById('live');
const source = new EventSource('/api/live');
source.addEventListener('hello', () => live?.classList.add('on'));
source.addEventListener('error', () => live?.classList.remove('on'));
source.addEventListener('change', () => {
  // a page showing what is not indexed yet (#indexing) is drawn again too: it switches to the store's view when read
  if (/^#\/(runs|run\/)|^$|^#\/?$/.test(location.hash) || document.getElementById('indexing')) void render();
});
