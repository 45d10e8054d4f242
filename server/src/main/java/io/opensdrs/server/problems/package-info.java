/**
 * What a request is refused with, shared by every feature so that none needs the REST layer for it:
 * {@link io.opensdrs.server.problems.NotFoundException} (404), {@link io.opensdrs.server.problems.InvalidFieldException}
 * (400 naming the field) and the shapes of ids ({@link io.opensdrs.server.problems.ApiIds}) whose violation is a 400.
 * The REST layer's {@code ApiErrors} turns them into RFC 7807 problem details.
 */
package io.opensdrs.server.problems;
