import { createRouter, createWebHistory } from 'vue-router';

/** Pages (docs/spec.md#pages), each loaded on its first visit to keep the initial bundle small. */
export const router = createRouter({
  history: createWebHistory(),
  routes: [
    {
      path: '/',
      name: 'dashboard',
      component: () => import('./pages/DashboardPage.vue'),
      meta: { title: 'Dashboard' },
    },
    { path: '/ask', name: 'ask', component: () => import('./pages/AskPage.vue'), meta: { title: 'Ask' } },
    {
      path: '/documents',
      name: 'documents',
      component: () => import('./pages/DocumentsPage.vue'),
      meta: { title: 'Documents' },
    },
    {
      path: '/documents/:id',
      name: 'document',
      component: () => import('./pages/DocumentPage.vue'),
      meta: { title: 'Document' },
    },
    {
      path: '/topics',
      name: 'topics',
      component: () => import('./pages/TopicsPage.vue'),
      meta: { title: 'Topics' },
    },
    { path: '/:rest(.*)*', redirect: '/' },
  ],
  scrollBehavior: (_to, _from, saved) => saved ?? { top: 0 },
});

router.afterEach((to) => {
  document.title = `${String(to.meta.title ?? 'DropQA')} · DropQA`;
});
