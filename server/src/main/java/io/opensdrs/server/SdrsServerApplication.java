package io.opensdrs.server;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.scheduling.annotation.EnableScheduling;

/** The management server (SPEC §2): {@code java -jar server/target/sdrs-server.jar}. */
@SpringBootApplication
@EnableScheduling
@EnableConfigurationProperties(SdrsProperties.class)
public class SdrsServerApplication {

    public static void main(String[] args) {
        SpringApplication.run(SdrsServerApplication.class, args);
    }
}
