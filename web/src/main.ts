import { createApp } from 'vue';
import App from './App.vue';
import { i18n } from './i18n/index.ts';
import { router } from './router.ts';
import './style.css';

createApp(App).use(i18n).use(router).mount('#app');
