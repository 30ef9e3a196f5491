import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import * as C from './codecs';
import { DataFailure, isDataFailure } from './failure';

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

/** Every codec of ./codecs.ts by its `entity` tag: the kinds a stream consumer can ask for. */
type Kinds = { [N in keyof typeof C as (typeof C)[N] extends C.Codec<any, infer E> ? E : never]: (typeof C)[N] };
const isCodec = (value: unknown): value is C.Codec<unknown> =>
  typeof value === 'object' && value !== null && 'entity' in value && 'keyOf' in value;
const KINDS = Object.fromEntries(
  (Object.values(C) as unknown[]).filter(isCodec).map((codec) => [codec.entity, codec]),
) as unknown as Kinds;

export type Kind = keyof Kinds;
/** The record type of a kind. */
export type RecordOf<K extends Kind> = Kinds[K] extends C.Codec<infer T> ? T : never;

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
  if (attribute.M && typeof attribute.M === 'object')
    return { M: restoreImage(attribute.M as Record<string, unknown>) };
  if (Array.isArray(attribute.L)) return { L: attribute.L.map(restoreEmptyMaps) };
  return value;
}

const restoreImage = (image: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(image).map(([name, value]) => [name, restoreEmptyMaps(value)]));

/** An image (or keys) in the wire format as a plain item, empty maps restored; null when absent. */
const decodeImage = (image: Record<string, unknown> | undefined): Record<string, unknown> | null =>
  image ? unmarshall(restoreImage(image) as Record<string, AttributeValue>) : null;

function approximateTime(value: number | Date | string | undefined): string | null {
  if (value === undefined) return null;
  // Lambda gives epoch seconds; the Streams API a Date (or its ISO string once serialised).
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const CHANGE_KINDS = ['INSERT', 'MODIFY', 'REMOVE'] as const;

/** A stored record's change, decoded: its kind, the record before and after (null when absent), and when. */
export type StoredChange<K extends Kind = Kind> = {
  [P in K]: {
    kind: P;
    /** The stream record's eventID. */
    eventId: string;
    change: (typeof CHANGE_KINDS)[number];
    before: RecordOf<P> | null;
    after: RecordOf<P> | null;
    /** The stream's approximate change time (ISO), when the record has one. */
    approximateAt: string | null;
  };
}[K];

/** An image's `entity` tag, read from the wire format without decoding the rest. */
const entityOf = (image: Record<string, unknown> | undefined) => (image?.entity as { S?: string } | undefined)?.S;

/**
 * THE stream decoder, for every stream consumer (events, report aggregates): the change of a
 * record of one of `kinds`, through that kind's codec (lib/db/codecs.ts). An item is taken for a
 * kind by its `entity` tag AND by its key being the one the codec builds from the item's own
 * fields, so nothing else can pass for it. Null for every other record: another kind (decoded no
 * further), an item whose key disagrees, or a record that is no item change (no id, another eventName).
 */
export function decodeStreamRecord<K extends Kind>(record: StreamRecord, kinds: readonly K[]): StoredChange<K> | null {
  const change = CHANGE_KINDS.find((name) => name === record.eventName);
  if (!record.eventID || !change) return null;
  const entity = entityOf(record.dynamodb?.NewImage ?? record.dynamodb?.OldImage);
  if (!entity || !(kinds as readonly string[]).includes(entity)) return null;
  const kind = entity as K;
  const codec = KINDS[kind];
  const before = decodeImage(record.dynamodb?.OldImage);
  const after = decodeImage(record.dynamodb?.NewImage);
  const keys = decodeImage(record.dynamodb?.Keys);
  const key = codec.keyOf((after ?? before)!);
  if (!key || keys?.pk !== key.pk || keys?.sk !== key.sk) return null;
  const eventId = record.eventID;
  // A record that does not decode names the stream record too, so its shard's retries can be traced.
  const decoded = (image: Record<string, unknown> | null) => {
    try {
      return codec.fromItem(image ?? undefined);
    } catch (error) {
      if (isDataFailure(error, 'corrupt'))
        throw new DataFailure('corrupt', `stream record ${eventId}: ${error.message}`);
      throw error;
    }
  };
  return {
    kind,
    eventId,
    change,
    before: decoded(before),
    after: decoded(after),
    approximateAt: approximateTime(record.dynamodb?.ApproximateCreationDateTime),
  } as StoredChange<K>;
}

/** Ids only, for logs: never images. */
export const recordIds = (record: StreamRecord) => ({
  event_id: record.eventID,
  sequence_number: record.dynamodb?.SequenceNumber,
});
