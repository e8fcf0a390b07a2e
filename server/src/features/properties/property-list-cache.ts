import type { EntityManager } from '@mikro-orm/postgresql';
import type { DatabaseNotifications } from '../../db/notifications';

const channel = 'property_list_changed';

/**
 * The public property list is read on every visit to the home page, list and map, and changes
 * only when staff edit a property: it is kept as ready JSON and dropped when any instance
 * announces a change (see `announcePropertyChange`), or when notifications may have been missed.
 */
export class PropertyListCache {
  private json: Promise<string> | null = null;

  constructor(
    private readonly notifications: DatabaseNotifications,
    private readonly load: () => Promise<unknown>,
  ) {}

  async start(): Promise<void> {
    await this.notifications.on(channel, () => {
      this.json = null;
    });
  }

  get(): Promise<string> {
    if (!this.notifications.connected) return this.load().then((list) => JSON.stringify(list));
    this.json ??= this.load().then(
      (list) => JSON.stringify(list),
      (error: unknown) => {
        this.json = null;
        throw error;
      },
    );
    return this.json;
  }
}

/** Every write to properties calls this inside its transaction. */
export async function announcePropertyChange(em: EntityManager): Promise<void> {
  await em.getConnection().execute(`NOTIFY ${channel}`);
}
