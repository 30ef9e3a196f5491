import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import * as z from '../schemas/zod';
import { eventBridgePublisher, type Publish } from './publish';

/** The stream worker's settings, parsed once and failing fast (set by CDK). */
const BusConfig = z.object({ EVENT_BUS_NAME: z.string().check(z.minLength(1)) });

/** The EventBridge publisher of a Lambda: one client per container. */
export function busPublisherFromEnv(env: NodeJS.ProcessEnv = process.env): Publish {
  const { EVENT_BUS_NAME } = BusConfig.parse(env);
  return eventBridgePublisher({ client: new EventBridgeClient({ maxAttempts: 4 }), eventBusName: EVENT_BUS_NAME });
}
