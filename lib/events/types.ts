/** The event envelope and types live with the domain (pure data); re-exported for the pipeline. */
export * from '../domain/events';
