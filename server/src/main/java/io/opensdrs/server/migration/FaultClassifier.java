package io.opensdrs.server.migration;

import java.util.Set;

/**
 * Which vCenter faults are worth another attempt. Transient: the connection, contention on the
 * VM or its files, a host briefly unreachable. Everything else is permanent and ends the action
 * with the fault on its recommendation — notably NoDiskSpace, InaccessibleDatastore,
 * DatastoreNotWritableOnHost, InvalidArgument, NotFound, and NotAuthenticated / InvalidLogin,
 * which reach the applier only after the client's one re-login has failed.
 */
public final class FaultClassifier {

    private static final Set<String> TRANSIENT = Set.of("Transport", "TaskInProgress", "ConcurrentAccess", "HostCommunication",
            "HostNotConnected", "Timedout", "ResourceInUse", "FileLocked", "NetworkCopyFault", "SystemError");

    private FaultClassifier() {
    }

    public static boolean isTransient(String faultType) {
        return faultType != null && TRANSIENT.contains(faultType);
    }

    /** The fault vCenter reports for a task cancelled by CancelTask. */
    public static boolean isCancellation(String faultType) {
        return "RequestCanceled".equals(faultType);
    }
}
