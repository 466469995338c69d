import { createECDH } from 'node:crypto';
import {
  MAX_PUSH_DEVICES,
  type PushDevice,
  type PushPreferences,
  type PushSubscribed,
  type PushSubscriptionBody,
} from '@evdra/domain';
import webpush from 'web-push';
import { fieldError, notFound } from '../../lib/errors.js';
import { OutboundRefused } from '../../lib/outbound/errors.js';
import type { OutboundGuard } from '../../lib/outbound/guard.js';
import type { Principal } from '../auth/auth.service.js';
import type { PushRepo, SubscriptionRow } from './push.repo.js';
import type { PushSender, Vapid } from './push.sender.js';

const TEST_TEXTS = {
  en: { title: 'Evdra test notification', body: 'Notifications reach this device.' },
  ro: { title: 'Notificare de test Evdra', body: 'Notificările ajung pe acest dispozitiv.' },
  es: { title: 'Notificación de prueba de Evdra', body: 'Las notificaciones llegan a este dispositivo.' },
} as const;

const present = (s: SubscriptionRow): PushDevice => ({
  id: s.id,
  endpoint: s.endpoint,
  userAgent: s.userAgent,
  createdAt: s.createdAt.toISOString(),
});

/**
 * Web Push: the server's public key, the caller's devices and which kinds they get. A subscription
 * records the login (refresh-token family) it was made under; logging out of that login removes it
 * (trigger in migration 0015), so a shared computer stops getting the previous user's pushes.
 */
export class PushService {
  private keys?: Promise<Vapid>;

  constructor(
    private readonly repo: PushRepo,
    private readonly sender: PushSender,
    private readonly o: {
      vapidKeys?: { publicKey: string; privateKey: string };
      subject: string;
      /** Every endpoint is checked by it when given, and sent to through it. */
      outbound: OutboundGuard;
      language: (userId: number) => Promise<keyof typeof TEST_TEXTS>;
    },
  ) {}

  /** The VAPID keys: from the environment, else the database's pair (made by the first process). */
  vapid(): Promise<Vapid> {
    this.keys ??= (async () => {
      const pair = this.o.vapidKeys ?? (await this.repo.vapidKeys(() => webpush.generateVAPIDKeys()));
      return { publicKey: pair.publicKey, privateKey: pair.privateKey, subject: this.o.subject };
    })().catch((err) => {
      this.keys = undefined;
      throw err;
    });
    return this.keys;
  }

  async publicKey(): Promise<{ publicKey: string }> {
    return { publicKey: (await this.vapid()).publicKey };
  }

  /**
   * Registers a device. Its endpoint must be https on a public address (a name is resolved now;
   * one that does not resolve yet is left to the check when pushes are sent). Past
   * MAX_PUSH_DEVICES, the oldest device is dropped and named in `replaced`.
   */
  async subscribe(p: Principal, body: PushSubscriptionBody): Promise<PushSubscribed> {
    await this.checkEndpoint(body.endpoint);
    try {
      // A point on P-256, or the encryption will refuse it later.
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      ecdh.computeSecret(Buffer.from(body.keys.p256dh, 'base64url'));
    } catch {
      throw fieldError(
        'VALIDATION_FAILED',
        400,
        'keys.p256dh',
        'Must be a base64url P-256 public key (65 bytes).',
      );
    }
    const { row, dropped } = await this.repo.upsert(
      {
        userId: p.userId,
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
        userAgent: body.userAgent ?? '',
        familyId: p.familyId || null,
      },
      MAX_PUSH_DEVICES,
    );
    const oldest = dropped[0];
    return oldest ? { ...present(row), replaced: present(oldest) } : present(row);
  }

  async unsubscribe(p: Principal, endpoint: string): Promise<void> {
    if (!(await this.repo.remove(p.userId, endpoint))) throw notFound('Subscription');
  }

  async devices(p: Principal): Promise<PushDevice[]> {
    return (await this.repo.list(p.userId)).map(present);
  }

  async preferences(p: Principal): Promise<PushPreferences> {
    const prefs = await this.repo.preferences(p.userId);
    if (!prefs) throw notFound('User');
    return prefs;
  }

  async setPreferences(p: Principal, prefs: PushPreferences): Promise<PushPreferences> {
    await this.repo.setPreferences(p.userId, prefs);
    return prefs;
  }

  /** Pushes a test to each of the caller's devices (not kept in the bell). */
  async test(p: Principal): Promise<{ devices: number }> {
    const t = TEST_TEXTS[await this.o.language(p.userId)];
    const devices = await this.repo.enqueueForUser(p.userId, { ...t, url: '/settings' });
    void this.sender.drain().catch(() => undefined);
    return { devices };
  }

  private async checkEndpoint(endpoint: string) {
    try {
      await this.o.outbound.check(endpoint);
    } catch (err) {
      if (!(err instanceof OutboundRefused)) throw err;
      throw fieldError(
        'VALIDATION_FAILED',
        400,
        'endpoint',
        err.reason === 'address'
          ? 'The endpoint must be on the public internet, not a private, local or reserved address.'
          : 'The endpoint must be an https:// URL.',
      );
    }
  }
}
