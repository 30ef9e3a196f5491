import { HEALTH_SCORE_FORMULA } from '../domain/health-score';

/**
 * Prose the OpenAPI document attaches to schemas it does not own. `health_score` gets this
 * wherever a response carries it (the client, and anything embedding one).
 */
export const HEALTH_SCORE_DESCRIPTION = `0-100, read-only. ${HEALTH_SCORE_FORMULA}`;
