import { nextTick, ref } from 'vue';
import { createRouter, createWebHistory } from 'vue-router';
import { i18n } from './i18n/index.ts';

/** Pages (docs/spec.md#pages), each loaded on its first visit to keep the initial bundle small. */
export const router = createRouter({
  history: createWebHistory(),
  routes: [
    {
      path: '/',
      name: 'dashboard',
      component: () => import('./pages/DashboardPage.vue'),
      meta: { title: 'nav.dashboard' },
    },
    { path: '/ask', name: 'ask', component: () => import('./pages/AskPage.vue'), meta: { title: 'nav.ask' } },
    {
      path: '/documents',
      name: 'documents',
      component: () => import('./pages/DocumentsPage.vue'),
      meta: { title: 'nav.documents' },
    },
    {
      path: '/documents/:id',
      name: 'document',
      component: () => import('./pages/DocumentPage.vue'),
      meta: { title: 'nav.document' },
    },
    {
      path: '/topics',
      name: 'topics',
      component: () => import('./pages/TopicsPage.vue'),
      meta: { title: 'nav.topics' },
    },
    { path: '/:rest(.*)*', redirect: '/' },
  ],
  scrollBehavior: (_to, _from, saved) => saved ?? { top: 0 },
});

/** What the polite live region of the layout says after a change of page ("Topics page"). */
export const pageAnnouncement = ref('');

function pageTitle(key: unknown): string {
  return typeof key === 'string' ? i18n.global.t(key) : 'DropQA';
}

router.afterEach(async (to, from) => {
  document.title = `${pageTitle(to.meta.title)} · DropQA`;
  // The first page of a visit, and a change of query on the same page, keep focus where it is; a
  // citation opening a document focuses the cited section itself.
  if (from.matched.length === 0 || to.name === from.name || to.query.section || to.query.at) return;
  pageAnnouncement.value = i18n.global.t('app.pageChanged', { title: pageTitle(to.meta.title) });
  await nextTick();
  await focusHeading();
});

/** Moves focus to the page's heading once the (lazily loaded) page has drawn it. */
async function focusHeading(): Promise<void> {
  for (let tries = 0; tries < 40; tries++) {
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
