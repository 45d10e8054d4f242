package io.opensdrs.server;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The integration suite on a real PostgreSQL server process ({@link PostgresServer}). */
class ServerOnPostgresTest extends ServerIntegrationSuite {

    @DynamicPropertySource
    static void postgres(DynamicPropertyRegistry r) {
        PostgresServer.register(r, "sdrs_server_suite");
    }
}
