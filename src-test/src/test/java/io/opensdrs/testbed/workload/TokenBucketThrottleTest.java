package io.opensdrs.testbed.workload;

import io.opensdrs.shared.agent.v1.StreamLimit;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenBucketThrottleTest {

    /** When (ms) the last of {@code n} IOs of 4 KiB, reads and writes in turn, all arriving at 0, enters the device. */
    static double lastOfMixed(TokenBucketThrottle t, int n) {
        double last = 0;
        for (int i = 0; i < n; i++) {
            last = t.admit(0, 4096, i % 2 == 0);
        }
        return last;
    }

    @Test
    void aWholeRateLimitCountsReadsAndWritesTogether() {
        TokenBucketThrottle whole = TokenBucketThrottle.of(StreamLimit.newBuilder().setIops(100).setBurstSeconds(0.01).build());
        assertThat(lastOfMixed(whole, 200)).isBetween(1980.0, 2000.0);
        // the same rate on each direction's bucket lets an even mix through at twice the rate
        TokenBucketThrottle perDirection = TokenBucketThrottle.of(StreamLimit.newBuilder().setReadIops(100).setWriteIops(100)
                .setBurstSeconds(0.01).build());
        assertThat(lastOfMixed(perDirection, 200)).isBetween(980.0, 1000.0);
        TokenBucketThrottle bytes = TokenBucketThrottle.of(StreamLimit.newBuilder().setBytesPerS(1 << 20).setBurstSeconds(0.001).build());
        assertThat(lastOfMixed(bytes, 256)).isBetween(990.0, 1000.0);
        assertThat(bytes.isUnlimited()).isFalse();
        assertThat(TokenBucketThrottle.of(StreamLimit.getDefaultInstance()).isUnlimited()).isTrue();
    }

    @Test
    void aNegativeOrInfiniteRateIsRefused() {
        assertThatThrownBy(() -> TokenBucketThrottle.of(StreamLimit.newBuilder().setIops(-1).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite and >= 0");
        assertThatThrownBy(() -> TokenBucketThrottle.of(StreamLimit.newBuilder().setBytesPerS(Double.POSITIVE_INFINITY).build()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TokenBucketThrottle.of(StreamLimit.newBuilder().setReadIops(Double.NaN).build()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
