const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string is well-formed UTF-16 (no lone surrogate), so it has a UTF-8 form DynamoDB can store or match. */
export const isWellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);

/** The string with each lone surrogate replaced by U+FFFD (what `String.prototype.toWellFormed` does; ES2024). */
export const toWellFormed = (text: string): string => text.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd');
