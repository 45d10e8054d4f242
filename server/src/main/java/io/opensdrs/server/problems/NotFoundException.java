package io.opensdrs.server.problems;

/**
 * The addressed object does not exist. Thrown by any feature; the REST API answers it as a 404 problem
 * detail (the REST layer's {@code ApiErrors}).
 */
public class NotFoundException extends RuntimeException {
    public NotFoundException(String message) {
        super(message);
    }
}
