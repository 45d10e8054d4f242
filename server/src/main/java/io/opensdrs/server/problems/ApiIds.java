package io.opensdrs.server.problems;

/** Shapes of path identifiers, so a malformed one is a 400 naming the parameter rather than a 404. */
public final class ApiIds {
    /** vim25 managed object ids: group-p123, datastore-45, vm-7 ... */
    public static final String MOID = "[A-Za-z0-9_.:-]{1,64}";
    public static final String MOID_MESSAGE = "must be a managed object id (letters, digits, _ . : -; at most 64)";
    /** Datastore and VM names as vCenter allows them, without control characters or '/'. */
    public static final String NAME = "[^\\p{Cntrl}/]{1,255}";
    public static final String NAME_MESSAGE = "must be 1 to 255 characters without control characters or '/'";
    /**
     * What a client names itself (agents, SLEDS service classes): it starts with a letter or digit, so
     * that no name is "." or ".." or reads as an option, and it can stand in a URL path unescaped.
     */
    public static final String IDENTIFIER = "[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}";
    public static final String IDENTIFIER_MESSAGE = "must be 1 to 128 letters, digits, _ . : - starting with a letter or digit";

    private ApiIds() {
    }
}
