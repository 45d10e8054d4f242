package io.opensdrs.balance.sleds;

/** One stream's (a virtual disk's IO from one host) measurements over the last window. */
public record StreamSample(String streamId, String classId, double iops, double bytesPerSecond, double meanLatencyMs) {
}
