package io.opensdrs.testbed.device;

/**
 * The mechanics of one spinning disk, in the terms of Ruemmler and Wilkes' disk model
 * (cited by Pesto as [26]): a seek that grows with the square root of the distance above a
 * settle time, rotational latency from the platter's actual angle, transfer at the media
 * rate, and a per-command firmware overhead.
 *
 * @param rpm             spindle speed
 * @param settleMs        shortest non-zero seek (head settle), ms
 * @param fullStrokeMs    seek across the whole LUN span, ms
 * @param mediaMBps       sustained media transfer rate, MB/s
 * @param commandMs       firmware/command overhead per IO, ms
 * @param ncqDepth        how many queued commands the drive's scheduler looks at (SATA NCQ: 32)
 * @param rotationAware   true: shortest-positioning-time-first (seek + rotation);
 *                        false: shortest-seek-first, the elevator behaviour Pesto Eq. 5 describes
 * @param queuedPenaltyMs extra time a command costs when others are queued behind it — a
 *                        firmware trait of some drives (the WD740GD loses about a revolution
 *                        per queued command in the fio-plot runs)
 * @param readAheadKB     how far the drive keeps reading past a read while the head is not
 *                        needed elsewhere (0 = no sequential prefetch)
 * @param interfaceMBps   rate at which buffered data crosses the link to the host
 */
public record SpindleMechanics(int rpm, double settleMs, double fullStrokeMs, double mediaMBps, double commandMs,
                               int ncqDepth, boolean rotationAware, double queuedPenaltyMs, double readAheadKB,
                               double interfaceMBps) {
    public SpindleMechanics {
        if (rpm <= 0 || settleMs < 0 || fullStrokeMs < settleMs || mediaMBps <= 0 || commandMs < 0 || ncqDepth < 1
                || queuedPenaltyMs < 0 || readAheadKB < 0 || interfaceMBps <= 0) {
            throw new IllegalArgumentException("inconsistent spindle mechanics: " + this);
        }
    }

    public double revolutionMs() {
        return 60_000.0 / rpm;
    }

    public SpindleMechanics withRpm(int newRpm) {
        return new SpindleMechanics(newRpm, settleMs, fullStrokeMs, mediaMBps, commandMs, ncqDepth, rotationAware,
                queuedPenaltyMs, readAheadKB, interfaceMBps);
    }

    public SpindleMechanics withReadAheadKB(double kb) {
        return new SpindleMechanics(rpm, settleMs, fullStrokeMs, mediaMBps, commandMs, ncqDepth, rotationAware,
                queuedPenaltyMs, kb, interfaceMBps);
    }
}
