import type { App } from '@slack/bolt';
import { publishAppHome, type AppHomeDeps } from '../post/publish-app-home.js';

/**
 * The App Home tab: on `app_home_opened` (tab `home`) the user is remembered as a recent
 * viewer (store/home-viewers-store.ts: the scan workers re-publish their Home when a cluster's alerts
 * change) and their Home is published (slack/post/publish-app-home.ts). Events need no ack of ours: Bolt
 * acks them. A failure is logged; the next open tries again.
 */
export function registerAppHomeListener(app: App, deps: { appHome: AppHomeDeps }): void {
  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    const log = deps.appHome.log.child({ user: event.user, event: 'app_home_opened' });
    try {
      await deps.appHome.viewers.opened(event.user, deps.appHome.now());
      await publishAppHome(deps.appHome, client, event.user);
      log.info('app home published');
    } catch (err) {
      log.warn({ err }, 'app home not published');
    }
  });
}
