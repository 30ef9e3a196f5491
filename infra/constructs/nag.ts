import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Acknowledges cdk-nag findings on a construct and everything under it, each with its reason
 * (cdk-nag 3 reads CDK's native acknowledgements; `NagSuppressions` is gone). Call it beside the
 * construct whose finding it accepts, never on a whole stack.
 */
export function acknowledge(scope: IConstruct, findings: Record<string, string>): void {
  for (const [id, reason] of Object.entries(findings)) Validations.of(scope).acknowledge({ id, reason });
}

/** Both packs we run name the same concern differently: one reason for both ids. */
export const bothPacks = (
  awsSolutions: string | undefined,
  hipaa: string | undefined,
  reason: string,
): Record<string, string> => ({
  ...(awsSolutions ? { [`AwsSolutions-${awsSolutions}`]: reason } : {}),
  ...(hipaa ? { [`HIPAA.Security-${hipaa}`]: reason } : {}),
});

/**
 * The finding id AwsSolutions-IAM5 reports for a wildcard resource: the ARN as cdk-nag flattens
 * it (`Ref` -> `<Name>`, `Fn::GetAtt` -> `<Id.Attr>`, `Fn::Join` joined), so the acknowledgement
 * names exactly the ARN it accepts and nothing else.
 */
export function wildcardResourceFinding(scope: IConstruct, arn: string): string {
  const flatten = (node: unknown): string => {
    if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/}/g, '>');
    const n = node as Record<string, unknown>;
    if (n['Fn::Join']) {
      const [delimiter, items] = n['Fn::Join'] as [string, unknown[]];
      return items.map(flatten).join(delimiter);
    }
    if (n['Fn::GetAtt']) {
      const [resource, attribute] = n['Fn::GetAtt'] as [string, string];
      return `<${resource}.${attribute}>`;
    }
    if (n['Fn::ImportValue']) return flatten(n['Fn::ImportValue']);
    if (n.Ref) return `<${flatten(n.Ref)}>`;
    return JSON.stringify(node);
  };
  return `AwsSolutions-IAM5[Resource::${flatten(Stack.of(scope).resolve(arn))}]`;
}
