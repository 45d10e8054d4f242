package io.opensdrs.server.ingest;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The token cache against revocation, with the database's answers timed by the test. */
class AgentCredentialStoreTest {

    /** The agent table of one agent, whose token lookup the test can hold until a revocation has run. */
    static final class OneAgent extends AgentRepository {
        volatile boolean revoked;
        final CountDownLatch lookupRead = new CountDownLatch(1);
        final CountDownLatch releaseLookup = new CountDownLatch(1);
        volatile boolean holdNextLookup;

        OneAgent() {
            super(null);
        }

        @Override
        Optional<String> agentWithToken(String tokenHash) {
            Optional<String> read = revoked ? Optional.empty() : Optional.of("esx1-agent");
            if (holdNextLookup) {
                holdNextLookup = false;
                lookupRead.countDown();
                try {
                    releaseLookup.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return read;
        }

        @Override
        boolean revoke(String agentId, Instant at) {
            boolean was = !revoked;
            revoked = true;
            return was;
        }

        @Override
        boolean exists(String agentId) {
            return true;
        }
    }

    /**
     * A token read from the database just before a revocation, and put in the cache just after the
     * revocation cleared it, must not stay accepted: the next call asks the database again.
     */
    @Test
    void aTokenReadBeforeARevocationIsNotCachedAfterIt() throws Exception {
        OneAgent db = new OneAgent();
        AgentCredentialStore store = new AgentCredentialStore(db, new AgentSessions());
        db.holdNextLookup = true;
        CompletableFuture<Optional<String>> inFlight = CompletableFuture.supplyAsync(() -> store.authenticate("sdrs_token"));
        assertThat(db.lookupRead.await(10, TimeUnit.SECONDS)).isTrue();
        // the lookup has read "valid"; now the revocation commits and clears the cache
        assertThat(store.revoke("esx1-agent")).isTrue();
        db.releaseLookup.countDown();
        inFlight.get(10, TimeUnit.SECONDS);
        assertThat(store.authenticate("sdrs_token")).as("the revoked token, after the race").isEmpty();
    }
}
