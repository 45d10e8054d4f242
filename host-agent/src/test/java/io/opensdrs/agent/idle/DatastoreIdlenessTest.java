package io.opensdrs.agent.idle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DatastoreIdlenessTest {
    @Test
    void idleAfterTwoConsecutiveQuietPeriods() {
        DatastoreIdleness d = new DatastoreIdleness();
        assertThat(d.observe(29, 0.5)).isFalse();
        assertThat(d.observe(10, 0.1)).isTrue();
        assertThat(d.observe(30, 0.1)).as("IO count 30 is not < 30").isFalse();
        assertThat(d.observe(0, 0)).isFalse();
        assertThat(d.observe(0, 0.6)).as("OIO 0.6 is not < 0.6").isFalse();
        assertThat(d.observe(0, 0)).isFalse();
        assertThat(d.observe(0, 0)).isTrue();
    }
}
