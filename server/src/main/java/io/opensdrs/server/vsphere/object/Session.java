package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.VCenterConnection;
import io.opensdrs.server.vsphere.vim25.Vim25Client;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The one logged-in vim25 session the managed objects of this package call through: kept alive
 * with {@code CurrentTime}, logged in again once when vCenter reports {@code NotAuthenticated} (an
 * expired session); a second refusal is the caller's fault to handle.
 */
final class Session implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Session.class);

    private final VCenterConnection connection;
    private final Vim25Client vim;
    private final ScheduledExecutorService keepAlive;

    private Session(VCenterConnection connection, Vim25Client vim) {
        this.connection = connection;
        this.vim = vim;
        this.keepAlive = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "vcenter-keepalive");
            t.setDaemon(true);
            return t;
        });
        long period = connection.keepAlive().toMillis();
        keepAlive.scheduleWithFixedDelay(this::ping, period, period, TimeUnit.MILLISECONDS);
    }

    /** Connects and logs in; fails with the fault vCenter gave (InvalidLogin, Transport, ...). */
    static Session login(VCenterConnection connection) throws VimFaultException {
        Vim25Client vim = Vim25Client.connect(connection.sdkUrl(), connection.trust(), connection.timeout());
        vim.login(connection.user(), connection.currentPassword());
        return new Session(connection, vim);
    }

    Vim25Client vim() {
        return vim;
    }

    private void ping() {
        try {
            call(vim::currentTime);
        } catch (VimFaultException e) {
            log.warn("vCenter keep-alive failed: {}", e.getMessage());
        }
    }

    @FunctionalInterface
    interface VimCall<T> {
        T call() throws VimFaultException;
    }

    /** Runs the calls; when vCenter answers NotAuthenticated, logs in again and runs them once more. */
    <T> T call(VimCall<T> c) throws VimFaultException {
        try {
            return c.call();
        } catch (VimFaultException e) {
            if (!e.isNotAuthenticated()) {
                throw e;
            }
            log.info("vCenter session expired; logging in again as {}", connection.user());
            vim.login(connection.user(), connection.currentPassword());
            return c.call();
        }
    }

    /** Logs out; the session is unusable afterwards. */
    @Override
    public void close() {
        keepAlive.shutdownNow();
        try {
            vim.logout();
        } catch (VimFaultException e) {
            log.debug("logout: {}", e.getMessage());
        }
    }
}
