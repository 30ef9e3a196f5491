/** The part of s3rver (an S3 server on the file system, no types of its own) the local object store uses. */
declare module 's3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface S3rverOptions {
    directory: string;
    silent?: boolean;
    configureBuckets?: Array<{ name: string; configs?: Array<string | Buffer> }>;
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Creates the configured buckets (run() would do it, and listen). */
    configureBuckets(): Promise<unknown>;
    /** Where it keeps objects. */
    store: {
      existsObject(bucket: string, key: string): Promise<boolean>;
      /** An object's subresource file (its `tagging.xml`). */
      putSubresource(
        bucket: string,
        key: string,
        resource: { type: string; toXML(space?: number): string },
      ): Promise<void>;
      deleteSubresource(bucket: string, key: string, type: string): Promise<void>;
    };
    /** Its Koa request handler, to serve behind another server. */
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}

/** s3rver's own account registry: it refuses an access key it does not know (it checks no SigV4 signature). */
declare module 's3rver/lib/models/account.js' {
  const AWSAccount: { DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void } };
  export default AWSAccount;
}

/** s3rver's subresource models: a tag set as S3's PutObjectTagging XML. */
declare module 's3rver/lib/models/config.js' {
  export class TaggingConfiguration {
    static validate(xml: string): TaggingConfiguration;
    type: string;
    toXML(space?: number): string;
  }
}
