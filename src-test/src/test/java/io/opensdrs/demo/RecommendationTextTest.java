package io.opensdrs.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The demo's recommendation lines: names, not ids; idle, not 0.00 ms; cost and benefit once. */
class RecommendationTextTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final RecommendationText.Names NAMES = new RecommendationText.Names(
            Map.of("datastore-55", "gold-ssd1", "datastore-59", "gold-7k1"),
            Map.of("vm-74", "gold-oltp1"),
            Map.of("vm-74", new LinkedHashMap<>(Map.of(2000, "system", 2001, "data"))));

    /** GET /recommendations/4 and its explanation as the server returns them (a pesto move onto an idle SSD). */
    private static final String REC = """
            {"id":4,"reasonCode":"balanceDatastoreIOLoad","state":"PENDING","actions":[{"vmId":"vm-74","diskKeys":[],
             "sourceDatastoreIds":["datastore-59"],"destinationDatastoreId":"datastore-55","sizeBytes":16217796608,
             "homeOnly":false}]}""";
    private static final String WHY = """
            {"summary":"datastore gold-7k1 is at 51.1 ms p90, over the 15 ms threshold; moving VM gold-oltp1 (14.0 GB, 9.0 OIO) \
            to gold-ssd1: source 27.87 → 21.29 ms, destination idle → 0.21 ms (queueing, queueing); the pair's 34 outstanding \
            IOs wait 6.60 ms less on average for the 16-h period and 2.10 ms more during the ~9-min copy (mean of p50, p70, p90; \
            Pesto Eqs. 10–11: benefit 86.2 M ≥ cost 871 k ms·OIO·s)",
             "cost":{"value":871323.88,"lower":871323.88,"upper":871323.88},
             "benefit":{"value":86166254.88,"lower":86166254.88,"upper":86166254.88},
             "datastores":[
              {"datastoreId":"datastore-59","datastoreName":"gold-7k1","model":"queueing",
               "latencyBeforeMs":{"value":27.87,"lower":27.87,"upper":27.87},"latencyAfterMs":{"value":21.29,"lower":20.5,"upper":22.0},
               "p90BeforeMs":51.12,"p90AfterMs":44.54,"idleBefore":false,"idleAfter":false},
              {"datastoreId":"datastore-55","datastoreName":"gold-ssd1","model":"queueing",
               "latencyBeforeMs":null,"latencyAfterMs":{"value":0.21,"lower":0.21,"upper":0.21},
               "p90BeforeMs":null,"p90AfterMs":0.21,"idleBefore":true,"idleAfter":false}]}""";

    private static String describe() throws Exception {
        JsonNode rec = JSON.readTree(REC);
        JsonNode why = JSON.readTree(WHY);
        return RecommendationText.describe(4, rec, why, NAMES);
    }

    @Test
    void anIdleDatastoreReadsIdleNotZero() throws Exception {
        String text = describe();
        assertThat(text).contains("gold-ssd1    queueing mean latency idle → 0.21 ms, p90 idle → 0.21 ms");
        assertThat(text).contains("gold-7k1     queueing mean latency 27.87 → 21.29 [20.50, 22.00] ms, p90 51.12 → 44.54 ms");
        assertThat(text).doesNotContain("0.00");
    }

    @Test
    void costAndBenefitArePrintedOnceInTheirUnit() throws Exception {
        String text = describe();
        assertThat(text.split("ms·OIO·s", -1)).hasSize(2);
        assertThat(text.split("benefit", -1)).hasSize(2);
        assertThat(text).doesNotContain("86166254").doesNotContain("871323");
    }

    @Test
    void theSentenceIsPrintedOneClauseALineKeepingTheCostBenefitClauseWhole() throws Exception {
        List<String> lines = describe().lines().toList();
        assertThat(lines.get(0)).isEqualTo("  recommendation 4 [balanceDatastoreIOLoad] datastore gold-7k1 is at 51.1 ms p90, over the 15 ms threshold;");
        assertThat(lines.get(2)).startsWith("      the pair's 34 outstanding IOs wait 6.60 ms less").endsWith("ms·OIO·s)");
    }

    @Test
    void aWholeVmMoveNamesTheVmItsDisksAndTheDatastoresNotTheirIds() throws Exception {
        String text = describe();
        assertThat(text).contains("move VM gold-oltp1 whole (disks system, data and its home) from gold-7k1 to gold-ssd1, 15.1 GB");
        assertThat(text).doesNotContain("vm-74").doesNotContain("datastore-5").doesNotContain("disks []");
    }

    @Test
    void aMoveOfSomeDisksNamesThemAndAHomeMoveSaysItsDisksStay() throws Exception {
        JsonNode disk = JSON.readTree("""
                {"vmId":"vm-74","diskKeys":[2001],"sourceDatastoreIds":["datastore-59"],"destinationDatastoreId":"datastore-55",
                 "sizeBytes":10737418240,"homeOnly":false}""");
        assertThat(RecommendationText.action(disk, NAMES)).isEqualTo("move disk data of VM gold-oltp1 from gold-7k1 to gold-ssd1, 10.0 GB");
        JsonNode home = JSON.readTree("""
                {"vmId":"vm-74","diskKeys":[],"sourceDatastoreIds":["datastore-59"],"destinationDatastoreId":"datastore-55",
                 "sizeBytes":322122547,"homeOnly":true}""");
        assertThat(RecommendationText.action(home, NAMES))
                .isEqualTo("move the home of VM gold-oltp1 (its configuration files; its disks stay) from gold-7k1 to gold-ssd1, 0.3 GB");
    }

    @Test
    void aP90TheServerCouldNotProjectReadsNotProjectedNotZero() throws Exception {
        JsonNode f = JSON.readTree("""
                {"datastoreId":"datastore-55","datastoreName":"gold-ssd1","model":"queueing",
                 "latencyBeforeMs":{"value":0.54,"lower":0.54,"upper":0.54},"latencyAfterMs":{"value":0.05,"lower":0.05,"upper":0.05},
                 "p90BeforeMs":0.32,"p90AfterMs":null,"idleBefore":false,"idleAfter":false}""");
        assertThat(RecommendationText.forecast(f).p90Change())
                .isEqualTo("0.32 ms → not projected (the model's mean falls 0.49 ms, more than the p90)");
    }

    @Test
    void aDiskIsNamedByItsFile() {
        assertThat(RecommendationText.diskName("[gold-7k1] gold-web6/data.vmdk")).isEqualTo("data");
        assertThat(RecommendationText.diskName("")).isEmpty();
    }
}
