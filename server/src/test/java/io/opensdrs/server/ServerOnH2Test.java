package io.opensdrs.server;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The integration suite on the default database: embedded H2 in a file. */
class ServerOnH2Test extends ServerIntegrationSuite {

    @DynamicPropertySource
    static void h2(DynamicPropertyRegistry r) {
        try {
            Path dir = Files.createTempDirectory("sdrs-h2-");
            r.add("sdrs.data-dir", dir::toString);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
