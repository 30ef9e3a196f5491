import { en } from 'zod/locales';
import { config } from 'zod/mini';

/**
 * zod/mini, with English issue messages: every module imports zod from here
 * (`import * as z from '../schemas/zod'`), never from 'zod' (classic: docs/decisions/0013).
 *
 * Unlike classic zod, mini loads no locale: without this, every issue's message is "Invalid
 * input", so the `details` of a VALIDATION_ERROR would lose their words (and `parseInput` could not
 * tell a missing field by its "received undefined"). Set once, here, because a module that builds
 * or parses a schema has imported this one first.
 */
config(en());

export * from 'zod/mini';
