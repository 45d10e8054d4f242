package io.opensdrs.server.api;

/** The addressed object does not exist: 404. */
public class NotFoundException extends RuntimeException {
    public NotFoundException(String message) {
        super(message);
    }
}
