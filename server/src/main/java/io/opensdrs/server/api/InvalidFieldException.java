package io.opensdrs.server.api;

/** A request parameter failed a check that annotations cannot express; answered 400 naming the field. */
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
