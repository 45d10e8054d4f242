package io.opensdrs.server.migration;

import org.springframework.boot.test.context.SpringBootTest;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The whole server against govmomi's simulator run as a process (the test's
 * {@code @DynamicPropertySource} starts it with {@code FaithfulVcsim}): HTTP and gRPC on free
 * ports, the background loops (incremental inventory, model refresh, statistics snapshots, reading
 * vCenter's performance counters, maintenance checks, scheduled balancing) an hour apart so that only what the test does runs,
 * and vCenter calls allowed 20 s (the simulator's tasks on a busy 2-core machine).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sdrs.grpc.port=0",
        "sdrs.security.users[0].name=admin",
        "sdrs.security.users[0].password=test-secret",
        "sdrs.inventory.incremental-interval=PT1H",
        "sdrs.models.refresh-interval=PT1H",
        "sdrs.stats.snapshot-interval=PT1H",
        "sdrs.stats.vcenter.poll-interval=PT1H",
        "sdrs.balancing.maintenance-check-interval=PT1H",
        "sdrs.balancing.scheduler-tick=PT1H",
        "sdrs.plugin.register=false",
        "sdrs.vcenter.timeout=PT20S",
})
public @interface ServerAgainstVcsim {
}
