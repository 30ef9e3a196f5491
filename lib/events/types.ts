/** The event envelope and types live with the domain (the event table is pure data); re-exported for the pipeline. */
export * from '../domain/events';
