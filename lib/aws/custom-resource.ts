import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * A CloudFormation custom resource backed by a Lambda of ours (no provider framework, so no second
 * function): CloudFormation invokes it with the event below and waits for the answer PUT to the
 * event's pre-signed `ResponseURL` (docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/crpg-ref-responses.html).
 * A thrown error is answered FAILED with its message, so a failed deploy says why instead of waiting an hour.
 */
export interface CustomResourceEvent {
  RequestType: 'Create' | 'Update' | 'Delete';
  ResponseURL: string;
  StackId: string;
  RequestId: string;
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceProperties: Record<string, string>;
}

export interface CustomResourceResult {
  physicalResourceId: string;
  /** What `Fn::GetAtt` gives, by attribute name. */
  data: Record<string, string>;
}

function put(url: string, body: string): Promise<void> {
  const target = new URL(url);
  const send = target.protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise((resolve, reject) => {
    // S3 signed the URL without a content type: an empty one, as AWS's own cfn-response sends.
    const req = send(
      target,
      { method: 'PUT', headers: { 'content-type': '', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () =>
          (res.statusCode ?? 0) < 300 ? resolve() : reject(new Error(`the response URL answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Wraps `apply` (run on Create and Update; Delete has nothing to undo here) as the Lambda handler
 * of a custom resource.
 */
export function customResourceHandler(apply: (properties: Record<string, string>) => Promise<CustomResourceResult>) {
  return async (event: CustomResourceEvent): Promise<void> => {
    const common = { StackId: event.StackId, RequestId: event.RequestId, LogicalResourceId: event.LogicalResourceId };
    let answer: Record<string, unknown>;
    try {
      const result =
        event.RequestType === 'Delete'
          ? { physicalResourceId: event.PhysicalResourceId ?? event.LogicalResourceId, data: {} }
          : await apply(event.ResourceProperties);
      answer = { ...common, Status: 'SUCCESS', PhysicalResourceId: result.physicalResourceId, Data: result.data };
    } catch (error) {
      answer = {
        ...common,
        Status: 'FAILED',
        PhysicalResourceId: event.PhysicalResourceId ?? event.LogicalResourceId,
        Reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      };
    }
    await put(event.ResponseURL, JSON.stringify(answer));
  };
}
