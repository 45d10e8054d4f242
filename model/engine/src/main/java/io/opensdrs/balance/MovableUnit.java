package io.opensdrs.balance;

/**
 * What one storage vMotion moves: the whole VM when its VMDKs are kept together (SDRS's unit
 * of migration then), otherwise one disk. Indices refer to a {@link WorkingPlacement}.
 */
public record MovableUnit(int vm, int[] disks, double sizeGb, double outstandingIos) {
}
