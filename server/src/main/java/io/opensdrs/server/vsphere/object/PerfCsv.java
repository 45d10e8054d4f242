package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.PerfSamples;
import io.opensdrs.server.vsphere.vim25.PerformanceTypes;
import io.opensdrs.server.vsphere.vim25.VimFaultException;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads QueryPerf's CSV format ({@code PerfEntityMetricCSV}): {@code sampleInfoCSV} is
 * "interval,timestamp,interval,timestamp,..." and each series' value the comma-separated
 * integers, one per sample. The compact format is what lets a period's 9,000 disks arrive in
 * a few calls.
 */
final class PerfCsv {
    private PerfCsv() {
    }

    static PerfSamples read(PerformanceTypes.PerfEntityMetricBase answer) throws VimFaultException {
        if (answer == null || answer.entity == null) {
            throw new VimFaultException("QueryPerf", "InvalidResponse", "an answer without its entity");
        }
        String entity = answer.entity.type() + " " + answer.entity.value();
        if (!(answer instanceof PerformanceTypes.PerfEntityMetricCSV csv)) {
            throw new VimFaultException("QueryPerf", "InvalidResponse",
                    entity + ": answered in the normal format, not the csv format asked for");
        }
        List<Instant> timestamps = new ArrayList<>();
        String info = csv.sampleInfoCSV == null ? "" : csv.sampleInfoCSV.trim();
        if (!info.isEmpty()) {
            String[] parts = info.split(",");
            if (parts.length % 2 != 0) {
                throw new VimFaultException("QueryPerf", "InvalidResponse",
                        entity + ": sampleInfoCSV has " + parts.length + " fields, not interval/timestamp pairs");
            }
            for (int i = 1; i < parts.length; i += 2) {
                try {
                    timestamps.add(Instant.parse(parts[i].trim()));
                } catch (DateTimeParseException e) {
                    throw new VimFaultException("QueryPerf", "InvalidResponse",
                            entity + ": sampleInfoCSV timestamp '" + parts[i] + "' is not a date and time");
                }
            }
        }
        List<PerfSamples.Series> series = new ArrayList<>(csv.value.size());
        for (PerformanceTypes.PerfMetricSeriesCSV s : csv.value) {
            if (s.id == null) {
                throw new VimFaultException("QueryPerf", "InvalidResponse", entity + ": a series without its metric id");
            }
            String instance = s.id.instance == null ? "" : s.id.instance;
            String text = s.value == null ? "" : s.value.trim();
            String[] parts = text.isEmpty() ? new String[0] : text.split(",");
            long[] values = new long[parts.length];
            String problem = null;
            if (parts.length != timestamps.size()) {
                problem = parts.length + " values for " + timestamps.size() + " samples";
            } else {
                for (int i = 0; i < parts.length; i++) {
                    try {
                        values[i] = Long.parseLong(parts[i].trim());
                    } catch (NumberFormatException e) {
                        problem = "value '" + parts[i].trim() + "' is not an integer";
                        break;
                    }
                }
            }
            series.add(new PerfSamples.Series(s.id.counterId, instance, values, problem));
        }
        return new PerfSamples(answer.entity.type(), answer.entity.value(), timestamps, series);
    }
}
