import { createPlanSigner } from '../../src/approvals/plan-signer.js';

/**
 * The K8S_HEALTH_PLAN_SECRET of test processes (in-process deps and spawned serve/worker alike): 32+
 * bytes, as production requires. Only a test that is about the secret uses another one, or none.
 */
export const TEST_PLAN_SECRET = 'test-plan-secret-0123456789abcdef-0123456789abcdef';

/** A ready signer with {@link TEST_PLAN_SECRET}. */
export const testSigner = () => createPlanSigner(TEST_PLAN_SECRET);
