package io.opensdrs.server.problems;

/**
 * A request parameter failed a check that annotations cannot express. Thrown by any feature; the REST API
 * answers it as a 400 problem detail naming the field (the REST layer's {@code ApiErrors}).
 */
public class InvalidFieldException extends RuntimeException {

    private final String field;

    public InvalidFieldException(String field, String message) {
        super(message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
