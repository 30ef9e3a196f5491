/** Whether a string is well-formed UTF-16 (no lone surrogate), so it has a UTF-8 form DynamoDB can store or match. */
export const isWellFormed = (text: string): boolean => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
