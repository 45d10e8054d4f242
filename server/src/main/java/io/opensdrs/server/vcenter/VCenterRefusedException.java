package io.opensdrs.server.vcenter;

/**
 * vCenter did not take a setting the server holds together with it; answered 502 naming the
 * field, and the server's own value is left as it was.
 */
public class VCenterRefusedException extends RuntimeException {

    private final String field;

    public VCenterRefusedException(String field, String message) {
        super(message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
