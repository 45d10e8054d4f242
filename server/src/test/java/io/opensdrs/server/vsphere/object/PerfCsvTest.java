package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.PerfSamples;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.PerformanceTypes;
import io.opensdrs.server.vsphere.vim25.VimFaultException;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** QueryPerf's CSV format as the server reads it, what vCenter may send wrong included. */
class PerfCsvTest {

    static PerformanceTypes.PerfEntityMetricCSV answer(String sampleInfo, String... series) {
        PerformanceTypes.PerfEntityMetricCSV a = new PerformanceTypes.PerfEntityMetricCSV();
        a.entity = new ManagedObjectReference("VirtualMachine", "vm-42");
        a.sampleInfoCSV = sampleInfo;
        for (int i = 0; i < series.length; i += 3) {
            PerformanceTypes.PerfMetricSeriesCSV s = new PerformanceTypes.PerfMetricSeriesCSV();
            s.id = new PerformanceTypes.PerfMetricId(Integer.parseInt(series[i]), series[i + 1]);
            s.value = series[i + 2];
            a.value.add(s);
        }
        return a;
    }

    @Test
    void samplesAndSeriesAreRead() throws Exception {
        PerfSamples s = PerfCsv.read(answer("20,2026-11-27T10:00:20Z,20,2026-11-27T10:00:40Z",
                "171", "scsi0:0", "120,130", "175", "scsi0:0", "7,-1"));
        assertThat(s.entityId()).isEqualTo("vm-42");
        assertThat(s.timestamps()).containsExactly(Instant.parse("2026-11-27T10:00:20Z"), Instant.parse("2026-11-27T10:00:40Z"));
        assertThat(s.series()).hasSize(2);
        assertThat(s.series().get(0).values()).containsExactly(120, 130);
        assertThat(s.series().get(1).values()).containsExactly(7, -1);
        assertThat(s.series()).allSatisfy(x -> assertThat(x.problem()).isNull());
    }

    @Test
    void aSeriesThatCannotBeReadNamesItsProblemAndTheOthersStand() throws Exception {
        PerfSamples s = PerfCsv.read(answer("20,2026-11-27T10:00:20Z,20,2026-11-27T10:00:40Z",
                "171", "scsi0:0", "120", "172", "scsi0:0", "1,x", "173", "scsi0:0", "5,6"));
        assertThat(s.series().get(0).problem()).isEqualTo("1 values for 2 samples");
        assertThat(s.series().get(1).problem()).isEqualTo("value 'x' is not an integer");
        assertThat(s.series().get(2).problem()).isNull();
    }

    @Test
    void aBrokenAnswerIsRefusedNamingTheEntity() {
        assertThatThrownBy(() -> PerfCsv.read(answer("20,2026-11-27T10:00:20Z,20")))
                .isInstanceOf(VimFaultException.class).hasMessageContaining("VirtualMachine vm-42")
                .hasMessageContaining("not interval/timestamp pairs");
        assertThatThrownBy(() -> PerfCsv.read(answer("20,yesterday")))
                .isInstanceOf(VimFaultException.class).hasMessageContaining("'yesterday' is not a date and time");
        PerformanceTypes.PerfEntityMetric normal = new PerformanceTypes.PerfEntityMetric();
        normal.entity = new ManagedObjectReference("VirtualMachine", "vm-42");
        assertThatThrownBy(() -> PerfCsv.read(normal)).isInstanceOf(VimFaultException.class)
                .hasMessageContaining("not the csv format asked for");
    }
}
