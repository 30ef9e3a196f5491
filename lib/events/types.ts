/** The event envelope and types live with the domain (pure data, from the event table); re-exported for the pipeline. */
export * from '../domain/events';
