import { problemOf, Submission, type Api, type Hold } from './api';
import type { Choice } from './slots';

/**
 * The booking view's hold on the chosen time (API reference, holds), apart from the DOM: while
 * the client fills in the form the time is theirs (POST /v1/public/holds), at most one at a time
 * (picking another time, or going back, releases the old one first), released when the page is
 * left, and forgotten when it expires or is booked.
 */

/** The contract's public hold lifetime: the page never counts longer, whatever the device's clock says. */
const LIFETIME_MS = 600_000;

export interface Held {
  hold: Hold;
  /** Epoch ms (the device's clock) when the page stops counting on it. */
  deadline: number;
}

/**
 * When the page stops counting on a hold: its `expires_at`, but never later than the lifetime
 * from when it was asked for (a device clock running slow would otherwise count past the end).
 */
export const deadlineOf = (hold: Hold, askedAt: number) => Math.min(Date.parse(hold.expires_at), askedAt + LIFETIME_MS);

/** The countdown: whole minutes left (rounded up, for the live region) and "m:ss" (shown). */
export function timeLeft(deadline: number, now: number): { minutes: number; clock: string } {
  const seconds = Math.max(0, Math.ceil((deadline - now) / 1000));
  return {
    minutes: Math.ceil(seconds / 60),
    clock: `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`,
  };
}

export class Holder {
  private held: Held | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Each hold or release waits for the one before: a release always reaches the hold it releases. */
  private queue: Promise<unknown> = Promise.resolve();
  private sequence = 0;
  private readonly submission = new Submission();

  /** `expired`: the hold ran out while it was the current one. */
  constructor(
    private readonly api: Api,
    private readonly expired: () => void,
  ) {}

  get current(): Held | null {
    return this.held;
  }

  /**
   * Releases the current hold, then holds `choice` of the service. Null when another hold or
   * release was asked for meanwhile (that one wins: this hold is released at once); a refusal
   * throws the ApiError (SLOT_UNAVAILABLE, HOLD_LIMIT_REACHED, ...).
   */
  hold(serviceId: string, choice: Choice): Promise<Held | null> {
    const mine = ++this.sequence;
    return this.next(async () => {
      await this.drop();
      if (mine !== this.sequence) return null;
      const body = {
        service_id: serviceId,
        scheduled_at: choice.start,
        ...(choice.providerId ? { provider_id: choice.providerId } : {}),
      };
      const askedAt = Date.now();
      let hold: Hold;
      try {
        hold = await this.api.post('v1/public/holds', { body }, this.submission.keyFor(body));
        this.submission.settle();
      } catch (error) {
        this.submission.settle(problemOf(error));
        if (mine !== this.sequence) return null;
        throw error;
      }
      this.held = { hold, deadline: deadlineOf(hold, askedAt) };
      if (mine !== this.sequence) {
        await this.drop();
        return null;
      }
      this.timer = setTimeout(() => {
        this.forget();
        this.expired();
      }, this.held.deadline - Date.now());
      return this.held;
    });
  }

  /** Releases the current hold (DELETE with its token); a hold asked for before is released when it comes. */
  release(): Promise<void> {
    this.sequence += 1;
    return this.next(() => this.drop());
  }

  /** The page is being left (pagehide): the release goes out at once, with keepalive; what comes next waits for it. */
  leave(): void {
    this.sequence += 1;
    const release = this.drop();
    this.queue = Promise.all([this.queue, release]).catch(() => undefined);
  }

  /** The hold is gone without a release: booked, expired, or the API no longer knows it. */
  forget(): void {
    clearTimeout(this.timer);
    this.held = null;
  }

  private next<T>(step: () => Promise<T>): Promise<T> {
    const result = this.queue.then(step);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async drop(): Promise<void> {
    const held = this.held;
    this.forget();
    if (!held) return;
    // Whatever the answer (already expired, or no answer), the page counts on it no more.
    await this.api
      .delete('v1/public/holds/{hold_id}', { params: { hold_id: held.hold.hold_id } }, held.hold.hold_token)
      .catch(() => undefined);
  }
}
