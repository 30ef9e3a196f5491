import { describe, expect, it } from 'vitest';
import { localAwsModel } from '../../infra/local/aws/model';
import { routes } from '../../lib/routes';

// AWS limits as the synthesized stage sets them (the model of test/global-setup.ts); the limits
// the code keeps on its own are test/unit/aws-limits.test.ts.
describe('API Gateway: 30 s integration timeout', () => {
  it('every route function stops before the gateway gives up on it (30 s), as synthesized', async () => {
    const { functions } = await localAwsModel();
    const routeFunctions = Object.values(functions).filter((fn) => fn.kind === 'route');
    expect(routeFunctions.map((fn) => fn.name).sort()).toEqual(Object.keys(routes).sort());
    expect(
      routeFunctions
        .filter((fn) => !(fn.timeoutSeconds > 0 && fn.timeoutSeconds < 30))
        .map((fn) => [fn.name, fn.timeoutSeconds]),
    ).toEqual([]);
  });
});
