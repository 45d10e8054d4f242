package io.opensdrs.agent.session;

import io.opensdrs.shared.agent.v1.AgentMessage;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The agent's bounded store-and-forward buffer (host-agent issue: "buffered across server
 * outages up to a bound, overflow counted and reported"). Every report gets its sequence number
 * when it enters and keeps it until the server acknowledges it, across any number of reconnects
 * (agent.proto: seq is strictly increasing per agent; a resend of an applied seq is a DUPLICATE,
 * so nothing is counted twice). When full, the oldest message is dropped: recent statistics are
 * worth more to the balancer than old ones, and the server tolerates gaps in seq.
 *
 * <p>Until the first registration tells the server's highest accepted seq, numbers are
 * provisional: a restarted agent process (its buffer is in memory) renumbers what it queued
 * before it first reached the server to follow that seq, instead of sending numbers the server
 * would take for duplicates.
 */
public final class OutboundBuffer {

    private final int capacity;
    private final ArrayDeque<AgentMessage> queue = new ArrayDeque<>();
    private long nextSeq = 1;
    private boolean anchored;
    private long droppedOverflow;
    private long enqueued;

    public OutboundBuffer(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("buffer capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** Queues a report; returns its seq. */
    public synchronized long add(AgentMessage.Builder message) {
        if (queue.size() == capacity) {
            queue.removeFirst();
            droppedOverflow++;
        }
        long seq = nextSeq++;
        queue.addLast(message.setSeq(seq).build());
        enqueued++;
        notifyAll();
        return seq;
    }

    /**
     * The server's highest accepted seq, from a registration: the first time, provisional numbers
     * move above it; every time, what it already has is removed.
     */
    public synchronized void anchor(long lastAcceptedSeq) {
        if (!anchored) {
            anchored = true;
            if (nextSeq <= lastAcceptedSeq) {
                List<AgentMessage> renumbered = new ArrayList<>(queue.size());
                long seq = lastAcceptedSeq + 1;
                for (AgentMessage m : queue) {
                    renumbered.add(m.toBuilder().setSeq(seq++).build());
                }
                queue.clear();
                queue.addAll(renumbered);
                nextSeq = seq;
                return;
            }
        }
        acknowledgedUpTo(lastAcceptedSeq);
    }

    /** Removes every message with seq ≤ {@code seq} (the server has applied them all). */
    public synchronized void acknowledgedUpTo(long seq) {
        while (!queue.isEmpty() && queue.peekFirst().getSeq() <= seq) {
            queue.removeFirst();
        }
        notifyAll();
    }

    /** Removes one message the server answered for (accepted, duplicate or rejected). */
    public synchronized void acknowledged(long seq) {
        Iterator<AgentMessage> it = queue.iterator();
        while (it.hasNext()) {
            long s = it.next().getSeq();
            if (s == seq) {
                it.remove();
                break;
            }
            if (s > seq) {
                break;
            }
        }
        notifyAll();
    }

    /**
     * The first queued message after {@code afterSeq}, once fewer than {@code window} messages up
     * to {@code afterSeq} are waiting for their acknowledgement; null after {@code timeoutMs}.
     */
    public synchronized AgentMessage next(long afterSeq, int window, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (true) {
            int inFlight = 0;
            AgentMessage candidate = null;
            for (AgentMessage m : queue) {
                if (m.getSeq() <= afterSeq) {
                    inFlight++;
                } else {
                    candidate = m;
                    break;
                }
            }
            if (candidate != null && inFlight < window) {
                return candidate;
            }
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return null;
            }
            wait(left);
        }
    }

    /** Wakes a waiting {@link #next} (the session ended). */
    public synchronized void wake() {
        notifyAll();
    }

    public synchronized int size() {
        return queue.size();
    }

    public int capacity() {
        return capacity;
    }

    public synchronized long droppedOverflow() {
        return droppedOverflow;
    }

    /** Reports queued since start (dropped ones included). */
    public synchronized long enqueued() {
        return enqueued;
    }

    public synchronized long lastSeq() {
        return nextSeq - 1;
    }
}
