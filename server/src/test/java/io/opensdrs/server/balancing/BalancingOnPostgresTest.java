package io.opensdrs.server.balancing;

import io.opensdrs.server.PostgresServer;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The balancing suite on a real PostgreSQL server process ({@link PostgresServer}). */
class BalancingOnPostgresTest extends BalancingIntegrationSuite {

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry r) {
        PostgresServer.register(r, "sdrs_balancing_suite");
    }
}
