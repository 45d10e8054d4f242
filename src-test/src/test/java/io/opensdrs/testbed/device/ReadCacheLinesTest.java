package io.opensdrs.testbed.device;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReadCacheLinesTest {

    /** The read cache HddArrayDevice held before: an access-ordered map evicting its eldest line above capacity. */
    private static Map<Long, Boolean> lruMap(long capacity) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    @Test
    void holdsAndEvictsTheLinesAnAccessOrderedMapWould() {
        SplittableRandom rng = new SplittableRandom(7);
        for (long capacity : new long[]{1, 2, 5, 64, 1000}) {
            ReadCacheLines lines = new ReadCacheLines(capacity);
            Map<Long, Boolean> map = lruMap(capacity);
            // a key space a few times the capacity, spread over far-apart lines so that probe runs wrap and collide
            long[] keys = new long[(int) (3 * capacity + 7)];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = rng.nextInt(4) == 0 ? rng.nextLong(1L << 40) : i * 1024L;
            }
            for (int op = 0; op < 200_000; op++) {
                long line = keys[rng.nextInt(keys.length)];
                if (rng.nextBoolean()) {
                    assertThat(lines.touch(line)).as("touch %d at op %d, capacity %d", line, op, capacity)
                            .isEqualTo(map.get(line) != null);
                } else {
                    lines.add(line);
                    map.put(line, Boolean.TRUE);
                }
                assertThat(lines.size()).isEqualTo(map.size());
            }
            for (long line : keys) {
                assertThat(lines.touch(line)).isEqualTo(map.get(line) != null);
            }
        }
    }

    @Test
    void theLeastRecentlyUsedLineGoesFirst() {
        ReadCacheLines lines = new ReadCacheLines(2);
        lines.add(1);
        lines.add(2);
        assertThat(lines.touch(1)).isTrue(); // 2 is now the least recently used
        lines.add(3);
        assertThat(lines.touch(2)).isFalse();
        assertThat(lines.touch(1)).isTrue();
        assertThat(lines.touch(3)).isTrue();
        assertThat(lines.size()).isEqualTo(2);
    }

    @Test
    void aCacheHoldsAtLeastOneLine() {
        assertThatThrownBy(() -> new ReadCacheLines(0)).hasMessageContaining("at least one line");
    }
}
