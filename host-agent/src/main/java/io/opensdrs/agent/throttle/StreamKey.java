package io.opensdrs.agent.throttle;

import io.opensdrs.shared.agent.v1.StreamId;

/** One stream: one virtual disk's IO from one host (SLEDS §3; SPEC §3.5). */
public record StreamKey(String host, String vm, int diskKey) {
    public static StreamKey of(StreamId id) {
        return new StreamKey(id.getHost(), id.getVm(), id.getDiskKey());
    }
}
