package io.opensdrs.server.balancing;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The balancing suite on the default database: embedded H2 in a file. */
class BalancingOnH2Test extends BalancingIntegrationSuite {

    @DynamicPropertySource
    static void h2(DynamicPropertyRegistry r) {
        try {
            Path dir = Files.createTempDirectory("sdrs-balancing-h2-");
            r.add("sdrs.data-dir", dir::toString);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
