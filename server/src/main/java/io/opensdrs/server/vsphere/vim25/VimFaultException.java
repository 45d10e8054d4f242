package io.opensdrs.server.vsphere.vim25;

/**
 * A vim25 fault: a SOAP fault from a method call, or the error of a task. {@link #faultType()}
 * is the vSphere fault type ({@code InvalidLogin}, {@code NotAuthenticated},
 * {@code InsufficientDiskSpace}, {@code InaccessibleDatastore}, ...), so callers decide on the
 * type, never on the message text.
 */
public class VimFaultException extends Exception {
    private final String faultType;
    private final String method;

    public VimFaultException(String method, String faultType, String message) {
        super(method + ": " + faultType + (message == null || message.isBlank() ? "" : ": " + message));
        this.method = method;
        this.faultType = faultType;
    }

    public VimFaultException(String method, String faultType, String message, Throwable cause) {
        this(method, faultType, message);
        initCause(cause);
    }

    public String faultType() {
        return faultType;
    }

    public String method() {
        return method;
    }

    /** The session is gone (expired or logged out); a new login is needed. */
    public boolean isNotAuthenticated() {
        return "NotAuthenticated".equals(faultType);
    }

    /** Transport trouble (connection refused, timeout, HTTP error without a SOAP fault). */
    public boolean isTransport() {
        return TRANSPORT.equals(faultType);
    }

    static final String TRANSPORT = "Transport";
}
