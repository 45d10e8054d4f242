package io.opensdrs.model.romano;

import io.opensdrs.model.Workload;

import java.util.ArrayList;
import java.util.List;

/**
 * One of the 2⁴ − 1 = 15 product terms of {X, R, Z, O} Romano's ANOVA chooses from
 * (Romano §4.1, Table 3), e.g. {@code X:R:O} = X·R·O. Values are in the paper's units:
 * X and R in percent, Z in bytes, O in IOs — the units Romano Table 4's coefficients need.
 */
public record RomanoTerm(int mask) {

    static final int X = 1;
    static final int R = 2;
    static final int Z = 4;
    static final int O = 8;

    /** β0, the constant of Romano Eq. 4 (the 16th term of the full factorial model, §5.1's FFLM). */
    public static final RomanoTerm CONSTANT = new RomanoTerm(0);

    public RomanoTerm {
        if (mask < 0 || mask > 15) {
            throw new IllegalArgumentException("term mask must be 0..15, got " + mask);
        }
    }

    /** All 15 terms, in the order Romano's tables list factors (fewer factors first). */
    public static List<RomanoTerm> all() {
        List<RomanoTerm> terms = new ArrayList<>();
        for (int size = 1; size <= 4; size++) {
            for (int m = 1; m <= 15; m++) {
                if (Integer.bitCount(m) == size) {
                    terms.add(new RomanoTerm(m));
                }
            }
        }
        return terms;
    }

    /** Parses "X:R:O" style names. */
    public static RomanoTerm parse(String name) {
        int m = 0;
        if (name.trim().equals("1")) {
            return CONSTANT;
        }
        for (String f : name.split(":")) {
            switch (f.trim()) {
                case "X" -> m |= X;
                case "R" -> m |= R;
                case "Z" -> m |= Z;
                case "O" -> m |= O;
                default -> throw new IllegalArgumentException("unknown Romano factor '" + f + "' in term " + name);
            }
        }
        return new RomanoTerm(m);
    }

    public boolean containsO() {
        return (mask & O) != 0;
    }

    public double value(Workload w) {
        double v = 1;
        if ((mask & X) != 0) {
            v *= 100 * w.randomFraction();
        }
        if ((mask & R) != 0) {
            v *= 100 * w.readFraction();
        }
        if ((mask & Z) != 0) {
            v *= 1024 * w.ioSizeKb();
        }
        if ((mask & O) != 0) {
            v *= w.outstandingIos();
        }
        return v;
    }

    @Override
    public String toString() {
        if (mask == 0) {
            return "1";
        }
        List<String> parts = new ArrayList<>();
        if ((mask & X) != 0) {
            parts.add("X");
        }
        if ((mask & R) != 0) {
            parts.add("R");
        }
        if ((mask & Z) != 0) {
            parts.add("Z");
        }
        if ((mask & O) != 0) {
            parts.add("O");
        }
        return String.join(":", parts);
    }
}
