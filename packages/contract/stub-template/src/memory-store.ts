// The store in memory: enough to start implementing handlers and run the suite. Nothing survives
// a restart.
import type { Asset, Item, Session, Store, User } from './store.ts';

export class MemoryStore implements Store {
  private users = new Map<string, User>();
  private items = new Map<number, Item>();
  private highestItemId = 0;
  private assetList: Asset[] = [];
  private sessions = new Map<string, Session>();

  clear(): void {
    this.users.clear();
    this.items.clear();
    this.highestItemId = 0;
    this.assetList = [];
    this.sessions.clear();
  }

  addUser(user: User): User {
    this.users.set(user.platformId, user);
    return user;
  }

  userByPlatformId(platformId: string): User | undefined {
    return this.users.get(platformId);
  }

  userByApiKey(apiKey: string): User | undefined {
    for (const user of this.users.values()) if (user.apiKey === apiKey) return user;
    return undefined;
  }

  addItem(item: Item): Item {
    this.items.set(item.id, item);
    this.highestItemId = Math.max(this.highestItemId, item.id);
    return item;
  }

  item(id: number): Item | undefined {
    return this.items.get(id);
  }

  nextItemId(): number {
    return this.highestItemId + 1;
  }

  addAsset(asset: Omit<Asset, 'id'>): Asset {
    const stored = { ...asset, id: this.assetList.length + 1 };
    this.assetList.push(stored);
    return stored;
  }

  assets(filter: (asset: Asset) => boolean = () => true): Asset[] {
    return this.assetList.filter(filter);
  }

  addSession(session: Session): void {
    this.sessions.set(session.token, session);
  }

  session(token: string): Session | undefined {
    return this.sessions.get(token);
  }
}
