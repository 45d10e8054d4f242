package io.opensdrs.testbed.device;

/**
 * A flash device: a serial command/link stage (SATA/AHCI or the controller's front end)
 * feeding independent flash channels.
 *
 * @param channels           flash channels working in parallel; an IO's page picks its channel
 * @param commandUs          front-end time per command (host interface, controller CPU), µs
 * @param linkMBps           host link rate, MB/s (SATA 6 Gb/s ≈ 550 MB/s of payload)
 * @param readUs             time to read one page on a channel (the {@code serviceUs} of the scenario), µs
 * @param programUs          time to program one page, µs
 * @param channelMBps        transfer rate of one channel, MB/s
 * @param writeCacheMB       DRAM write cache; writes are acknowledged once in it
 * @param writeAmplification extra flash work per written byte once the cache is full
 *                           (garbage collection moves valid pages before erasing)
 */
public record SsdProfile(String name, int channels, double commandUs, double linkMBps, double readUs,
                         double programUs, double channelMBps, double writeCacheMB, double writeAmplification)
        implements DeviceProfile {
    public SsdProfile {
        if (channels < 1 || commandUs < 0 || linkMBps <= 0 || readUs <= 0 || programUs <= 0 || channelMBps <= 0
                || writeCacheMB < 0 || writeAmplification < 1) {
            throw new IllegalArgumentException("inconsistent SSD profile " + name);
        }
    }
}
