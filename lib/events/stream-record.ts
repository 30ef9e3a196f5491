import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

/**
 * One DynamoDB stream record, as both sources deliver it: Lambda's event (`aws-lambda`
 * DynamoDBRecord, change time in epoch seconds) and the Streams API's GetRecords (a Date).
 * Images are in DynamoDB's wire format.
 */
export interface StreamRecord {
  eventID?: string;
  eventName?: 'INSERT' | 'MODIFY' | 'REMOVE' | (string & {});
  dynamodb?: {
    Keys?: Record<string, unknown>;
    NewImage?: Record<string, unknown>;
    OldImage?: Record<string, unknown>;
    SequenceNumber?: string;
    ApproximateCreationDateTime?: number | Date | string;
  };
}

export type Item = Record<string, unknown>;

/** A stream record decoded: which change, the item before and after (null when absent), and when. */
export interface ItemChange {
  eventId: string;
  kind: 'INSERT' | 'MODIFY' | 'REMOVE';
  keys: Item;
  oldItem: Item | null;
  newItem: Item | null;
  /** The stream's approximate change time (ISO), when the record has one. */
  approximateAt: string | null;
}

/**
 * The Streams API client (GetRecords) deserialises an empty map `{ M: {} }` as `{}` (an emptied
 * claim bucket, for one); every other attribute value keeps its type key. A value with no key
 * can only have been an empty map.
 */
function restoreEmptyMaps(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value;
  const attribute = value as Record<string, unknown>;
  const keys = Object.keys(attribute);
  if (keys.length === 0) return { M: {} };
  if (attribute.M && typeof attribute.M === 'object') return { M: restoreImage(attribute.M as Record<string, unknown>) };
  if (Array.isArray(attribute.L)) return { L: attribute.L.map(restoreEmptyMaps) };
  return value;
}

const restoreImage = (image: Record<string, unknown>) => Object.fromEntries(Object.entries(image).map(([name, value]) => [name, restoreEmptyMaps(value)]));

/** An image (or keys) in the wire format as a plain item, empty maps restored; null when absent. */
export const decodeImage = (image: Record<string, unknown> | undefined): Item | null =>
  image ? unmarshall(restoreImage(image) as Record<string, AttributeValue>) : null;

function approximateTime(value: number | Date | string | undefined): string | null {
  if (value === undefined) return null;
  // Lambda gives epoch seconds; the Streams API a Date (or its ISO string once serialised).
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const CHANGE_KINDS = ['INSERT', 'MODIFY', 'REMOVE'] as const;

/** Decodes a record; null for a record that is not a change of an item (no id or unknown kind). */
export function decodeRecord(record: StreamRecord): ItemChange | null {
  const kind = CHANGE_KINDS.find((name) => name === record.eventName);
  if (!record.eventID || !kind) return null;
  return {
    eventId: record.eventID,
    kind,
    keys: decodeImage(record.dynamodb?.Keys) ?? {},
    oldItem: decodeImage(record.dynamodb?.OldImage),
    newItem: decodeImage(record.dynamodb?.NewImage),
    approximateAt: approximateTime(record.dynamodb?.ApproximateCreationDateTime),
  };
}

/** Ids only, for logs: never images. */
export const recordIds = (record: StreamRecord) => ({ event_id: record.eventID, sequence_number: record.dynamodb?.SequenceNumber });
