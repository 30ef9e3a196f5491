/** Placeholder so the stack bundles: the event pipeline replaces this module. */
export const handler = async () => {
  throw new Error('not implemented yet');
};
