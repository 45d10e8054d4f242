package io.opensdrs.testbed.world;

/**
 * A storage vMotion of one virtual disk in progress. While it runs, the copy reads the
 * source and writes the destination with {@link #COPY_OIO} outstanding IOs each (Pesto
 * §5.4.1: "the number of OIOs induced by storage migration (typically 16)"); when every
 * byte has been copied the disk's IO goes to the destination.
 */
public final class Relocation {
    public static final int COPY_OIO = 16;
    public static final double COPY_IO_KB = 64;

    private final VirtualDisk disk;
    private final String from;
    private final String to;
    private final long sourceBase;
    private final long destinationBase;
    private final double startedMs;
    private long copiedBytes;

    Relocation(VirtualDisk disk, String to, long destinationBase, double startedMs) {
        this.disk = disk;
        this.from = disk.datastore();
        this.to = to;
        this.sourceBase = disk.baseOffset();
        this.destinationBase = destinationBase;
        this.startedMs = startedMs;
    }

    public VirtualDisk disk() {
        return disk;
    }

    public String from() {
        return from;
    }

    public String to() {
        return to;
    }

    public long sourceBase() {
        return sourceBase;
    }

    public long destinationBase() {
        return destinationBase;
    }

    public double startedMs() {
        return startedMs;
    }

    public long copiedBytes() {
        return copiedBytes;
    }

    public double progress() {
        return Math.min(1.0, (double) copiedBytes / disk.sizeBytes());
    }

    void addCopied(long bytes) {
        copiedBytes = Math.min(disk.sizeBytes(), copiedBytes + bytes);
    }

    public boolean done() {
        return copiedBytes >= disk.sizeBytes();
    }
}
