/**
 * InfoQueue (ID3D12InfoQueue): the debug layer's messages, as data. The emulator stores what the D3D12
 * debug layer would report for mistakes it tolerates instead of crashing on, for example
 * OBJECT_DELETED_WHILE_STILL_IN_USE when a heap or resource is released while command lists that use
 * it are still on the GPU or held behind a queue wait (D3D12 would let that work read freed memory;
 * here the memory waits for the work, and the message says so).
 *
 * Invariants: at most `messageCountLimit` messages are stored (D3D12's default, 1024); later ones
 * are counted as discarded, as GetNumMessagesDiscardedByMessageCountLimit counts them. Messages are
 * plain data (JSON-serializable) and copies: changing one changes nothing stored.
 */

import { invalidArg, show } from '../api/errors.js';

/** DXGI_INFO_QUEUE_DEFAULT_MESSAGE_COUNT_LIMIT. */
export const DEFAULT_MESSAGE_COUNT_LIMIT = 1024;

export type MessageSeverity = 'CORRUPTION' | 'ERROR' | 'WARNING' | 'INFO' | 'MESSAGE';
export type MessageCategory = 'EXECUTION' | 'STATE_CREATION' | 'RESOURCE_MANIPULATION';

/** D3D12_MESSAGE, with the objects it is about named as data. */
export interface InfoQueueMessage {
  category: MessageCategory;
  severity: MessageSeverity;
  /** The D3D12_MESSAGE_ID suffix, e.g. 'OBJECT_DELETED_WHILE_STILL_IN_USE'. */
  id: string;
  description: string;
  /** The object the message is about. */
  object?: { type: 'Heap' | 'Resource'; id: number; name: string; label: string };
  /** Command lists involved, and whether each is submitted to the GPU or held behind a queue wait. */
  commandLists?: { id: number; label: string; state: 'submitted' | 'waiting' }[];
}

/** The debug layer's OBJECT_DELETED_WHILE_STILL_IN_USE for `object`, which `users` still use. */
export function objectDeletedWhileStillInUse(
  object: { label: string; id: number; getName(): string },
  type: 'Heap' | 'Resource',
  users: NonNullable<InfoQueueMessage['commandLists']>,
): InfoQueueMessage {
  const lists = users
    .map((user) => `${user.label} (${user.state === 'waiting' ? 'held behind a queue wait' : 'executing'})`)
    .join(', ');
  return {
    category: 'EXECUTION',
    severity: 'WARNING',
    id: 'OBJECT_DELETED_WHILE_STILL_IN_USE',
    description: `${object.label} was released while GPU work still uses it: ${lists}. In D3D12 that work would read freed memory; here the memory and addresses are kept until it completes.`,
    object: { type, id: object.id, name: object.getName(), label: object.label },
    commandLists: users,
  };
}

export class InfoQueue {
  private readonly messages: InfoQueueMessage[] = [];
  private discarded = 0;
  private readonly limit = DEFAULT_MESSAGE_COUNT_LIMIT;

  /** @internal The device adds what its debug checks find. */
  add(message: InfoQueueMessage): void {
    if (this.messages.length >= this.limit) this.discarded++;
    else this.messages.push(structuredClone(message));
  }

  getNumStoredMessages(): number {
    return this.messages.length;
  }

  getNumMessagesDiscardedByMessageCountLimit(): number {
    return this.discarded;
  }

  getMessageCountLimit(): number {
    return this.limit;
  }

  /** ID3D12InfoQueue::GetMessage: the message at `messageIndex` (a copy), or throws E_INVALIDARG. */
  getMessage(messageIndex: number): InfoQueueMessage {
    const message = Number.isSafeInteger(messageIndex) ? this.messages[messageIndex] : undefined;
    if (!message)
      throw invalidArg(
        'InfoQueue.getMessage',
        'messageIndex',
        `must be an integer below the ${this.messages.length} stored messages, got ${show(messageIndex)}`,
      );
    return structuredClone(message);
  }

  /** Every stored message, oldest first (copies). */
  getMessages(): InfoQueueMessage[] {
    return structuredClone(this.messages);
  }

  clearStoredMessages(): void {
    this.messages.length = 0;
    this.discarded = 0;
  }
}
