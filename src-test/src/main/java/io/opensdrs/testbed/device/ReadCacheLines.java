package io.opensdrs.testbed.device;

import java.util.Arrays;

/**
 * A controller read cache's lines, least recently used first: what an access-ordered
 * {@code LinkedHashMap<Long, Boolean>} that evicts its eldest entry above {@code capacity}
 * holds, in the same order, without a boxed key and a map node per line — a cached RAID
 * group's steady-state sample looks lines up millions of times while its cache fills.
 */
final class ReadCacheLines {
    private static final int NONE = -1;

    private final long capacity;
    // nodes: a doubly linked list from the least to the most recently used line
    private long[] lineOf = new long[16];
    private int[] prev = new int[16];
    private int[] next = new int[16];
    private int head = NONE;
    private int tail = NONE;
    private int size;
    // open addressing with linear probing: line → node, NONE where empty
    private long[] tableLines = new long[32];
    private int[] tableNodes = filled(32);

    ReadCacheLines(long capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a read cache holds at least one line, was " + capacity);
        }
        this.capacity = capacity;
    }

    int size() {
        return size;
    }

    /** Whether {@code line} is held; a held line becomes the most recently used (a cache hit). */
    boolean touch(long line) {
        int node = find(line);
        if (node == NONE) {
            return false;
        }
        moveToTail(node);
        return true;
    }

    /** Holds {@code line} as the most recently used, evicting the least recently used line beyond capacity. */
    void add(long line) {
        int node = find(line);
        if (node != NONE) {
            moveToTail(node);
            return;
        }
        if (size == lineOf.length) {
            int n = size * 2;
            lineOf = Arrays.copyOf(lineOf, n);
            prev = Arrays.copyOf(prev, n);
            next = Arrays.copyOf(next, n);
        }
        node = size++;
        lineOf[node] = line;
        prev[node] = tail;
        next[node] = NONE;
        if (tail != NONE) {
            next[tail] = node;
        } else {
            head = node;
        }
        tail = node;
        insert(line, node);
        if (size > capacity) {
            removeHead();
        }
    }

    private void moveToTail(int node) {
        if (node == tail) {
            return;
        }
        unlink(node);
        prev[node] = tail;
        next[node] = NONE;
        next[tail] = node;
        tail = node;
    }

    private void unlink(int node) {
        int p = prev[node];
        int n = next[node];
        if (p != NONE) {
            next[p] = n;
        } else {
            head = n;
        }
        if (n != NONE) {
            prev[n] = p;
        } else {
            tail = p;
        }
    }

    /** Drops the least recently used line; the last node moves into its place so the nodes stay dense. */
    private void removeHead() {
        int gone = head;
        unlink(gone);
        delete(lineOf[gone]);
        int last = --size;
        if (gone != last) {
            lineOf[gone] = lineOf[last];
            prev[gone] = prev[last];
            next[gone] = next[last];
            if (prev[gone] != NONE) {
                next[prev[gone]] = gone;
            } else {
                head = gone;
            }
            if (next[gone] != NONE) {
                prev[next[gone]] = gone;
            } else {
                tail = gone;
            }
            tableNodes[slotOf(lineOf[gone])] = gone;
        }
    }

    private int find(long line) {
        int mask = tableNodes.length - 1;
        for (int i = hash(line) & mask; ; i = (i + 1) & mask) {
            int node = tableNodes[i];
            if (node == NONE) {
                return NONE;
            }
            if (tableLines[i] == line) {
                return node;
            }
        }
    }

    private int slotOf(long line) {
        int mask = tableNodes.length - 1;
        for (int i = hash(line) & mask; ; i = (i + 1) & mask) {
            if (tableNodes[i] != NONE && tableLines[i] == line) {
                return i;
            }
        }
    }

    private void insert(long line, int node) {
        if (2 * size > tableNodes.length) {
            rehash(tableNodes.length * 2);
        }
        int mask = tableNodes.length - 1;
        int i = hash(line) & mask;
        while (tableNodes[i] != NONE) {
            i = (i + 1) & mask;
        }
        tableLines[i] = line;
        tableNodes[i] = node;
    }

    /** Removes {@code line}'s entry, shifting back the entries of its probe run (no tombstones). */
    private void delete(long line) {
        int mask = tableNodes.length - 1;
        int hole = slotOf(line);
        for (int i = (hole + 1) & mask; tableNodes[i] != NONE; i = (i + 1) & mask) {
            int home = hash(tableLines[i]) & mask;
            // the entry at i may fill the hole if its home is not cyclically within (hole, i]
            boolean movable = hole <= i ? home <= hole || home > i : home <= hole && home > i;
            if (movable) {
                tableLines[hole] = tableLines[i];
                tableNodes[hole] = tableNodes[i];
                hole = i;
            }
        }
        tableNodes[hole] = NONE;
    }

    private void rehash(int length) {
        long[] lines = tableLines;
        int[] nodes = tableNodes;
        tableLines = new long[length];
        tableNodes = filled(length);
        int mask = length - 1;
        for (int j = 0; j < nodes.length; j++) {
            if (nodes[j] != NONE) {
                int i = hash(lines[j]) & mask;
                while (tableNodes[i] != NONE) {
                    i = (i + 1) & mask;
                }
                tableLines[i] = lines[j];
                tableNodes[i] = nodes[j];
            }
        }
    }

    private static int hash(long line) {
        long h = line * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    private static int[] filled(int length) {
        int[] a = new int[length];
        Arrays.fill(a, NONE);
        return a;
    }
}
